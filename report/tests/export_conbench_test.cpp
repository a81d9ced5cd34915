// perfgate export --format conbench (report/export_conbench.hpp), checked against the rules of
// Conbench's BenchmarkResult create schema (conbench/entities/benchmark_result.py, marshmallow:
// unknown keys refused; run_id, batch_id, timestamp, tags with "name", context and github
// required; exactly one of machine_info and cluster_info; stats or error; a unit among B/s, s, ns,
// i/s; a repository starting https://github.com) and against the committed CPU history's own
// samples. report/tests/data/conbench-example.json is ours, written to that schema (machine_info
// and cluster_info, stats and error, a null repetition), so the check is seen to accept Conbench's
// format before it is trusted to pass the export.
#include <catch2/catch.hpp>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "perfgate/core/csv.hpp"
#include "perfgate/report/export_conbench.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;
using namespace perfgate::report;
using perfgate::test::read_file;

namespace {

void unknown_keys(const nlohmann::json& object, const std::set<std::string>& allowed, const std::string& where,
                  std::vector<std::string>& out) {
    for (const auto& [key, value] : object.items())
        if (!allowed.count(key)) out.push_back(where + ": unknown key " + key);
}

void required(const nlohmann::json& object, std::initializer_list<const char*> keys, const std::string& where,
              std::vector<std::string>& out) {
    for (const char* k : keys)
        if (!object.contains(k)) out.push_back(where + ": no " + k);
}

// What Conbench's create schema refuses in one result, one line per violation (empty: valid).
std::vector<std::string> result_violations(const nlohmann::json& r, const std::string& where) {
    std::vector<std::string> out;
    if (!r.is_object()) return {where + ": not an object"};
    unknown_keys(r, {"run_id", "run_tags", "run_name", "run_reason", "batch_id", "timestamp", "machine_info", "cluster_info",
                     "stats", "error", "tags", "optional_benchmark_info", "context", "info", "validation", "github",
                     "change_annotations"},
                 where, out);
    required(r, {"run_id", "batch_id", "timestamp", "tags", "context", "github"}, where, out);
    for (const char* k : {"run_id", "batch_id", "run_reason", "run_name"})
        if (r.contains(k) && !r[k].is_string()) out.push_back(where + ": " + k + " not a string");
    static const std::regex iso(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?)");
    if (r.contains("timestamp") && (!r["timestamp"].is_string() || !std::regex_match(r["timestamp"].get<std::string>(), iso)))
        out.push_back(where + ": timestamp not ISO 8601");
    if (r.contains("machine_info") == r.contains("cluster_info")) out.push_back(where + ": not exactly one of machine_info and cluster_info");
    if (r.contains("machine_info")) {
        const auto& m = r["machine_info"];
        required(m, {"name", "architecture_name", "kernel_name", "os_name", "os_version", "cpu_model_name", "cpu_l1d_cache_bytes",
                     "cpu_l1i_cache_bytes", "cpu_l2_cache_bytes", "cpu_l3_cache_bytes", "cpu_core_count", "cpu_thread_count",
                     "cpu_frequency_max_hz", "memory_bytes", "gpu_count", "gpu_product_names"},
                 where + " machine_info", out);
    }
    if (r.contains("cluster_info")) {
        const auto& c = r["cluster_info"];
        required(c, {"name", "info", "optional_info"}, where + " cluster_info", out);
        unknown_keys(c, {"name", "info", "optional_info"}, where + " cluster_info", out);
        if (c.contains("name") && !c["name"].is_string()) out.push_back(where + ": cluster_info name not a string");
        for (const char* k : {"info", "optional_info"})
            if (c.contains(k) && !c[k].is_object()) out.push_back(where + ": cluster_info " + k + " not an object");
    }
    if (!r.contains("stats") && !r.contains("error")) out.push_back(where + ": neither stats nor error");
    if (r.contains("stats")) {
        const auto& s = r["stats"];
        unknown_keys(s, {"data", "times", "unit", "time_unit", "iterations", "min", "max", "mean", "median", "stdev", "q1", "q3", "iqr"},
                     where + " stats", out);
        required(s, {"data", "unit"}, where + " stats", out);
        if (s.contains("data") && (!s["data"].is_array() || s["data"].empty() ||
                                   std::any_of(s["data"].begin(), s["data"].end(), [](const auto& v) { return !v.is_number() && !v.is_null(); })))
            out.push_back(where + ": stats data not a list of numbers");
        static const std::set<std::string> units = {"B/s", "s", "ns", "i/s"};
        if (s.contains("unit") && (!s["unit"].is_string() || !units.count(s["unit"].get<std::string>())))
            out.push_back(where + ": unit not one of B/s, s, ns, i/s");
    }
    if (r.contains("tags")) {
        const auto& t = r["tags"];
        if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || t["name"].get<std::string>().empty())
            out.push_back(where + ": tags without a name");
        else
            for (const auto& [k, v] : t.items())
                if (k.empty()) out.push_back(where + ": a tag without a key");
    }
    for (const char* k : {"context", "info", "run_tags"})
        if (r.contains(k) && !r[k].is_object()) out.push_back(where + ": " + k + " not an object");
    if (r.contains("github")) {
        const auto& g = r["github"];
        unknown_keys(g, {"commit", "repository", "pr_number", "branch"}, where + " github", out);
        if (!g.contains("repository") || !g["repository"].is_string() ||
            g["repository"].get<std::string>().rfind("https://github.com", 0) != 0)
            out.push_back(where + ": github repository not a https://github.com URL");
        if (g.contains("commit") && (!g["commit"].is_string() || g["commit"].get<std::string>().empty()))
            out.push_back(where + ": github commit empty");
    }
    return out;
}

