#include "perfgate/perf/suite.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <unordered_set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "perfgate/core/backend.hpp"
#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "perfgate/serving/server_address.hpp"
#include "suite_sweep.hpp"

namespace perfgate::perf {
namespace {

using nlohmann::json;

using Need = JsonFields::Need;

// Unknown keys are errors (a typo must not become a silent default); the top level is "the suite".
void only_keys(JsonFields& r, const json& obj, const std::string& pointer, std::initializer_list<std::string_view> known) {
    r.only_keys(obj, pointer, known, pointer.empty() ? std::string("the suite") : pointer);
}

std::optional<std::uint64_t> bytes(JsonFields& r, const json& obj, const std::string& pointer, const char* key) {
    auto v = r.integer(obj, pointer, key, 0);
    if (!v) return std::nullopt;
    return static_cast<std::uint64_t>(*v);
}

std::filesystem::path resolve(const std::filesystem::path& base, const std::string& p) {
    if (p.empty()) return {};
    std::filesystem::path path(p);
    return path.is_absolute() ? path : (base / path).lexically_normal();
}

void read_contention(JsonFields& r, const json& obj, ContentionLimits& c) {
    const std::string ptr = "/workload/contention";
    if (!obj.is_object()) return r.fail(ptr, "\"contention\" must be an object");
    only_keys(r, obj, ptr, {"max_load_per_cpu", "max_other_cpu", "max_gpu_processes", "max_wait_s", "poll_s", "window_s"});
    // The upper bounds only catch typos (a load of 1000 per CPU, a wait of days): a CTest timeout
    // has to cover max_wait_s, and a look longer than a minute is no longer "now".
    if (auto v = r.number_in(obj, ptr, "max_load_per_cpu", 0.01, 1000)) c.max_load_per_cpu = *v;
    if (auto v = r.number_in(obj, ptr, "max_other_cpu", 0, 1)) c.max_other_cpu = *v;
    if (auto v = r.integer(obj, ptr, "max_gpu_processes", 0)) c.max_gpu_processes = *v;
    if (auto v = r.number_in(obj, ptr, "max_wait_s", 0, 3600)) c.max_wait_s = *v;
    if (auto v = r.number_in(obj, ptr, "poll_s", 0.05, 600)) c.poll_s = *v;
    if (auto v = r.number_in(obj, ptr, "window_s", 0.05, 60)) c.window_s = *v;
}

void read_workload(JsonFields& r, const json& obj, Workload& w) {
    const std::string ptr = "/workload";
    if (!obj.is_object()) return r.fail(ptr, "\"workload\" must be an object");
    only_keys(r, obj, ptr, {"prompt_tokens", "generated_tokens", "batch", "warmup", "repetitions", "cooldown_s",
                           "big_cooldown_s", "big_model_gib", "timeout_s", "max_reruns", "contention"});
    if (auto v = r.integer(obj, ptr, "prompt_tokens", 1)) w.prompt_tokens = *v;
    if (auto v = r.integer(obj, ptr, "generated_tokens", 1)) w.generated_tokens = *v;
    if (auto v = r.integer(obj, ptr, "batch", 1)) w.batch = *v;
    if (auto v = r.integer(obj, ptr, "warmup", 0)) w.warmup = *v;
    if (auto v = r.integer(obj, ptr, "repetitions", 1)) w.repetitions = *v;
    // Ranges keep every later conversion (to milliseconds, to bytes) inside its type: a cooldown of
    // 1e9 s would sleep for decades, a timeout of 1e12 s overflow to an immediate one.
    if (auto v = r.number_in(obj, ptr, "cooldown_s", 0, 3600)) w.cooldown_s = *v;
    if (auto v = r.number_in(obj, ptr, "big_cooldown_s", 0, 3600)) w.big_cooldown_s = *v;
    if (auto v = r.number_in(obj, ptr, "big_model_gib", 0, 1e6)) w.big_model_bytes = static_cast<std::uint64_t>(*v * 1073741824.0);
    if (auto v = r.number_in(obj, ptr, "timeout_s", 0.001, 86400)) w.timeout_s = *v;
    if (auto v = r.integer(obj, ptr, "max_reruns", 0)) w.max_reruns = *v;
    if (auto it = obj.find("contention"); it != obj.end()) read_contention(r, *it, w.contention);
}

void read_model(JsonFields& r, const json& obj, const std::string& ptr, const std::filesystem::path& base, SuiteModel& m) {
    if (!obj.is_object()) return r.fail(ptr, "a model must be an object");
    only_keys(r, obj, ptr, {"name", "checkpoint", "forge_spec", "format", "weight_bytes", "weight_gb",
                           "kv_cache_bytes", "overhead_bytes", "benchmark", "description"});
    m.line = static_cast<int>(r.line(ptr));
    m.name = r.string(obj, ptr, "name", Need::required).value_or("");
    if (!r.failed() && !is_safe_name(m.name))
        r.fail(ptr + "/name", "model name \"" + m.name + "\" must match [A-Za-z0-9][A-Za-z0-9.-]* (it becomes part of a test and file name)");
    m.checkpoint = resolve(base, r.string(obj, ptr, "checkpoint").value_or(""));
    m.forge_spec = resolve(base, r.string(obj, ptr, "forge_spec").value_or(""));
    m.format = r.string(obj, ptr, "format").value_or("");
    m.benchmark = r.string(obj, ptr, "benchmark").value_or("");
    m.weight_bytes = bytes(r, obj, ptr, "weight_bytes");
    // Published model sizes are often in (decimal) GB; accept that too.
    // At most a petabyte: the bytes must fit a uint64 (a fuzzed 1.8e12 GB did not).
    if (auto gb = r.number_in(obj, ptr, "weight_gb", 0, 1e6)) m.weight_bytes = static_cast<std::uint64_t>(*gb * 1e9);
    m.kv_cache_bytes = bytes(r, obj, ptr, "kv_cache_bytes");
    m.overhead_bytes = bytes(r, obj, ptr, "overhead_bytes");
    if (m.checkpoint.empty() && m.forge_spec.empty() && m.benchmark.empty())
        r.fail(ptr, "model \"" + m.name + "\" needs \"checkpoint\" or \"forge_spec\" (or \"benchmark\" for catch2)");
    if (!m.checkpoint.empty() && !m.forge_spec.empty())
        r.fail(ptr, "model \"" + m.name + "\" has both \"checkpoint\" and \"forge_spec\"; give one");
}

void read_runtime_name(JsonFields& r, const json& obj, const std::string& ptr, SuiteRuntime& rt) {
    rt.name = r.string(obj, ptr, "name", Need::required).value_or("");
    if (!r.failed() && !is_safe_name(rt.name))
        r.fail(ptr + "/name", "runtime name \"" + rt.name + "\" must match [A-Za-z0-9][A-Za-z0-9.-]*");
    if (!r.failed() && rt.name.find('.') != std::string::npos)
        r.fail(ptr + "/name", "runtime name \"" + rt.name + "\" must not contain '.' (perf.<runtime>.<model> is split at the first '.')");
    if (!r.failed() && rt.name == "probe")
        r.fail(ptr + "/name", "runtime name \"probe\" is reserved (perf.probe.<suite> is the setup test)");
}

// A bare name is looked up on PATH when the run starts; anything with a '/' is a path relative
// to the manifest's folder. "./x" beside a manifest in the working directory normalises to "x",
// which the launcher would search on PATH (an impostor earlier on PATH would run), so the
// resolved path keeps a folder part.
std::string runtime_binary(const std::filesystem::path& base, const std::string& binary) {
    if (binary.find('/') == std::string::npos) return binary;
    auto path = resolve(base, binary);
    return (path.has_parent_path() ? path : std::filesystem::path(".") / path).string();
}

void read_env(JsonFields& r, const json& obj, const std::string& ptr, std::map<std::string, std::string>& env) {
    auto it = obj.find("env");
    if (it == obj.end()) return;
    if (!it->is_object()) return r.fail(ptr + "/env", "\"env\" must be an object of strings");
    for (const auto& [k, v] : it->items()) {
        if (!v.is_string()) r.fail(json_pointer_child(ptr + "/env", k), "environment values must be strings");
        else env[k] = v.get<std::string>();
    }
}

void read_patterns(JsonFields& r, const json& obj, const std::string& ptr, CommandPatterns& patterns) {
    auto it = obj.find("patterns");
    if (it == obj.end()) return;
    const std::string pp = ptr + "/patterns";
    if (!it->is_object()) return r.fail(pp, "\"patterns\" must be an object");
    only_keys(r, *it, pp, {"decode_tok_s", "prefill_tok_s", "prompt_tokens", "generated_tokens", "version", "commit"});
    patterns.decode_tok_s = r.string(*it, pp, "decode_tok_s", Need::required).value_or("");
    patterns.prefill_tok_s = r.string(*it, pp, "prefill_tok_s").value_or("");
    patterns.prompt_tokens = r.string(*it, pp, "prompt_tokens").value_or("");
    patterns.generated_tokens = r.string(*it, pp, "generated_tokens").value_or("");
    patterns.version = r.string(*it, pp, "version").value_or("");
    patterns.commit = r.string(*it, pp, "commit").value_or("");
}

// What depends on the runtime's kind: the adapter's own checks of the manifest, a command line
// when the kind has no default one, and how repetitions run.
void read_kind_rules(JsonFields& r, const json& obj, const std::string& ptr, const RuntimeAdapter& adapter,
                     SuiteRuntime& rt) {
    if (adapter.check && !r.failed())
        if (auto problem = adapter.check(rt)) r.fail(ptr, *problem);
    if (adapter.default_args.empty() && rt.args.empty() && rt.serving.url.empty() && !r.failed())
        r.fail(ptr, std::string("a \"") + rt.kind + "\" runtime needs \"args\" (there is no default command line)");
    rt.in_process_repetitions = adapter.in_process_repetitions;
    if (auto v = r.boolean(obj, ptr, "repetitions_in_process")) rt.in_process_repetitions = *v;
}

// A serving runtime's load: its concurrency, requests per repetition and endpoints.
void read_serving_load(JsonFields& r, const json& obj, const std::string& ptr, SuiteRuntime& rt) {
    const bool serving = rt.measure == Measure::serving;
    for (const char* key : {"concurrency", "requests", "requests_per_client", "endpoint", "health_path", "url"})
        if (obj.contains(key) && !serving && !r.failed())
            return r.fail(ptr + "/" + key, std::string("\"") + key + "\" is for a runtime with \"measure\": \"serving\"");
    if (auto v = r.integer(obj, ptr, "concurrency", 1)) rt.serving.concurrency = *v;
    if (auto v = r.integer(obj, ptr, "requests", 1)) rt.serving.requests = *v;
    if (auto v = r.integer(obj, ptr, "requests_per_client", 1)) {
        if (obj.contains("requests") && !r.failed())
            return r.fail(ptr + "/requests_per_client", "give \"requests\" or \"requests_per_client\", not both");
        if (*v > 100000) return r.fail(ptr + "/requests_per_client", "requests_per_client must be at most 100000");
        rt.serving.requests_per_client = *v;
        rt.serving.requests = *v * rt.serving.concurrency;
    }
    if (!r.failed() && (rt.serving.concurrency < 1 || rt.serving.concurrency > 1024))
        r.fail(ptr + "/concurrency", "concurrency must be between 1 and 1024");
    if (!r.failed() && (rt.serving.requests < rt.serving.concurrency || rt.serving.requests > 100000))
        r.fail(ptr + "/requests", "requests must be at least the concurrency (every client sends one) and at most 100000");
    rt.serving.endpoint = r.string(obj, ptr, "endpoint").value_or(rt.serving.endpoint);
    rt.serving.health_path = r.string(obj, ptr, "health_path").value_or(rt.serving.health_path);
    for (const auto* path : {&rt.serving.endpoint, &rt.serving.health_path})
        if (!r.failed() && (path->empty() || path->front() != '/'))
            r.fail(ptr, "\"endpoint\" and \"health_path\" are paths on the server, starting with '/'");
    if (serving && rt.replay && !r.failed()) r.fail(ptr + "/measure", "a replay runtime prints recorded output: it serves nothing");
}

// "measure": "time", "instructions" (docs/instructions.md) or "serving" (docs/serving.md), by
// default the kind's, and the valgrind that counts instructions. Counting runs the runtime on this
// machine under valgrind: a replay has nothing to count.
void read_measure(JsonFields& r, const json& obj, const std::string& ptr, const std::filesystem::path& base,
                  const RuntimeAdapter& adapter, SuiteRuntime& rt) {
    static const char* names[] = {"time", "instructions", "serving"};
    const auto measure = r.string(obj, ptr, "measure").value_or(names[static_cast<int>(adapter.measure)]);
    if (measure == "instructions") rt.measure = Measure::instructions;
    else if (measure == "serving") rt.measure = Measure::serving;
    else if (measure != "time" && !r.failed())
        r.fail(ptr + "/measure", "measure must be \"time\", \"instructions\" or \"serving\" (got \"" + measure + "\")");
    if (!r.failed() && (rt.measure == Measure::serving) != (adapter.measure == Measure::serving))
        r.fail(ptr + "/measure", "a \"" + rt.kind + "\" runtime " +
                                     (adapter.measure == Measure::serving ? "is a server: its measure is \"serving\""
                                                                          : "is no server: it cannot be measured \"serving\""));
    read_serving_load(r, obj, ptr, rt);
    if (auto v = r.string(obj, ptr, "valgrind")) {
        if (rt.measure != Measure::instructions && !r.failed())
            r.fail(ptr + "/valgrind", "\"valgrind\" is for a runtime with \"measure\": \"instructions\"");
        rt.valgrind = runtime_binary(base, *v);
    }
    if (rt.measure == Measure::instructions && rt.replay && !r.failed())
        r.fail(ptr + "/measure", "a replay runtime prints recorded output: it has no instructions to count");
}

// "url": a server that is already running. perfgate starts nothing, so whatever would start it
// (binary, args, flags, env) is refused rather than silently unused.
void read_url(JsonFields& r, const json& obj, const std::string& ptr, SuiteRuntime& rt) {
    auto url = r.string(obj, ptr, "url");
    if (!url) return;
    if (auto address = serving::parse_server_url(*url); !address) return r.fail(ptr + "/url", address.error().message);
    for (const char* key : {"binary", "args", "flags", "env"})
        if (obj.contains(key))
            return r.fail(ptr + "/" + key, std::string("a runtime with \"url\" is a running server that perfgate does not "
                                                       "start: \"") + key + "\" has no use");
    rt.serving.url = *url;
}

void read_runtime(JsonFields& r, const json& obj, const std::string& ptr, const std::filesystem::path& base, SuiteRuntime& rt) {
    if (!obj.is_object()) return r.fail(ptr, "a runtime must be an object");
    only_keys(r, obj, ptr, {"name", "kind", "binary", "args", "flags", "env", "output", "patterns",
                           "repetitions_in_process", "version", "commit", "upstream_commit", "overlay_commit",
                           "replay", "description", "format", "measure", "valgrind", "concurrency", "requests", "requests_per_client",
                           "endpoint", "health_path", "sweep", "url"});
    rt.line = static_cast<int>(r.line(ptr));
    read_runtime_name(r, obj, ptr, rt);
    const auto kind = r.string(obj, ptr, "kind", Need::required).value_or("");
    const RuntimeAdapter* adapter = find_runtime_adapter(kind);
    if (adapter) rt.kind = kind;
    else if (!r.failed()) r.fail(ptr + "/kind", "unknown runtime kind \"" + kind + "\" (" + runtime_kind_names() + ")");
    read_url(r, obj, ptr, rt);
    if (rt.serving.url.empty()) rt.binary = runtime_binary(base, r.string(obj, ptr, "binary", Need::required).value_or(""));
    rt.args = r.strings(obj, ptr, "args");
    rt.flags = r.strings(obj, ptr, "flags");
    read_env(r, obj, ptr, rt.env);
    if (auto out = r.string(obj, ptr, "output")) {
        if (find_output_format(*out)) rt.output = *out;
        else r.fail(ptr + "/output", "unknown output format \"" + *out + "\"");
    }
    read_patterns(r, obj, ptr, rt.patterns);
    if (!adapter) return;  // the kind's rules below need its row
    read_kind_rules(r, obj, ptr, *adapter, rt);
    rt.format = r.string(obj, ptr, "format").value_or("");
    rt.version = r.string(obj, ptr, "version").value_or("");
    rt.commit = r.string(obj, ptr, "commit").value_or("");
    rt.upstream_commit = r.string(obj, ptr, "upstream_commit").value_or("");
    rt.overlay_commit = r.string(obj, ptr, "overlay_commit").value_or("");
    if (auto it = obj.find("replay"); it != obj.end()) rt.replay = it->is_boolean() && it->get<bool>();
    read_measure(r, obj, ptr, base, *adapter, rt);
}

// The suite's own settings, before its lists: name, backend, replay, results suffix, overhead and
// workload.
void read_suite_settings(JsonFields& r, const json& doc, Suite& s) {
    s.name = r.string(doc, "", "suite", Need::required).value_or("");
    if (!r.failed() && !is_safe_name(s.name)) r.fail("/suite", "suite name must match [A-Za-z0-9][A-Za-z0-9.-]*");
    s.backend = r.string(doc, "", "backend", Need::required).value_or("");
    if (!r.failed() && !backend_from_string(s.backend))
        r.fail("/backend",
               fmt::format("backend must be one of {} (got \"{}\")", fmt::join(backend_names, ", "), s.backend));
    if (auto it = doc.find("replay"); it != doc.end()) s.replay = it->is_boolean() && it->get<bool>();
    s.results_suffix = r.string(doc, "", "results_suffix").value_or(s.replay ? "replay" : "");
    if (!s.results_suffix.empty() && !is_safe_name(s.results_suffix))
        r.fail("/results_suffix", "results_suffix must match [A-Za-z0-9][A-Za-z0-9.-]*");
    if (auto v = bytes(r, doc, "", "default_overhead_bytes")) s.default_overhead_bytes = *v;
    if (auto it = doc.find("workload"); it != doc.end()) read_workload(r, *it, s.workload);
}

// The suite's list under `key` ("models", "runtimes"), which must be a non-empty array.
const json* declared_list(JsonFields& r, const json& doc, const char* key) {
    auto it = doc.find(key);
    if (it == doc.end() || !it->is_array() || it->empty()) {
        r.fail(it == doc.end() ? "" : std::string("/") + key, std::string("\"") + key + "\" must be a non-empty array");
        return nullptr;
    }
    return &*it;
}

struct DeclaredNames {
    std::unordered_set<std::string> models, runtimes, pairs;
    SweptEntries swept;  // a swept entry's name -> its points' names, for "pairs"
};

// Each entry of a declared list (`key`: "models" or "runtimes") read with `read_entry`, up to the
// first error; `what` ("model", "runtime") names an entry declared twice.
template <class Entry, class ReadEntry>
void read_declared(JsonFields& r, const json& list, const std::string& key, const std::string& what,
                   const std::filesystem::path& base, ReadEntry read_entry, std::vector<Entry>& entries,
                   std::unordered_set<std::string>& names) {
    for (std::size_t i = 0; i < list.size() && !r.failed(); ++i) {
        const std::string ptr = "/" + key + "/" + std::to_string(i);
        Entry entry;
        read_entry(r, list[i], ptr, base, entry);
        if (!r.failed() && !names.insert(entry.name).second) r.fail(ptr, what + " \"" + entry.name + "\" is declared twice");
        entries.push_back(std::move(entry));
    }
}

// One entry of "pairs": {"runtime": r, "models": [...]}, naming declared runtimes and models.
void read_pair_entry(JsonFields& r, const json& p, const std::string& ptr, DeclaredNames& names, Suite& s) {
    if (!p.is_object()) return r.fail(ptr, "a pair entry must be an object");
    only_keys(r, p, ptr, {"runtime", "models"});
    const auto rt = r.string(p, ptr, "runtime", Need::required).value_or("");
    if (!r.failed() && !names.runtimes.count(rt)) r.fail(ptr + "/runtime", "no runtime named \"" + rt + "\"");
    const auto models = r.strings(p, ptr, "models");
    if (!r.failed() && models.empty()) r.fail(ptr, "\"models\" must list at least one model");
    for (std::size_t j = 0; j < models.size() && !r.failed(); ++j) {
        if (!names.models.count(models[j])) r.fail(ptr + "/models/" + std::to_string(j), "no model named \"" + models[j] + "\"");
        // Safe names hold no '/', so "runtime/model" names one pair.
        // A swept entry stands for its points.
        const auto swept = names.swept.find(rt);
        for (const auto& point : swept == names.swept.end() ? std::vector<std::string>{rt} : swept->second) {
            if (r.failed()) break;
            if (!names.pairs.insert(point + "/" + models[j]).second)
                r.fail(ptr + "/models/" + std::to_string(j), "pair " + point + "/" + models[j] + " is listed twice");
            s.pairs.push_back({point, models[j]});
        }
    }
}

// Pairs: [{"runtime": r, "models": [...]}]; absent means every runtime with every model.
void read_pairs(JsonFields& r, const json& doc, DeclaredNames& names, Suite& s) {
    auto it = doc.find("pairs");
    if (it == doc.end()) {
        for (const auto& rt : s.runtimes)
            for (const auto& m : s.models) s.pairs.push_back({rt.name, m.name});
        return;
    }
    if (!it->is_array()) return r.fail("/pairs", "\"pairs\" must be an array");
    for (std::size_t i = 0; i < it->size() && !r.failed(); ++i) read_pair_entry(r, (*it)[i], "/pairs/" + std::to_string(i), names, s);
}

}  // namespace

bool is_safe_name(const std::string& name) {
    if (name.empty() || name.size() > 100 || name.find("..") != std::string::npos) return false;
    if (!std::isalnum(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') return false;
    return true;
}

const SuiteModel* Suite::find_model(const std::string& n) const {
    for (const auto& m : models)
        if (m.name == n) return &m;
    return nullptr;
}

const SuiteRuntime* Suite::find_runtime(const std::string& n) const {
    for (const auto& r : runtimes)
        if (r.name == n) return &r;
    return nullptr;
}

Workload workload_of(const Suite& suite, const SuiteRuntime& runtime) {
    Workload w = suite.workload;
    if (!runtime.sweep) return w;
    switch (runtime.sweep->axis) {
    case SweepAxis::prompt_tokens: w.prompt_tokens = runtime.sweep->value; break;
    case SweepAxis::generated_tokens: w.generated_tokens = runtime.sweep->value; break;
    case SweepAxis::batch: w.batch = runtime.sweep->value; break;
    case SweepAxis::concurrency: break;  // the load's (ServingLoad::concurrency), set when the sweep was expanded
    }
    return w;
}

Expected<Suite> parse_suite(const std::string& text, const std::string& origin, const std::filesystem::path& base,
                            SuiteFiles files) {
    auto parsed = parse_json_document(text, origin);
    if (!parsed) return parsed.error();
    const json& doc = parsed->value;
    JsonFields r(*parsed);
    if (!doc.is_object()) return make_error(origin + ":1: a suite must be a JSON object");
    only_keys(r, doc, "", {"suite", "description", "backend", "replay", "results_suffix", "default_overhead_bytes",
                          "workload", "models", "runtimes", "pairs", "replay_host"});
    Suite s;
    s.path = origin;
    read_suite_settings(r, doc, s);
    // Names and pairs seen so far, in hash sets: a suite of 200,000 pairs is read in linear time
    // (a scan of the lists for every entry took 73 s there: issue 26 item 17).
    DeclaredNames names;
    if (const json* models = declared_list(r, doc, "models"))
        read_declared(r, *models, "models", "model", base, read_model, s.models, names.models);
    for (std::size_t i = 0; files == SuiteFiles::must_exist && i < s.models.size() && !r.failed(); ++i)
        if (!s.models[i].forge_spec.empty() && !std::filesystem::exists(s.models[i].forge_spec))
            r.fail("/models/" + std::to_string(i) + "/forge_spec",
                   "forge spec " + s.models[i].forge_spec.string() + " does not exist");
    if (const json* runtimes = r.failed() ? nullptr : declared_list(r, doc, "runtimes"))
        read_declared(r, *runtimes, "runtimes", "runtime", base, read_runtime, s.runtimes, names.runtimes);
    if (r.failed()) return r.error();
    if (const json* runtimes = declared_list(r, doc, "runtimes")) names.swept = expand_sweeps(r, *runtimes, s.runtimes, names.runtimes);
    if (r.failed()) return r.error();
    // Instructions are counted by valgrind on the CPU: GPU kernels are invisible to it, and a
    // recorded output has nothing to count.
    for (std::size_t i = 0; i < s.runtimes.size() && !r.failed(); ++i)
        if (s.runtimes[i].measure == Measure::instructions && (s.backend != "cpu" || s.replay))
            r.fail("/runtimes/" + std::to_string(i) + "/measure",
                   s.replay ? std::string("a replay suite has no instructions to count")
                            : "\"measure\": \"instructions\" counts CPU instructions under valgrind: it needs a cpu "
                              "suite (this one's backend is " + s.backend + ")");
    if (r.failed()) return r.error();
    read_pairs(r, doc, names, s);
    if (r.failed()) return r.error();
    return s;
}

Expected<Suite> load_suite(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(path.string() + ": cannot open the suite manifest");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_suite(text.str(), path.string(), path.parent_path());
}

}  // namespace perfgate::perf
