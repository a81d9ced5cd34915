#include "perfgate/runner/suite_at_ref.hpp"

#include <cstdlib>

#include "perfgate/gates/git_tree.hpp"
#include "perfgate/perf/suite.hpp"

namespace perfgate::runner {

Expected<std::optional<SuitePairs>> suite_pairs_at_ref(const std::filesystem::path& manifest, const std::string& ref) {
    const auto absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(manifest));
    auto root = gates::git_toplevel(absolute.parent_path().string());
    if (!root) return make_error("the suite at " + ref + " is needed for the pull-request guard: " + root.error().message);
    const std::string rel = absolute.lexically_relative(std::filesystem::weakly_canonical(*root)).generic_string();
    if (rel.empty() || rel.rfind("..", 0) == 0)
        return make_error(manifest.string() + ": the suite is outside the repository " + *root);
    const std::string object = ref + ":" + rel;
    // A manifest that did not exist at the ref excuses nothing (cat-file -e fails quietly).
    if (!gates::run_git(*root, {"cat-file", "-e", object})) return std::optional<SuitePairs>{};
    auto text = gates::run_git(*root, {"cat-file", "blob", object});
    if (!text) return text.error();
    auto suite = perf::parse_suite(*text, object, manifest.parent_path());
    if (!suite) return make_error("the suite at " + ref + " cannot be read: " + suite.error().message);
    SuitePairs pairs;
    for (const auto& p : suite->pairs) pairs.emplace(p.runtime, p.model);
    return std::optional<SuitePairs>{std::move(pairs)};
}

Expected<std::optional<std::string>> baseline_ref_from_environment() {
    const char* ref = std::getenv("PERFGATE_BASELINE_REF");
    if (!ref) return std::optional<std::string>{};
    if (std::string(ref).find_first_not_of(" \t\r\n") == std::string::npos)
        return make_error("PERFGATE_BASELINE_REF is set but empty: the base ref to read baselines and thresholds at "
                          "is unknown (did the merge-base step fail?); unset it to gate against the working tree");
    return std::optional<std::string>{ref};
}

}  // namespace perfgate::runner
