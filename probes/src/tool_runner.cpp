#include "perfgate/probes/tool_runner.hpp"

#include <array>
#include <functional>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/filesystem.hpp>
#include <boost/process.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "text.hpp"

namespace perfgate::probes {

namespace bp = boost::process;
namespace fs = boost::filesystem;

namespace {
// Enough for a full rocminfo on an 8-GPU host; a runaway tool is cut here.
constexpr std::size_t max_output_bytes = 4 * 1024 * 1024;

bool is_executable_file(const fs::path& p) {
    boost::system::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}
}  // namespace

std::vector<std::string> split_search_path(const std::string& path_list) {
    std::vector<std::string> dirs;
    std::size_t start = 0;
    while (start <= path_list.size()) {
        const auto end = path_list.find(':', start);
        const auto dir = path_list.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (!dir.empty()) dirs.push_back(dir);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return dirs;
}

std::optional<std::string> find_on_path(const std::string& name, const std::vector<std::string>& dirs) {
    if (name.find('/') != std::string::npos)
        return is_executable_file(name) ? std::optional<std::string>(name) : std::nullopt;
    for (const auto& dir : dirs) {
        const auto candidate = fs::path(dir) / name;
        if (is_executable_file(candidate)) return candidate.string();
    }
    return std::nullopt;
}

Expected<ToolOutput> run_tool(const ToolCall& call, const std::vector<std::string>& search_dirs) {
    const auto exe = find_on_path(call.program, search_dirs);
    if (!exe) return make_error(fmt::format("{}: not found on PATH", call.program));

    boost::asio::io_context io;
    bp::async_pipe pipe(io);
    std::string output;
    std::array<char, 8192> buffer{};
    std::function<void(const boost::system::error_code&, std::size_t)> on_read =
        [&](const boost::system::error_code& ec, std::size_t n) {
            if (output.size() < max_output_bytes) output.append(buffer.data(), n);
            if (!ec) pipe.async_read_some(boost::asio::buffer(buffer), on_read);
        };

    auto env = boost::this_process::environment();
    bp::environment child_env = env;
    for (const auto& [key, value] : call.extra_env) child_env[key] = value;

    // A group, so that a hanging script's own children (e.g. `sleep`) die with it.
    bp::group group;
    bp::child child;
    std::error_code start_error;
    if (call.merge_stderr) {
        child = bp::child(bp::exe = *exe, bp::args = call.args, child_env, (bp::std_out & bp::std_err) > pipe,
                          bp::std_in < bp::null, group, start_error);
    } else {
        child = bp::child(bp::exe = *exe, bp::args = call.args, child_env, bp::std_out > pipe,
                          bp::std_err > bp::null, bp::std_in < bp::null, group, start_error);
    }
    if (start_error) return make_error(fmt::format("{}: could not start ({})", *exe, start_error.message()));

    const auto deadline = std::chrono::steady_clock::now() + call.timeout;
    pipe.async_read_some(boost::asio::buffer(buffer), on_read);
    io.run_until(deadline);  // returns early once the pipe reaches end of file

    // The output is complete; give the process what is left of the cap to exit.
    while (child.running() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (child.running() || !io.stopped()) {
        std::error_code ec;
        group.terminate(ec);
        child.wait(ec);
        return make_error(fmt::format("{}: killed after {} ms without finishing", *exe, call.timeout.count()));
    }
    std::error_code ec;
    child.wait(ec);
    return ToolOutput{strip_ansi(output), child.exit_code()};
}

}  // namespace perfgate::probes
