#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "perfgate/core/console.hpp"

using namespace perfgate;

TEST_CASE("auto colours a terminal only, and never with NO_COLOR or TERM=dumb", "[core][console]") {
    CHECK(color_wanted(ColorMode::automatic, true, nullptr, "xterm-256color"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, false, nullptr, "xterm-256color"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "1", "xterm"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "anything", nullptr));
    CHECK(color_wanted(ColorMode::automatic, true, "", "xterm"));  // empty NO_COLOR: no effect (no-color.org)
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, nullptr, "dumb"));
    // An explicit option beats the environment.
    CHECK(color_wanted(ColorMode::always, false, "1", "dumb"));
    CHECK_FALSE(color_wanted(ColorMode::never, true, nullptr, "xterm"));
}

TEST_CASE("a pipe is no terminal, and NO_COLOR is read from the environment", "[core][console]") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    CHECK_FALSE(color_for_fd(ColorMode::automatic, fds[1]));
    CHECK(color_for_fd(ColorMode::always, fds[1]));
    ::close(fds[0]);
    ::close(fds[1]);
    ::setenv("NO_COLOR", "1", 1);
    CHECK_FALSE(color_for_fd(ColorMode::automatic, STDERR_FILENO));  // whatever stderr is
    ::unsetenv("NO_COLOR");
}

TEST_CASE("color modes and paint", "[core][console]") {
    CHECK(color_mode_from_string("auto") == ColorMode::automatic);
    CHECK(color_mode_from_string("always") == ColorMode::always);
    CHECK(color_mode_from_string("never") == ColorMode::never);
    CHECK_FALSE(color_mode_from_string("yes"));
    CHECK(paint("regressed", Color::red, false) == "regressed");
    CHECK(paint("regressed", Color::red, true) == "\x1b[31mregressed\x1b[0m");
}
