#include <catch2/catch.hpp>

#include "perfgate/probes/nvidia_smi.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("nvidia-smi table: H100 x8", "[probes][nvidia-smi]") {
    const auto t = parse_nvidia_smi(fixture_text("nvidia-smi_h100x8_thamada-nvidia-smi.txt"));
    CHECK(t.driver_version == "565.57.01");
    CHECK(t.cuda_version == "12.7");
    REQUIRE(t.gpus.size() == 8);
    CHECK(t.gpus[0].name == "NVIDIA H100 80GB HBM3");
    CHECK(t.gpus[7].memory_total_bytes == 81559 * MiB);
}

TEST_CASE("nvidia-smi table and csv: H200", "[probes][nvidia-smi]") {
    const auto text = fixture_text("nvidia-smi_h200_cloud-vm-capture.txt");
    const auto t = parse_nvidia_smi(text);
    CHECK(t.driver_version == "580.159.04");
    CHECK(t.cuda_version == "13.0");
    REQUIRE(t.gpus.size() == 1);
    CHECK(t.gpus[0].memory_total_bytes == 143771 * MiB);
    const auto csv = parse_nvidia_smi_csv(text);  // only the noheader,nounits line has an index column
    REQUIRE(csv.size() == 1);
    CHECK(csv[0].name == "NVIDIA H200");
    CHECK(csv[0].compute_cap == "9.0");
    CHECK(csv[0].driver_version == "580.159.04");
    CHECK(csv[0].memory_total_bytes == 143771 * MiB);
}

TEST_CASE("nvidia-smi on GB10: no memory figure, never 0 bytes", "[probes][nvidia-smi]") {
    const auto t = parse_nvidia_smi(fixture_text("nvidia-smi_llama-bench_gb10_llama-cpp-benches-dgx-spark.txt"));
    REQUIRE(t.gpus.size() == 1);
    CHECK(t.gpus[0].name == "NVIDIA GB10");
    CHECK_FALSE(t.gpus[0].memory_total_bytes);
    // The csv query answers "[N/A]" on GB10 (marimo-team/marimo#6822).
    const auto csv = parse_nvidia_smi_csv("0, NVIDIA GB10, [N/A], [N/A], [N/A], 12.1, 580.95.05\n");
    REQUIRE(csv.size() == 1);
    CHECK_FALSE(csv[0].memory_total_bytes);
}
