#include "test_support.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace perfgate::probes::test {

namespace {
const std::string fixture_dir = std::string(PERFGATE_FIXTURES_DIR) + "/probe-outputs";

// The replay scripts find the fixtures through this variable.
const bool fixtures_exported = [] {
    ::setenv("PERFGATE_FIXTURES", fixture_dir.c_str(), 1);
    return true;
}();
}  // namespace

std::string fixture_text(const std::string& name) {
    std::ifstream in(fixture_dir + "/" + name);
    if (!in) throw std::runtime_error("missing fixture " + name);
    std::string out, line;
    while (std::getline(in, line))
        if (line.rfind("# ", 0) != 0) out += line + "\n";
    return out;
}

std::string machine_dir(const std::string& machine) {
    return std::string(PERFGATE_SOURCE_DIR) + "/probes/tests/data/machines/" + machine;
}

ProbeOptions machine_options(const std::string& machine) {
    (void)fixtures_exported;
    ProbeOptions o;
    o.sysroot = machine_dir(machine) + "/root";
    o.search_path = machine_dir(machine) + "/bin";
    o.thresholds_dir = "";
    return o;
}

HostFacts probe_machine(const std::string& machine, std::optional<std::string> runtime_kind,
                        std::optional<std::string> runtime_tool) {
    auto o = machine_options(machine);
    if (runtime_kind) {
        o.runtime_kind = runtime_kind;
        // The recorded machines hold an mlxcel or a llama.cpp binary; the query is the one perf's
        // runtime table gives those kinds (perf_tests check the table itself).
        o.runtime_query = *runtime_kind == "mlxcel" ? RuntimeQuery::mlxcel_generate : RuntimeQuery::llama_cpp_devices;
        o.runtime_binary = machine_dir(machine) + "/bin/" + *runtime_tool;
    }
    return probe_host(o);
}

}  // namespace perfgate::probes::test