std::vector<std::string> conbench_violations(const nlohmann::json& doc) {
    if (!doc.is_array()) return {"the document is not an array of results"};
    std::vector<std::string> out;
    for (std::size_t i = 0; i < doc.size(); ++i) {
        auto v = result_violations(doc[i], "result " + std::to_string(i));
        out.insert(out.end(), v.begin(), v.end());
    }
    return out;
}

const std::string cpu_history = test::source_path("benchmarks/cpu_cpu-epyc_2026-11-29.csv").string();
const std::string first_run = "20261129T193504-32713";
const std::string repository = "https://github.com/ggml-org/llama.cpp";

}  // namespace

TEST_CASE("the Conbench check accepts Conbench results and names what breaks the schema", "[export]") {
    const auto example = nlohmann::json::parse(read_file(test::source_path("report/tests/data/conbench-example.json").string()));
    CHECK(conbench_violations(example).empty());
    auto broken = example;
    broken[0]["stats"]["unit"] = "tok/s";
    broken[0]["cluster_info"] = {{"name", "x"}, {"info", nlohmann::json::object()}, {"optional_info", nlohmann::json::object()}};
    broken[1].erase("github");
    broken[1]["host"] = "extra";
    const auto v = conbench_violations(broken);
    CHECK(v == std::vector<std::string>{"result 0: not exactly one of machine_info and cluster_info",
                                        "result 0: unit not one of B/s, s, ns, i/s", "result 1: unknown key host",
                                        "result 1: no github"});
}

