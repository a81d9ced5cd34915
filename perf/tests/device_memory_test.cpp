// Peak device memory end to end: a runtime whose GPU memory the (fake) driver accounts changes
// while it runs; the pair's row must hold the largest sampled figure of its process group, for
// the KFD (rocm) and nvidia-smi (cuda) sources, and nothing where no source exists.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "perfgate/core/csv.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::perf;
namespace fs = std::filesystem;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The runtime: records its process group as the driver would see it, holds 3 GiB, then 5 GiB
// from 1.2 s to 2.5 s (the sampler ticks about once a second), then 1 GiB, and prints its rate.
// rocm: the KFD's vram_<gpu> file under the fake root; cuda: a file the fake nvidia-smi reads.
std::string runtime_script() {
    return "set -e; d=\"$FAKE_ROOT/sys/class/kfd/kfd/proc/$$\"; mkdir -p \"$d\" \"$FAKE_ROOT/proc/$$\"; "
           "g=$(cut -d' ' -f5 /proc/$$/stat); "
           "echo \"$$ (sh) S 1 $g $g 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 1 1 1\" > \"$FAKE_ROOT/proc/$$/stat\"; "
           "hold() { echo $(( $1 * 1073741824 )) > \"$d/vram_17\"; echo \"$$, sh, $(( $1 * 1024 ))\" > \"$FAKE_ROOT/apps\"; }; "
           "hold 3; sleep 1.2; hold 5; sleep 1.3; hold 1; echo 'decode: 50.0 tok/s'";
}

std::string suite_text(const std::string& backend, const std::string& root) {
    nlohmann::json suite = {
        {"suite", "device-memory"},
        {"backend", backend},
        {"workload", {{"warmup", 0}, {"repetitions", 1}, {"timeout_s", 20}}},
        {"models", {{{"name", "small"}, {"checkpoint", "models/small"}, {"format", "4bit"}, {"weight_gb", 0.5}}}},
        {"runtimes",
         {{{"name", "holder"},
           {"kind", "command"},
           {"binary", "/bin/sh"},
           {"args", {"-c", runtime_script()}},
           {"env", {{"FAKE_ROOT", root}}},
           {"patterns", {{"decode_tok_s", "decode: ([0-9.]+) tok/s"}}}}}}};
    return suite.dump(2);
}

HostContext live_host(const std::string& backend) {
    HostContext h;
    h.backend = backend;
    h.host = backend + "-device-memory";
    h.device = "a GPU";
    h.usable_memory_bytes = 80ull << 30;
    h.memory_is_device = true;
    h.date = "2026-12-03";
    h.run_id = "device-memory-test";
    return h;  // no `replay`: the sampler reads the (fake) driver
}

// A fake nvidia-smi: --query-compute-apps lists the runtime while it is alive, with the memory it
// last claimed (MiB, as --format=csv,noheader,nounits prints it).
void fake_nvidia_smi(const fs::path& bin, const fs::path& root) {
    fs::create_directories(bin);
    const auto path = bin / "nvidia-smi";
    std::ofstream(path) << "#!/bin/sh\ncase \"$1\" in\n  --query-compute-apps=*)\n"
                        << "    [ -f '" << (root / "apps").string() << "' ] || exit 0\n"
                        << "    pid=$(cut -d, -f1 '" << (root / "apps").string() << "')\n"
                        << "    kill -0 \"$pid\" 2>/dev/null && cat '" << (root / "apps").string() << "'\n    exit 0 ;;\n"
                        << "  *) exit 2 ;;\nesac\n";
    fs::permissions(path, fs::perms::owner_all);
}

PairOutcome run(const std::string& backend, const fs::path& root, const fs::path& results) {
    auto suite = parse_suite(suite_text(backend, root.string()), "device-memory.json", test::data());
    REQUIRE(suite);
    PairRequest req;
    req.runtime = "holder";
    req.model = "small";
    req.host = live_host(backend);
    req.results_dir = results;
    req.contention = ContentionMode::off;  // the sampler does not depend on the guard
    req.contention_seams.sysroot = root.string();
    req.contention_seams.search_path = (root / "bin").string();
    std::ostringstream log, out;
    auto o = run_pair(*suite, req, log, out);
    REQUIRE(o);
    INFO(log.str());
    REQUIRE(o->status.text == "ok");
    return *o;
}

}  // namespace

TEST_CASE("device memory: the peak the driver accounts to the runtime's process group", "[pair][memory][device]") {
    const auto backend = GENERATE(as<std::string>{}, "rocm", "cuda");
    const auto root = test::temp_dir("device-memory-" + backend);
    fake_nvidia_smi(root / "bin", root);
    const auto results = test::temp_dir("device-memory-results-" + backend);
    const auto outcome = run(backend, root, results);
    const auto& row = *outcome.row;
    REQUIRE(row.peak_device_memory_bytes);
    CHECK(*row.peak_device_memory_bytes == 5 * kGiB);  // the 5 GiB level, not the first or last
    CHECK(row.peak_device_memory_bytes_samples == std::vector<double>{5 * kGiB});  // one measured launch
    // And through the CSV, like any metric.
    const auto csv = perfgate::read_results_csv((results / (backend + "_" + backend + "-device-memory_2026-12-03.csv")).string());
    REQUIRE(csv);
    REQUIRE(csv->rows.size() == 1);
    CHECK(csv->rows[0].peak_device_memory_bytes == row.peak_device_memory_bytes);
}

TEST_CASE("device memory: no source, no figure (never a zero)", "[pair][memory][device]") {
    // A cpu suite has no per-process GPU account; the same runtime leaves the column empty.
    const auto root = test::temp_dir("device-memory-cpu");
    const auto results = test::temp_dir("device-memory-results-cpu");
    const auto outcome = run("cpu", root, results);
    CHECK_FALSE(outcome.row->peak_device_memory_bytes);
    CHECK(outcome.row->peak_device_memory_bytes_samples.empty());
    CHECK(outcome.row->peak_memory_bytes);  // host memory is still measured
}
