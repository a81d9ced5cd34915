#include <catch2/catch.hpp>

#include "perfgate/probes/probe.hpp"

using namespace perfgate::probes;

// Not run by default ([!benchmark]); docs/probes.md has the scripted wall-clock numbers of the CLI.
TEST_CASE("probe_host on this machine", "[probes][!benchmark]") {
    ProbeOptions options;
    options.thresholds_dir = "";
    BENCHMARK("probe_host, no runtime") { return probe_host(options).host_tag.size(); };
}
