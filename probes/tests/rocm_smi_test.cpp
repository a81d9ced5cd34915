#include <catch2/catch.hpp>

#include "perfgate/probes/amd_smi.hpp"
#include "perfgate/probes/rocm_smi.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("rocm-smi long form: 512 MiB carve-out on Strix Halo", "[probes][rocm-smi]") {
    const auto r = parse_rocm_smi(fixture_text("rocm-smi-meminfo_gfx1151_lemonade-llamacpp-rocm-9.txt"));
    REQUIRE(r.cards.size() == 1);
    CHECK(r.cards[0].vram_total_bytes == 536870912u);
    CHECK_FALSE(r.cards[0].gtt_total_bytes);  // the post was cut before the GTT lines
}

TEST_CASE("rocm-smi long form on MI300X: driver, device id, series", "[probes][rocm-smi]") {
    const auto r = parse_rocm_smi(fixture_text("rocm-smi_mi300x_thamada-nvidia-smi.txt"));
    CHECK(r.driver_version == "6.7.0");
    REQUIRE(r.cards.size() == 4);
    CHECK(r.cards[3].device_id == 0x74a1u);
    CHECK(r.cards[0].card_series == "AMD Instinct MI300X OAM");
}

TEST_CASE("rocm-smi --showproductname --json", "[probes][rocm-smi]") {
    const auto text = fixture_text("rocm-smi-productname-json_hipcc-version_gfx1151_lhl-strix-halo-testing.txt");
    const auto json_line = text.substr(0, text.find('\n'));
    const auto r = parse_rocm_smi(json_line);
    REQUIRE(r.cards.size() == 1);
    CHECK(r.cards[0].card_series == "AMD Radeon Graphics");
    CHECK(r.cards[0].gfx_version == "gfx1151");
    CHECK(r.cards[0].device_id == 0x1586u);
}
