#include <catch2/catch.hpp>

#include "linux_files.hpp"
#include "rocm_versions.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("hipconfig: --full layout, bare --version, hipcc line", "[probes][versions]") {
    CHECK(parse_hipconfig_version(fixture_text("hipconfig-full_rocm-3.10_rocm-issue-1176.txt")) == "3.10.20465");
    CHECK(parse_hipconfig_version("3.10.20465-f9876b8d") == "3.10.20465");  // no trailing newline
    const auto lhl = fixture_text("rocm-smi-productname-json_hipcc-version_gfx1151_lhl-strix-halo-testing.txt");
    CHECK(parse_hipconfig_version(lhl) == "6.5.25281");
    CHECK_FALSE(parse_hipconfig_version("hipconfig: command failed\n"));
}

TEST_CASE("ROCm .info/version and Linux files", "[probes][versions]") {
    CHECK(parse_rocm_version_file("7.2.0-43\n") == "7.2.0");
    CHECK_FALSE(parse_rocm_version_file("garbage\n"));
    CHECK(parse_meminfo_total_bytes("MemTotal:       32484672 kB\n") == 32484672ULL * 1024);
    CHECK(parse_cpuinfo_model("processor\t: 0\nmodel name\t: AMD EPYC\n") == "AMD EPYC");
    CHECK(parse_os_release_name("NAME=x\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n") == "Debian GNU/Linux 12 (bookworm)");
    CHECK(parse_sysfs_number("0x1586\n") == 0x1586u);
    CHECK(parse_sysfs_number("536870912\n") == 536870912u);
}
