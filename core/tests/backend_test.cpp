#include <catch2/catch.hpp>

#include <string>

#include "perfgate/core/backend.hpp"

using namespace perfgate;

TEST_CASE("every backend name parses back to its backend", "[core][backend]") {
    for (const char* name : backend_names) {
        const auto b = backend_from_string(name);
        REQUIRE(b);
        CHECK(std::string(to_string(*b)) == name);
    }
    CHECK(std::string(to_string(Backend::rocm)) == "rocm");
    CHECK(std::string(to_string(Backend::cpu)) == "cpu");
    CHECK(backend_from_string("vulkan") == Backend::vulkan);
}

TEST_CASE("only the exact backend names parse", "[core][backend]") {
    CHECK_FALSE(backend_from_string("ROCm"));
    CHECK_FALSE(backend_from_string("hip"));  // an alias some runtimes print; probes maps it
    CHECK_FALSE(backend_from_string(""));
    CHECK_FALSE(backend_from_string("cpu "));
    CHECK_FALSE(backend_from_string("pylm"));
}
