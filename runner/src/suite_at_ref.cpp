#include "perfgate/runner/suite_at_ref.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/gates/git_tree.hpp"

namespace perfgate::runner {

Expected<std::optional<perf::Suite>> suite_at_ref(const std::filesystem::path& manifest, const std::string& ref) {
    const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(manifest));
    auto root = gates::git_toplevel(absolute.parent_path().string());
    if (!root) return make_error("the suite at " + ref + " is needed for the pull-request guard: " + root.error().message);
    const std::string rel = absolute.lexically_relative(std::filesystem::weakly_canonical(*root)).generic_string();
    if (rel.empty() || rel.rfind("..", 0) == 0)
        return make_error(manifest.string() + ": the suite is outside the repository " + *root);
    const std::string object = ref + ":" + rel;
    // A manifest that did not exist at the ref excuses nothing (cat-file -e fails quietly).
    if (!gates::run_git(*root, {"cat-file", "-e", object})) return std::optional<perf::Suite>{};
    auto text = gates::run_git(*root, {"cat-file", "blob", object});
    if (!text) return text.error();
    auto suite = perf::parse_suite(*text, object, manifest.parent_path());
    if (!suite) return make_error("the suite at " + ref + " cannot be read: " + suite.error().message);
    return std::optional<perf::Suite>{std::move(*suite)};
}

namespace {

template <typename T>
void compare(std::vector<std::string>& changes, const char* what, const T& before, const T& now) {
    if (before != now) changes.push_back(fmt::format("{} {} -> {}", what, before, now));
}

std::string listed(const std::vector<std::string>& values) { return fmt::format("[{}]", fmt::join(values, " ")); }

}  // namespace

WorkloadChanges workload_changes(const perf::Suite& at_ref, const perf::Suite& now) {
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
        if (!changes.empty()) out[{p.runtime, p.model}] = fmt::format("{}", fmt::join(changes, ", "));
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
