// perfgate ab --replay: the recorded rows of an A/B run judged again by the live run's rule
// (ab_rounds.hpp), without a launch.
#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "ab_rounds.hpp"
#include "perfgate/core/calendar_date.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/host_thresholds.hpp"
#include "perfgate/core/metric.hpp"
#include "perfgate/runner/ab.hpp"

namespace perfgate::runner {
namespace {

std::string where(const ResultRow& r) { return fmt::format("{}:{}", r.source_file, r.source_line); }

// One model's launches of each arm, in the file's order.
struct RecordedModel {
    std::string model;
    std::vector<const ResultRow*> base, head;
};

// What the rows measured: instruction counts, serving figures, else timed rates.
Measure recorded_measure(const std::vector<const ResultRow*>& rows) {
    for (const Measure measure : {Measure::instructions, Measure::serving})
        for (const auto& key : gated_metric_keys(measure))
            for (const auto* r : rows)
                if (detail::metric_of(*r, key)) return measure;
    return Measure::time;
}

// The metrics the live run decided (ab_metrics): the gated metrics of the rows' measure that some
// launch gave a reading of, in the table's order.
std::vector<std::string> recorded_metrics(const std::vector<const ResultRow*>& rows) {
    std::vector<std::string> out;
    for (const auto& key : gated_metric_keys(recorded_measure(rows)))
        if (std::any_of(rows.begin(), rows.end(), [&](const ResultRow* r) { return detail::metric_of(*r, key).has_value(); }))
            out.push_back(key);
    return out;
}

// The rows of one run: the only run of the file. Errors for a row that perfgate ab did not write
// and for a file of several runs.
Expected<std::vector<const ResultRow*>> run_rows(const ResultFile& recorded) {
    if (recorded.rows.empty()) return make_error(recorded.path + ": no rows to replay");
    std::set<std::string> runs;
    std::vector<const ResultRow*> rows;
    for (const auto& r : recorded.rows) {
        if (r.arm != "base" && r.arm != "head")
            return make_error(where(r) + ": a row without an arm (base or head): not a row perfgate ab recorded");
        if (r.runtime != recorded.rows.front().runtime)
            return make_error(fmt::format("{}: runtime \"{}\" where the rows before it are \"{}\": an A/B run compares "
                                          "two builds of one runtime", where(r), r.runtime, recorded.rows.front().runtime));
        runs.insert(r.run_id);
        rows.push_back(&r);
    }
    if (runs.size() > 1)
        return make_error(fmt::format("{}: rows of {} A/B runs (run_id {}): replay one run's file (perfgate prune "
                                      "--run-id keeps the others apart)",
                                      recorded.path, runs.size(), fmt::join(runs, ", ")));
    return rows;
}

std::vector<RecordedModel> by_model(const std::vector<const ResultRow*>& rows) {
    std::vector<RecordedModel> models;
    for (const auto* r : rows) {
        auto it = std::find_if(models.begin(), models.end(), [&](const RecordedModel& m) { return m.model == r->model; });
        if (it == models.end()) it = models.insert(models.end(), RecordedModel{r->model, {}, {}});
        (r->arm == "base" ? it->base : it->head).push_back(r);
    }
    return models;
}

// The binary a launch ran: the first word of its recorded command.
std::string binary_of(const std::vector<const ResultRow*>& launches) {
    if (launches.empty()) return "-";
    const std::string& command = launches.front()->command;
    return command.substr(0, command.find(' '));
}

// Seconds from the first launch to the end of round `k` (from 0), widened by one launch: the
// first row is written when the first launch ends, so 2(k+1) launches span 2(k+1) - 1 intervals.
std::optional<double> elapsed(const RecordedModel& m, std::size_t k) {
    const auto first = iso_utc_seconds(std::min(m.base.front()->timestamp, m.head.front()->timestamp));
    const auto last = iso_utc_seconds(std::max(m.base[k]->timestamp, m.head[k]->timestamp));
    if (!first || !last) return std::nullopt;
    const double launches = 2.0 * static_cast<double>(k + 1);
    return static_cast<double>(*last - *first) * launches / (launches - 1.0);
}

AbModelResult replay_model(const RecordedModel& m, const detail::RoundsContext& context, const StopRule& stop) {
    AbModelResult result;
    result.model = m.model;
    result.runtime = context.runtime;
    std::vector<detail::RoundReadings> rounds;
    // Round k's launches in the order the live run made them: a launch that failed ended the model
    // before the other arm's launch of that round, so its row may be the last one recorded.
    const std::size_t recorded = std::min(std::max(m.base.size(), m.head.size()), stop.max_rounds);
    for (std::size_t k = 0; k < recorded; ++k) {
        detail::RoundReadings readings;
        bool whole = true;
        for (const Arm arm : arm_order(k)) {
            const auto& launches = arm == Arm::base ? m.base : m.head;
            if (k >= launches.size()) {
                whole = false;
                break;
            }
            const ResultRow* row = launches[k];
            if (!row->status.ok()) {
                result.status = row->status.text;
                result.reason = fmt::format("{} arm, round {}: {} ({})", row->arm, k + 1, row->status.reason(), where(*row));
                result.verdict = detail::model_verdict(result);
                return result;
            }
            detail::add_readings(*row, context.metrics, context.reading, arm == Arm::base ? readings.base : readings.head);
        }
        if (!whole) break;
        rounds.push_back(std::move(readings));
        const bool stop_here = detail::look(result, context, stop, rounds);
        result.seconds = elapsed(m, k);
        if (stop_here) {
            result.verdict = detail::model_verdict(result);
            return result;
        }
    }
    // A live run would have gone on: no verdict can be read off a recording that ends first.
    result.reason = fmt::format("the recording ends after {} round{}, before the rule stops (rounds {}..{})",
                                rounds.size(), rounds.size() == 1 ? "" : "s", stop.min_rounds, stop.max_rounds);
    result.verdict = gates::Verdict::inconclusive;
    return result;
}

}  // namespace

Expected<AbReport> replay_ab(const ResultFile& recorded, const AbReplayRequest& request) {
    auto rows = run_rows(recorded);
    if (!rows) return rows.error();
    const auto models = by_model(*rows);
    const auto metrics = recorded_metrics(*rows);
    if (auto st = check_ab_rounds(request.stop, request.alpha, metrics.size() * models.size()); !st) return st.error();
    AbReport report;
    const ResultRow& first = *rows->front();
    report.runtime = first.runtime;
    report.host = first.host;
    report.run_id = first.run_id;
    report.base_binary = binary_of(models.front().base);
    report.head_binary = binary_of(models.front().head);
    report.stop = request.stop;
    report.alpha = request.alpha;
    report.reading = request.reading;
    if (auto note = detail::launch_reading_note(request.reading); !note.empty()) report.notes.push_back(note);
    report.levels = detail::ab_levels(request.stop, request.alpha, metrics.size(), models.size());
    report.replayed_from = recorded.path;
    report.notes.push_back(false_alarm_note(report.levels, request.alpha, metrics.size(), models.size()));
    report.notes.push_back(fmt::format("replayed from the {} recorded launches of {}: no launch was made",
                                       rows->size(), recorded.path));
    for (const auto& m : models)
        report.models.push_back(replay_model(
            m, {m.model, report.runtime, metrics, request.thresholds, report.levels, request.stop.max_rounds, request.reading},
            request.stop));
    return report;
}

Expected<AbReport> replay_ab_file(const std::string& csv, const std::filesystem::path& thresholds_dir,
                                  const StopRule& stop, double alpha, LaunchReading reading) {
    auto recorded = read_results_csv(csv);
    if (!recorded) return recorded.error();
    const std::string host = recorded->rows.empty() ? std::string() : recorded->rows.front().host;
    auto thresholds = gates::load_host_thresholds(thresholds_dir, host);
    if (!thresholds) return thresholds.error();
    auto report = replay_ab(*recorded, {stop, alpha, thresholds->set, reading});
    if (report) report->notes.insert(report->notes.end(), thresholds->notes.begin(), thresholds->notes.end());
    return report;
}

}  // namespace perfgate::runner
