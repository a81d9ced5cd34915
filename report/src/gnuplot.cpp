#include "gnuplot.hpp"

#include <chrono>
#include <optional>

#include "perfgate/core/process.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/core/text.hpp"

namespace perfgate::report {

namespace {
// gnuplot's messages are a few lines; a script gone wrong may repeat one for every point.
constexpr std::size_t max_message_bytes = 64 * 1024;
}  // namespace

std::string find_gnuplot(const std::string& search_path) {
    const auto dirs = search_path_dirs(search_path.empty() ? std::nullopt : std::optional<std::string>(search_path));
    return find_on_path("gnuplot", dirs).value_or("");
}

Status run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& work_dir, int timeout_s) {
    ProcessRequest request;
    request.program = gnuplot;
    request.args = {script};
    request.cwd = work_dir;
    request.timeout = std::chrono::seconds(timeout_s);
    request.capture_limit = max_message_bytes;
    auto ran = run_process(request);
    if (!ran) return ran.error();
    if (ran->timed_out)
        return make_error("gnuplot did not finish within " + std::to_string(timeout_s) + " s on " + script);
    if (ran->shell_status() != 0)
        return make_error("gnuplot exited with " + std::to_string(ran->shell_status()) + " on " + script + ": " +
                          printable_excerpt(ran->err));
    return Ok{};
}

}  // namespace perfgate::report
