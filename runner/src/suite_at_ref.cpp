#include "perfgate/runner/suite_at_ref.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/gates/git_tree.hpp"

namespace perfgate::runner {
namespace {

// A path of the working tree as git names it at a ref: the repository's top level, and the path
// relative to it. An Error outside any repository.
struct InRepository {
    std::string root, path;
};
Expected<InRepository> in_repository(const std::filesystem::path& path, bool is_folder = false) {
    const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(path));
    auto root = gates::git_toplevel((is_folder ? absolute : absolute.parent_path()).string());
    if (!root) return root.error();
    const std::string rel = absolute.lexically_relative(std::filesystem::weakly_canonical(*root)).generic_string();
    if (rel.empty() || rel.rfind("..", 0) == 0) return make_error(path.string() + ": outside the repository " + *root);
    return InRepository{*root, rel};
}

}  // namespace

Expected<std::optional<perf::Suite>> suite_at_ref(const std::filesystem::path& manifest, const std::string& ref) {
    auto where = in_repository(manifest);
    if (!where) return make_error("the suite at " + ref + " is needed for the pull-request guard: " + where.error().message);
    const std::string object = ref + ":" + where->path;
    // A manifest that did not exist at the ref excuses nothing (cat-file -e fails quietly).
    if (!gates::run_git(where->root, {"cat-file", "-e", object})) return std::optional<perf::Suite>{};
    auto text = gates::run_git(where->root, {"cat-file", "blob", object});
    if (!text) return text.error();
    auto suite = perf::parse_suite(*text, object, manifest.parent_path(), perf::SuiteFiles::as_at_a_ref);
    if (!suite) return make_error("the suite at " + ref + " cannot be read: " + suite.error().message);
    return std::optional<perf::Suite>{std::move(*suite)};
}

namespace {

template <typename T>
void compare(std::vector<std::string>& changes, const char* what, const T& before, const T& now) {
    if (before != now) changes.push_back(fmt::format("{} {} -> {}", what, before, now));
}

std::string listed(const std::vector<std::string>& values) { return fmt::format("[{}]", fmt::join(values, " ")); }

std::string listed(const std::map<std::string, std::string>& values) {
    std::vector<std::string> pairs;
    for (const auto& [k, v] : values) pairs.push_back(k + "=" + v);
    return listed(pairs);
}

const perf::SuiteModel* find_model(const perf::Suite& suite, const std::string& name) {
    for (const auto& m : suite.models)
        if (m.name == name) return &m;
    return nullptr;
}

// What changed in the model a pair loads: its files' paths, and its forge spec's text.
void compare_model(std::vector<std::string>& changes, const perf::SuiteModel& before, const perf::SuiteModel& after,
                   const SpecTexts& specs_at_ref) {
    compare(changes, "checkpoint", before.checkpoint.generic_string(), after.checkpoint.generic_string());
    compare(changes, "forge_spec", before.forge_spec.generic_string(), after.forge_spec.generic_string());
    auto was = specs_at_ref.find(before.name);
    if (was == specs_at_ref.end() || after.forge_spec.empty()) return;
    std::ifstream in(after.forge_spec, std::ios::binary);
    const std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) return;
    if (now != was->second)
        changes.push_back(fmt::format("forge spec {} edited ({} -> {} bytes)", after.forge_spec.filename().string(),
                                      was->second.size(), now.size()));
}

}  // namespace

Expected<SpecTexts> forge_specs_at_ref(const perf::Suite& at_ref, const std::string& ref) {
    SpecTexts out;
    for (const auto& m : at_ref.models) {
        if (m.forge_spec.empty()) continue;
        auto where = in_repository(m.forge_spec);
        if (!where) continue;  // a spec outside the repository: its path is still compared
        const std::string object = ref + ":" + where->path;
        if (!gates::run_git(where->root, {"cat-file", "-e", object})) continue;  // not there at the ref
        auto text = gates::run_git(where->root, {"cat-file", "blob", object});
        if (!text) return text.error();
        out[m.name] = std::move(*text);
    }
    return out;
}


