// Hardening issue, item 12: a host tag is at most kMaxHostTagLength characters, and a longer one
// derived from a device name is cut to a valid tag rather than refused after a run measured.
#include <catch2/catch.hpp>

#include <string>

#include "perfgate/core/host_tag_rule.hpp"

using namespace perfgate;

TEST_CASE("a host tag longer than the limit is invalid, and the message says why", "[core][host-tag][bounds]") {
    const std::string at_limit(kMaxHostTagLength, 'a');
    CHECK(is_valid_host_tag(at_limit));
    CHECK_FALSE(is_valid_host_tag(at_limit + "a"));
    const std::string long_tag(5000, 'x');
    const auto problem = host_tag_problem(long_tag, "--host");
    REQUIRE(problem);
    CHECK_THAT(*problem, Catch::Contains("at most 64 characters; it has 5000 characters"));
    CHECK(problem->size() < 400);  // the tag is quoted as an excerpt, not whole
    // A short tag with a bad character does not claim a length problem.
    CHECK_THAT(*host_tag_problem("a_b", "--host"), !Catch::Contains("it has"));
}

TEST_CASE("cap_host_tag keeps whole words and always yields a valid tag", "[core][host-tag][bounds]") {
    CHECK(cap_host_tag("h200") == "h200");
    std::string words;
    while (words.size() < 5000) words += (words.empty() ? "" : "-") + std::string("radeon7");
    const auto capped = cap_host_tag(words);
    CHECK(is_valid_host_tag(capped));
    CHECK(capped.size() <= kMaxHostTagLength);
    CHECK(words.rfind(capped + "-", 0) == 0);  // a prefix ending at a word boundary
    CHECK(capped.size() > kMaxHostTagLength - 8);  // and not shorter than the last word that fits
    // A first word longer than the limit is cut inside it.
    const std::string one_word(300, 'q');
    CHECK(cap_host_tag(one_word) == std::string(kMaxHostTagLength, 'q'));
    // A word that ends exactly at the limit is kept.
    const std::string exact = std::string(kMaxHostTagLength - 4, 'a') + "-bcd";
    CHECK(cap_host_tag(exact + "-tail") == exact);
    CHECK(cap_host_tag("cpu-" + std::string(5000, 'z')) == "cpu");
}
