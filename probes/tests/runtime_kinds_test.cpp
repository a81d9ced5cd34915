#include <catch2/catch.hpp>

#include "host_tag.hpp"
#include "perfgate/probes/probe.hpp"
#include "perfgate/probes/runtime_kinds.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;

TEST_CASE("runtime kinds: the suites' names are accepted, anything else is refused with the list", "[probes][runtime-kind]") {
    for (const char* name : {"llama-bench", "mlxcel", "mlx-lm", "catch2", "command", "llama.cpp"}) {
        auto kind = find_runtime_kind(name);
        REQUIRE(kind);
        CHECK(kind->name == name);
    }
    CHECK(find_runtime_kind("llama-bench")->query == RuntimeQuery::llama_cpp_devices);
    CHECK(find_runtime_kind("mlxcel")->query == RuntimeQuery::mlxcel_generate);
    CHECK(find_runtime_kind("command")->query == RuntimeQuery::none);
    auto bad = find_runtime_kind("llamabench");
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error().message, Catch::Contains("unknown runtime kind \"llamabench\"") &&
                                        Catch::Contains("llama-bench, mlxcel, mlx-lm, catch2, command, llama.cpp"));
    REQUIRE_FALSE(check_probe_choices(std::string("LLAMA-BENCH"), std::nullopt));
    REQUIRE(check_probe_choices(std::string("llama-bench"), std::string("my-box-2")));
}

TEST_CASE("host-tag override: the host-tag rule decides, and the tag replaces the derived one", "[probes][host-tag]") {
    for (const char* bad : {"Box", "my_box", "../x", "", "a b"}) {
        auto st = check_probe_choices(std::nullopt, std::string(bad));
        REQUIRE_FALSE(st);
        CHECK_THAT(st.error().message, Catch::Contains("is not a host tag"));
    }
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