WorkloadChanges workload_changes(const perf::Suite& at_ref, const perf::Suite& now, const SpecTexts& specs_at_ref) {
    std::vector<std::string> common;
    compare(common, "prompt_tokens", at_ref.workload.prompt_tokens, now.workload.prompt_tokens);
    compare(common, "generated_tokens", at_ref.workload.generated_tokens, now.workload.generated_tokens);
    compare(common, "batch", at_ref.workload.batch, now.workload.batch);
    WorkloadChanges out;
    for (const auto& p : now.pairs) {
        const perf::SuiteRuntime *before = at_ref.find_runtime(p.runtime), *after = now.find_runtime(p.runtime);
        const bool was_run = std::any_of(at_ref.pairs.begin(), at_ref.pairs.end(), [&](const perf::SuitePair& q) {
            return q.runtime == p.runtime && q.model == p.model;
        });
        if (!before || !after || !was_run) continue;  // a pair the change adds has no workload to compare
        auto changes = common;
        compare(changes, "args", listed(before->args), listed(after->args));
        compare(changes, "flags", listed(before->flags), listed(after->flags));
        compare(changes, "binary", before->binary, after->binary);
        compare(changes, "env", listed(before->env), listed(after->env));
        compare(changes, "url", before->serving.url, after->serving.url);
        compare(changes, "replay", before->replay || at_ref.replay, after->replay || now.replay);
        const perf::SuiteModel *model_before = find_model(at_ref, p.model), *model_after = find_model(now, p.model);
        if (model_before && model_after) compare_model(changes, *model_before, *model_after, specs_at_ref);
        if (!changes.empty()) out[{p.runtime, p.model}] = fmt::format("{}", fmt::join(changes, ", "));
    }
    return out;
}

Status read_suite_at_ref(const perf::Suite& now, const std::string& ref, gates::GateOptions& options) {
    auto at_ref = suite_at_ref(now.path, ref);
    if (!at_ref) return at_ref.error();
    if (!*at_ref) return Ok{};
    auto specs = forge_specs_at_ref(**at_ref, ref);
    if (!specs) return specs.error();
    options.pairs_at_ref.emplace();
    for (const auto& p : (*at_ref)->pairs) options.pairs_at_ref->emplace(p.runtime, p.model);
    options.workload_changes = workload_changes(**at_ref, now, *specs);
    return Ok{};
}

namespace {

bool is_backend_suite(const std::string& file_name, const std::string& backend) {
    return file_name.rfind(backend, 0) == 0 && file_name.size() > 5 && file_name.ends_with(".json");
}

// The pairs a suite measures: none of a replay suite, none of a runtime that replays.
std::set<std::pair<std::string, std::string>> measured_pairs(const perf::Suite& suite) {
    std::set<std::pair<std::string, std::string>> out;
    if (suite.replay) return out;
    for (const auto& p : suite.pairs)
        if (const auto* rt = suite.find_runtime(p.runtime); rt && !rt->replay) out.emplace(p.runtime, p.model);
    return out;
}

}  // namespace

Expected<SuitesGuard> guard_suites(const std::filesystem::path& suites_dir, const std::string& backend, const std::string& ref) {
    const auto dir = std::filesystem::weakly_canonical(std::filesystem::absolute(suites_dir));
    auto where = in_repository(dir, true);
    if (!where) return make_error("the suites at " + ref + " are needed for the pull-request guard: " + where.error().message);
    auto listing = gates::run_git(where->root, {"ls-tree", "--name-only", ref, "--", where->path + "/"});
    if (!listing) return listing.error();
    SuitesGuard out;
    std::set<std::pair<std::string, std::string>> now;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (!is_backend_suite(entry.path().filename().string(), backend)) continue;
        auto suite = perf::load_suite(entry.path());
        if (!suite) return suite.error();
        now.merge(measured_pairs(*suite));
    }
    if (ec) return make_error(suites_dir.string() + ": " + ec.message());
    out.measured_now = now.size();
    std::istringstream names(*listing);
    for (std::string path; std::getline(names, path);) {
        if (!is_backend_suite(std::filesystem::path(path).filename().string(), backend)) continue;
        const std::string object = ref + ":" + path;
        auto text = gates::run_git(where->root, {"cat-file", "blob", object});
        if (!text) return text.error();
        auto suite = perf::parse_suite(*text, object, dir, perf::SuiteFiles::as_at_a_ref);
        if (!suite) return make_error("the suite at " + ref + " cannot be read: " + suite.error().message);
        for (const auto& pair : measured_pairs(*suite)) {
            ++out.measured_at_ref;
            if (!now.count(pair)) out.dropped.push_back({pair.first, pair.second, object});
        }
    }
    return out;
}

Expected<std::optional<std::string>> baseline_ref_for_run(const std::optional<std::string>& option) {
    if (std::getenv("PERFGATE_BASELINE_REF"))
        return make_error("PERFGATE_BASELINE_REF is set in the environment, and perfgate no longer reads it: a test "
                          "preset's \"environment\" could set it to the change's own commit. Configure with "
                          "-DPERFGATE_BASELINE_REF=REF (the perf tests then pass --baseline-ref REF) and unset it");
    if (option && option->find_first_not_of(" \t\r\n") == std::string::npos)
        return make_error("--baseline-ref is empty: the base ref to read baselines and thresholds at is unknown (did the "
                          "merge-base step fail?); leave it out to gate against the working tree");
    return option;
}

}  // namespace perfgate::runner
