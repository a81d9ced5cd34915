#include "perfgate/runner/run_invocation.hpp"

#include "perfgate/core/project_paths.hpp"
#include "perfgate/perf/backend_check.hpp"
#include "perfgate/perf/contention_guard.hpp"
#include "perfgate/runner/key_value.hpp"

namespace perfgate::runner {
namespace {

Expected<Outcome> write_host(const RunInvocation& run, const perf::Suite& suite, std::ostream& out, std::ostream& log) {
    if (run.require_backend && !perf::backend_mismatch_allowed_by_environment()) {
        auto host = resolve_host(run.host);
        if (!host) return host.error();
        if (auto st = perf::require_suite_backend(suite, *host); !st) {
            log << "perfgate run: " << st.error().message << '\n';
            return Outcome::fail;  // not a skip: the setup test must go red
        }
    }
    if (auto st = write_host_file(run.host, run.write_host, out); !st) return st.error();
    return Outcome::pass;
}

// The request's parts that come from options as text, and the roots paths are recorded against.
Status complete_request(RunInvocation& run) {
    auto& r = run.request;
    if (run.no_record) r.results_dir.clear();
    for (const auto& b : run.binaries) {
        auto kv = split_key_value(b, "--binary", "RUNTIME=PATH");
        if (!kv) return kv.error();
        r.binaries[kv->first] = kv->second;
    }
    auto contention = run.contention.empty() ? perf::contention_mode_from_environment()
                                             : perf::parse_contention_mode(run.contention, "--contention");
    if (!contention) return contention.error();
    r.contention = *contention;
    r.project_root = find_project_root(run.suite).value_or(std::filesystem::path());
    // The forge cache lives in the perfgate build folder (the runtime's own sub-build has a
    // CMakeCache.txt too, so the binary's path would find the wrong one).
    r.build_root = find_build_root(r.forge_dir).value_or(std::filesystem::path());
    auto selected = parse_pair_selection(run.pairs);
    if (!selected) return selected.error();
    r.pairs = *selected;
    return Ok{};
}

}  // namespace

Expected<Outcome> run_invocation(RunInvocation run, std::ostream& out, std::ostream& log) {
    auto suite = load_suite_with_pins(run.suite, run.pins);
    if (!suite) return suite.error();
    if (run.list) {
        for (const auto& p : suite->pairs) out << p.runtime << '/' << p.model << '\n';
        return Outcome::pass;
    }
    if (!run.write_host.empty()) return write_host(run, *suite, out, log);
    auto host = resolve_host(run.host);
    if (!host) return host.error();
    if (run.summary) return run_summary(*suite, *host, run.request, run.summary_dir, out);
    if (auto st = complete_request(run); !st) return st.error();
    return run_suite_pairs(*suite, *host, run.request, log, out);
}

}  // namespace perfgate::runner
