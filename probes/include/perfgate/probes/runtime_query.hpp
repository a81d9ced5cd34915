#pragma once
// How the probe can ask a runtime for the device it sees. Which runtime kind uses which query is
// a column of perf's runtime table (perf/runtime_adapter.hpp): the names live there, once, and
// the callers of the probe (perf, runner, cli, all after probes in the layering) pass the query.
namespace perfgate::probes {

enum class RuntimeQuery {
    llama_cpp_devices,  // `<binary> --list-devices` (llama-bench, llama-cli, llama-server)
    mlxcel_generate,    // a one-token `mlxcel generate` with the kernel-backend debug line
    none,               // the runtime cannot name a device: the system tools decide
};

}  // namespace perfgate::probes
