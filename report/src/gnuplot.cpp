#include "gnuplot.hpp"

#include <chrono>
#include <fstream>
#include <sstream>

#include <boost/filesystem.hpp>
#include <boost/process.hpp>

#include "perfgate/core/text.hpp"

namespace perfgate::report {
namespace bp = boost::process;
namespace fs = boost::filesystem;

std::string find_gnuplot(const std::string& search_path) {
    if (search_path.empty()) return bp::search_path("gnuplot").string();
    std::vector<fs::path> dirs;
    std::size_t start = 0;
    while (true) {
        auto pos = search_path.find(':', start);
        auto dir = search_path.substr(start, pos == std::string::npos ? std::string::npos : pos - start);
        if (!dir.empty()) dirs.emplace_back(dir);
        if (pos == std::string::npos) break;
        start = pos + 1;
    }
    return bp::search_path("gnuplot", dirs).string();
}

Status run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& work_dir, int timeout_s) {
    // stderr goes to a file: gnuplot's messages are small, and a file cannot fill up and block it.
    const auto err_path = fs::path(work_dir) / (fs::path(script).filename().string() + ".stderr");
    std::error_code ec;
    bp::child child(gnuplot, bp::args({script}), bp::start_dir(work_dir), bp::std_in < bp::null,
                    bp::std_out > bp::null, bp::std_err > err_path, ec);
    if (ec) return make_error("cannot start " + gnuplot + ": " + ec.message());
    if (!child.wait_for(std::chrono::seconds(timeout_s), ec)) {
        child.terminate(ec);
        return make_error("gnuplot did not finish within " + std::to_string(timeout_s) + " s on " + script);
    }
    std::ifstream in(err_path.string(), std::ios::binary);
    std::ostringstream err;
    err << in.rdbuf();
    if (child.exit_code() != 0)
        return make_error("gnuplot exited with " + std::to_string(child.exit_code()) + " on " + script + ": " +
                          printable_excerpt(err.str()));
    return Ok{};
}

}  // namespace perfgate::report
