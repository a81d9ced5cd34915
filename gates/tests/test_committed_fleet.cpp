// The committed H200 history, as shipped in benchmarks/, against a machine it never saw (issue 45,
// acceptance 1). Machine I (docs/measurements/h200-machines-2026-12-04/) is kept out of
// benchmarks/: its 38 unchanged runs of one sitting, the same runs with llama-bench decode cut 10%
// on llama-3.1-8b and llama-3.2-1b, and its real plus10 slowdowns (4 more blocks, 30 runs each),
// each judged as the suite's runner judges a pair: the gate with up to two reruns
// (gates/src/adaptive.hpp, the suite default), each rerun the next launch of the same sitting.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "adaptive.hpp"
#include "gate_test_support.hpp"
#include "perfgate/core/csv.hpp"
#include "perfgate/gates/gate.hpp"

using namespace perfgate;
using namespace perfgate::gates;

namespace {

const std::string kMachineI = std::string(PERFGATE_SOURCE_DIR) + "/docs/measurements/h200-machines-2026-12-04/";

// The rows of a file grouped by run, in the order of the file.
std::vector<std::vector<ResultRow>> runs_of(const std::string& path) {
    auto file = read_results_csv(path);
    REQUIRE(file);
    std::vector<std::vector<ResultRow>> runs;
    std::map<std::string, std::size_t> index;
    for (const auto& row : file->rows) {
        auto [it, added] = index.emplace(row.run_id, runs.size());
        if (added) runs.emplace_back();
        runs[it->second].push_back(row);
    }
    return runs;
}

// llama-bench decode of `model` cut to `factor` of what was measured.
void cut_decode(std::vector<ResultRow>& rows, const std::vector<std::string>& models, double factor) {
    for (auto& r : rows) {
        if (r.runtime != "llama-bench" || !r.decode_tok_s) continue;
        if (std::find(models.begin(), models.end(), r.model) == models.end()) continue;
        *r.decode_tok_s *= factor;
        for (double& s : r.decode_tok_s_samples) s *= factor;
    }
}

GateOptions shipped() {
    GateOptions o;
    o.benchmarks_dir = std::string(PERFGATE_SOURCE_DIR) + "/benchmarks";
    o.thresholds_dir = testing::thresholds_dir();
    return o;
}

// Judges run `i` of `runs`, a rerun of a pair being that pair's launch in the next run of the
// sitting (wrapping round), recorded under run i's id as the runner records a rerun.
GateReport judge_with_reruns(const std::vector<std::vector<ResultRow>>& runs, std::size_t i) {
    auto more = [&](const PairReport& pair, std::size_t rerun) -> Expected<std::vector<ResultRow>> {
        std::vector<ResultRow> launch;
        for (ResultRow r : runs[(i + rerun) % runs.size()])
            if (r.model == pair.model && r.runtime == pair.runtime) {
                r.run_id = runs[i].front().run_id;
                launch.push_back(std::move(r));
            }
        return launch;
    };
    auto report = gate_rows_adaptive(runs[i], shipped(), 2, more);
    REQUIRE(report);
    return *report;
}

PairReport pair_of(const GateReport& report, const std::string& model) {
    const auto it = std::find_if(report.pairs.begin(), report.pairs.end(), [&](const PairReport& p) {
        return p.model == model && p.runtime == "llama-bench";
    });
    REQUIRE(it != report.pairs.end());
    return *it;
}

}  // namespace

TEST_CASE("the committed H200 history judges a machine it never saw: unchanged runs pass, a 10% decode loss fails",
          "[gates][machine][acceptance]") {
    const auto unchanged = runs_of(kMachineI + "machine-i_cuda_h200_2026-12-04.csv");
    REQUIRE(unchanged.size() == 38);
    auto cut = unchanged;
    for (auto& run : cut) cut_decode(run, {"llama-3.1-8b", "llama-3.2-1b"}, 0.90);

    std::size_t failed = 0, both_regressed = 0;
    for (std::size_t i = 0; i < unchanged.size(); ++i) {
        const auto plain = judge_with_reruns(unchanged, i);
        INFO("run " << unchanged[i].front().run_id);
        // Judged, by the machines rule: machine I has no history of its own in benchmarks/.
        const auto eight = pair_of(plain, "llama-3.1-8b");
        REQUIRE(!eight.metrics.empty());
        CHECK(eight.metrics.front().test == "machines");
        if (!passed(plain)) ++failed;

        const auto slower = judge_with_reruns(cut, i);
        if (pair_of(slower, "llama-3.1-8b").verdict == Verdict::regressed &&
            pair_of(slower, "llama-3.2-1b").verdict == Verdict::regressed)
            ++both_regressed;
    }
    CHECK(failed == 0);
    CHECK(both_regressed == unchanged.size());
}

TEST_CASE("the committed H200 history names machine I's real plus10 slowdowns", "[gates][machine][acceptance]") {
    for (const std::string model : {"llama-3.1-8b", "llama-3.2-1b"}) {
        // One launch per run, each a pp512/tg128 llama-bench of the model with 4 more blocks
        // (about 9% slower decode), recorded under the base model's name.
        const auto runs = runs_of(kMachineI + "machine-i-detect-" + model + "_cuda_h200_2026-12-04_plus10.csv");
        REQUIRE(runs.size() == 30);
        std::size_t regressed = 0;
        for (std::size_t i = 0; i < runs.size(); ++i)
            if (pair_of(judge_with_reruns(runs, i), model).verdict == Verdict::regressed) ++regressed;
        INFO(model);
        // Acceptance: at least 95% of runs.
        CHECK(regressed * 100 >= 95 * runs.size());
    }
}
