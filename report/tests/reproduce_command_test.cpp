#include <catch2/catch.hpp>

#include "perfgate/report/reproduce_command.hpp"

using namespace perfgate::report;

TEST_CASE("shell words: plain arguments stay, others are single-quoted so the line pastes back", "[report]") {
    CHECK(shell_word("benchmarks/cpu_h_2026-12-01.csv") == "benchmarks/cpu_h_2026-12-01.csv");
    CHECK(shell_word("a b") == "'a b'");
    CHECK(shell_word("it's") == "'it'\\''s'");
    CHECK(shell_word("$HOME") == "'$HOME'");
    CHECK(shell_word("") == "''");
}

TEST_CASE("the reproduce line names every option that differs from its default", "[report]") {
    ReportOptions o;
    o.results = {"a.csv", "b c.csv"};
    o.output = "page.md";
    CHECK(reproduce_command(o) == "perfgate report --results a.csv --results 'b c.csv' --output page.md");
    o.history_dir = "benchmarks";
    o.thresholds_dir = "thr";
    o.note = "GPU idle";
    o.compare = "mlxcel:mlx-lm";
    o.min_ratio = 0.95;
    o.charts.enabled = false;
    CHECK(reproduce_command(o) ==
          "perfgate report --results a.csv --results 'b c.csv' --output page.md --history-dir benchmarks "
          "--thresholds-dir thr --note 'GPU idle' --compare mlxcel:mlx-lm --min-ratio 0.95 --no-charts");
}
