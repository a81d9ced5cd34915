#include <fmt/format.h>

#include "gate_options.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/gates/gate.hpp"
#include "perfgate/gates/render.hpp"
#include "perfgate/perf/recorder.hpp"
#include "perfgate/runner/suite_at_ref.hpp"
#include "perfgate/runner/suite_run.hpp"

namespace perfgate::runner {

Expected<Outcome> run_summary(const perf::Suite& suite, const perf::HostContext& host, const SuiteRunRequest& request,
                              const std::filesystem::path& summary_dir, std::ostream& out) {
    auto csv = perf::results_file(request.results_dir, host.backend, host.host, host.date,
                                  request.suffix.empty() ? suite.results_suffix : request.suffix);
    if (!csv) return csv.error();
    auto gate_opts = detail::gate_options(suite, host, request, request.history_dir.empty() ? csv->parent_path() : request.history_dir,
                                          host.run_id);
    if (!gate_opts) return gate_opts.error();
    auto& options = *gate_opts;
    if (!std::filesystem::exists(*csv)) {
        out << fmt::format("perfgate: no results file {} for run {}: every pair was skipped or none ran\n",
                           csv->string(), host.run_id);
        // A pull request's run that recorded nothing proves nothing: it must not pass as skipped.
        if (options.baseline_ref) {
            out << fmt::format("perfgate: gating against {} and nothing was recorded: FAIL\n", *options.baseline_ref);
            return Outcome::fail;
        }
        return Outcome::skip;
    }
    options.results = {csv->string()};
    auto report = gates::run_gate(options);
    if (!report) return report.error();
    gates::TextStyle style;
    style.color = request.color_out;
    out << gates::render_text(*report, style);
    if (!summary_dir.empty()) {
        // Each file whole or not at all (replace_file creates the folder).
        for (auto [name, format] : {std::pair{"perf-gate.md", gates::ReportFormat::markdown},
                                    std::pair{"perf-gate.junit.xml", gates::ReportFormat::junit},
                                    std::pair{"perf-gate.json", gates::ReportFormat::json}})
            if (auto st = replace_file((summary_dir / name).string(), gates::render(*report, format)); !st)
                return st.error();
        out << "perfgate: gate reports in " << summary_dir.string()
            << " (perf-gate.md, perf-gate.junit.xml, perf-gate.json)\n";
    }
    return gates::passed(*report) ? Outcome::pass : Outcome::fail;
}

}  // namespace perfgate::runner