TEST_CASE("a run of the committed CPU history exports as valid Conbench results with the run's own samples", "[export]") {
    auto out = export_conbench({{cpu_history}, first_run, repository, "commit"});
    REQUIRE(out);
    const auto doc = nlohmann::json::parse(out->json);
    CHECK(conbench_violations(doc).empty());
    // Recomputed here from the file: the run's pairs, and the decode samples of one, in order.
    auto file = read_results_csv(cpu_history);
    REQUIRE(file);
    std::set<std::string> models;
    std::vector<double> decode;
    for (const auto& r : file->rows) {
        if (r.run_id != first_run || r.status.text != "ok") continue;
        models.insert(r.model);
        if (r.model == "qwen3-0.6b")
            for (double x : r.decode_samples()) decode.push_back(x);
    }
    REQUIRE(decode.size() >= 2);
    CHECK(doc.size() == 2 * models.size());  // decode and prefill of each pair: the run's tok/s metrics
    const auto it = std::find_if(doc.begin(), doc.end(), [](const auto& r) {
        return r["tags"]["model"] == "qwen3-0.6b" && r["tags"]["name"] == "decode_tok_s";
    });
    REQUIRE(it != doc.end());
    CHECK((*it)["stats"]["unit"] == "i/s");
    CHECK((*it)["stats"]["data"].get<std::vector<double>>() == decode);
    CHECK((*it)["run_id"] == first_run);
    CHECK((*it)["run_reason"] == "commit");
    CHECK((*it)["cluster_info"]["name"] == "cpu-epyc");
    CHECK((*it)["github"]["repository"] == repository);
    CHECK((*it)["github"]["commit"] == "de3ff815ea7d559ee917f063901b8986f038abc6");
    CHECK((*it)["timestamp"].get<std::string>().rfind("2026-11-29T", 0) == 0);
}

TEST_CASE("metrics Conbench has no unit for are left out and said, never sent mislabelled", "[export]") {
    // An H200 run that recorded host and device peak memory (bytes): Conbench knows B/s, s, ns and
    // i/s only. Its rows carry a machine id, which keeps machines apart in cluster_info.
    const std::string h200 = test::source_path("docs/measurements/h200-device-memory-2026-12-03/cuda_h200_2026-12-03.csv").string();
    auto file = read_results_csv(h200);
    REQUIRE(file);
    const ResultRow& first = file->rows.front();
    REQUIRE_FALSE(first.peak_memory_samples().empty());
    REQUIRE_FALSE(first.machine_id.empty());
    auto out = export_conbench({{h200}, first.run_id, repository, ""});
    REQUIRE(out);
    const auto doc = nlohmann::json::parse(out->json);
    CHECK(conbench_violations(doc).empty());
    REQUIRE_FALSE(doc.empty());
    for (const auto& r : doc) {
        CHECK(r["stats"]["unit"] == "i/s");
        CHECK(r["cluster_info"]["info"]["machine_id"] == first.machine_id);
    }
    REQUIRE_FALSE(out->left_out.empty());
    CHECK(std::any_of(out->left_out.begin(), out->left_out.end(), [](const std::string& note) {
        return note.find("peak_memory_bytes: Conbench has no unit for bytes") != std::string::npos;
    }));
    CHECK(std::none_of(doc.begin(), doc.end(), [](const auto& r) { return r["tags"]["name"] == "peak_memory_bytes"; }));
}

TEST_CASE("export for Conbench refuses what Conbench would misfile, naming the file", "[export]") {
    auto runs = export_conbench({{cpu_history}, std::nullopt, repository, ""});
    REQUIRE_FALSE(runs);
    CHECK_THAT(runs.error().message, Catch::Contains("cpu_cpu-epyc_2026-11-29.csv") && Catch::Contains("2 runs") &&
                                         Catch::Contains("--run-id"));
    auto unknown = export_conbench({{cpu_history}, std::string("no-such-run"), repository, ""});
    REQUIRE_FALSE(unknown);
    CHECK_THAT(unknown.error().message, Catch::Contains("no-such-run"));
    // Issue 48 item 20: one segment, a path that climbs, a query, a fragment or a space were taken.
    for (const char* bad : {"", "https://gitlab.com/a/b", "github.com/a/b", "https://github.com/", "https://github.com/a",
                            "https://github.com/a/b/../../c", "https://github.com/a/b?x=<script>", "https://github.com/a/b#\">",
                            "https://github.com/a/b c", "https://github.com/../b", "https://github.com/a/b/"}) {
        auto r = export_conbench({{cpu_history}, first_run, bad, ""});
        REQUIRE_FALSE(r);
        CHECK_THAT(r.error().message, Catch::Contains("https://github.com/ORG/REPO"));
    }
    CHECK(export_conbench({{cpu_history}, first_run, "https://github.com/ml-explore/mlx.rs_2", ""}));
}
