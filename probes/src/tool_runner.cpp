#include "perfgate/probes/tool_runner.hpp"

#include <fmt/format.h>

#include "perfgate/core/process.hpp"
#include "text.hpp"

namespace perfgate::probes {

namespace {
// Enough for a full rocminfo on an 8-GPU host; a runaway tool is cut here.
constexpr std::size_t max_output_bytes = 4 * 1024 * 1024;
}  // namespace

Expected<ToolOutput> run_tool(const ToolCall& call, const std::vector<std::string>& search_dirs) {
    const auto exe = find_on_path(call.program, search_dirs);
    if (!exe) return make_error(fmt::format("{}: not found on PATH", call.program));

    ProcessRequest request;
    request.program = *exe;
    request.args = call.args;
    request.env = call.extra_env;
    request.merge_stderr = call.merge_stderr;
    request.timeout = call.timeout;
    request.capture_limit = max_output_bytes;
    auto ran = run_process(request);
    if (!ran) return ran.error();
    if (ran->timed_out)
        return make_error(fmt::format("{}: killed after {} ms without finishing", *exe, call.timeout.count()));
    return ToolOutput{strip_ansi(ran->out), ran->shell_status()};
}

}  // namespace perfgate::probes
