#include <catch2/catch.hpp>

#include "host_tag.hpp"
#include "perfgate/probes/probe.hpp"
#include "perfgate/probes/runtime_query.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;

// Which kind has which query is perf's runtime table (perf_tests, runtime_table_test.cpp); here:
// the probe does what the query it is given says.
TEST_CASE("the probe asks the runtime only as its query says", "[probes][runtime-kind]") {
    auto o = perfgate::probes::test::machine_options("strixhalo-96g-mlxcel");
    o.runtime_kind = "mlxcel";
    o.runtime_binary = perfgate::probes::test::machine_dir("strixhalo-96g-mlxcel") + "/bin/mlxcel";
    o.runtime_query = RuntimeQuery::mlxcel_generate;
    CHECK(probe_host(o).backend_source == "runtime:mlxcel");
    o.runtime_query = RuntimeQuery::none;  // the same binary, not asked: the system tools decide
    const auto f = probe_host(o);
    CHECK(f.backend_source != "runtime:mlxcel");
    bool stated = false;
    for (const auto& w : f.warnings) stated = stated || w.find("runtime kind 'mlxcel' cannot name the device") != std::string::npos;
    CHECK(stated);
}

TEST_CASE("host-tag override: the host-tag rule decides, and the tag replaces the derived one", "[probes][host-tag]") {
    for (const char* bad : {"Box", "my_box", "../x", "", "a b"}) {
        auto st = check_host_tag_choice(std::string(bad));
        REQUIRE_FALSE(st);
        CHECK_THAT(st.error().message, Catch::Contains("is not a host tag"));
    }
    REQUIRE(check_host_tag_choice(std::string("my-box-2")));
    REQUIRE(check_host_tag_choice(std::nullopt));
    auto o = perfgate::probes::test::machine_options("h200");
    const auto derived = probe_host(o);
    o.host_tag = "h200-rack7";
    const auto renamed = probe_host(o);
    CHECK(derived.host_tag == "h200");
    CHECK(renamed.host_tag == "h200-rack7");
    CHECK(renamed.hardware == derived.hardware);  // only the name changes
    bool noted = false;
    for (const auto& w : renamed.warnings) noted = noted || w.find("given by --host-tag (derived: h200)") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("a kind that cannot name the device is a stated warning, not 'unknown'", "[probes][runtime-kind]") {
    auto o = perfgate::probes::test::machine_options("h200");
    o.runtime_kind = "command";
    o.runtime_query = RuntimeQuery::none;
    o.runtime_binary = "/bin/true";
    const auto f = probe_host(o);
    CHECK(f.backend == Backend::cuda);
    bool stated = false, unknown = false;
    for (const auto& w : f.warnings) {
        stated = stated || w.find("runtime kind 'command' cannot name the device") != std::string::npos;
        unknown = unknown || w.find("unknown runtime kind") != std::string::npos;
    }
    CHECK(stated);
    CHECK_FALSE(unknown);
}
