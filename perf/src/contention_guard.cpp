#include "perfgate/core/text.hpp"
#include "perfgate/perf/contention_guard.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

#include "perfgate/core/search_path.hpp"
#include "perfgate/probes/tool_runner.hpp"

namespace perfgate::perf {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

// This process and the children it has waited for. The runtime is such a child once its launch
// ended, so subtracting this from the machine's busy time over a launch leaves what others used.
double own_cpu_seconds() {
    double s = 0;
    for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
        rusage u{};
        if (::getrusage(who, &u) == 0) s += seconds_of(u.ru_utime) + seconds_of(u.ru_stime);
    }
    return s;
}

void pause_for(double seconds) {
    if (seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

// Process names go into a CSV cell and a ';'-separated summary: the last path part, and nothing
// but letters, digits, '.', '_' and '-'.
std::string cell_name(const std::string& name) {
    std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
    if (base.empty()) base = "?";
    if (base.size() > 32) base.resize(32);
    for (char& c : base)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    return base;
}

std::string process_list(const std::vector<probes::OtherProcess>& list, std::size_t max) {
    const auto cell = [](const probes::OtherProcess& p) { return cell_name(p.name) + ":" + std::to_string(p.pid); };
    std::string s = fmt::format(
        "{}", fmt::join(mapped(list, cell, max), "+"));
    if (list.size() > max) s += "+" + std::to_string(list.size() - max) + "more";
    return s;
}

std::string readable_list(const std::vector<probes::OtherProcess>& list) {
    const auto named = [](const probes::OtherProcess& p) {
        return (p.name.empty() ? std::string("?") : p.name) + " pid " + std::to_string(p.pid);
    };
    return fmt::format("{}", fmt::join(mapped(list, named, 5), ", "));
}

}  // namespace

Expected<ContentionMode> parse_contention_mode(const std::string& text, const std::string& origin) {
    if (text == "on" || text == "enforce") return ContentionMode::enforce;
    if (text == "record") return ContentionMode::record;
    if (text == "off") return ContentionMode::off;
    return make_error(origin + ": contention mode \"" + text + "\" is not one of on, record, off");
}

Expected<ContentionMode> contention_mode_from_environment() {
    const char* v = std::getenv("PERFGATE_CONTENTION");
    if (!v || !*v) return ContentionMode::enforce;
    return parse_contention_mode(v, "PERFGATE_CONTENTION");
}

ContentionGuard::ContentionGuard(ContentionMode mode, const ContentionLimits& limits, std::string backend,
                                 ContentionSeams seams)
    : mode_(mode), limits_(limits), backend_(std::move(backend)), seams_(std::move(seams)) {
    if (!seams_.own_cpu_s) seams_.own_cpu_s = own_cpu_seconds;
    if (mode_ != ContentionMode::off) {
        const Counters now = counters();
        carried_ = CarriedLook{now, now.at, false};
    }
}

ContentionGuard::Counters ContentionGuard::start_look(bool& with_load) {
    with_load = true;
    const double window = limits_.window_s;
    std::optional<CarriedLook> carried = std::move(carried_);
    carried_.reset();
    if (carried && !full_look_next_) {
        const double since_taken = std::chrono::duration<double>(Clock::now() - carried->taken).count();
        const double span = std::chrono::duration<double>(Clock::now() - carried->from.at).count();
        const bool recent = carried->after_launch ? since_taken <= window : span <= 2 * window;
        if (recent) {
            // Over a span that holds our own launch the load average holds its threads (as after
            // every launch); the CPU share of others is still judged.
            with_load = !carried->after_launch;
            return carried->from;  // launched at once: the launch itself is judged (relaunch_after_disturbance)
        }
    }
    const Counters now = counters();
    // Before a relaunch the whole window is watched: the machine was just found busy. Otherwise
    // nothing is slept: an instant look (the load average, the GPU holders) and the launch's own
    // account of what others used decide, and a disturbed launch is relaunched once after a whole
    // window (docs/runner.md, "Contention").
    if (full_look_next_) pause_for(window);
    full_look_next_ = false;
    return now;
}

bool ContentionGuard::relaunch_after_disturbance(std::ostream& log, const std::string& label) {
    if (mode_ != ContentionMode::enforce || relaunched_) return false;
    log << label << ": relaunching once after a quiet window (" << reason_ << ")\n";
    relaunched_ = true;
    full_look_next_ = true;
    reason_.clear();
    // The discarded launch's disturbance is not the pair's any more: the column describes the
    // launches that count, and says that one was relaunched.
    shown_.reset();
    state_ = "unsampled";
    return true;
}

ContentionGuard ContentionGuard::disabled(std::string why) {
    ContentionGuard g(ContentionMode::off, {}, "", {});
    g.off_why_ = std::move(why);
    return g;
}

void ContentionGuard::count_group_as_own(std::int64_t group) { own_groups_.push_back(group); }

bool ContentionGuard::own_group(std::int64_t group) const {
    return std::find(own_groups_.begin(), own_groups_.end(), group) != own_groups_.end();
}

ContentionGuard::Counters ContentionGuard::counters() const {
    Counters c;
    c.cpu = probes::read_cpu_counters(probes::Sysroot(seams_.sysroot));
    // Ours: this process, the children it waited for, and the running groups it started (once
    // such a group is waited for, its time moves into the children's and leaves /proc together).
    c.own_s = seams_.own_cpu_s();
    for (const auto& [pid, p] : c.cpu.processes)
        if (own_group(p.group)) c.own_s += p.cpu_s;
    c.at = Clock::now();
    return c;
}

void ContentionGuard::read_gpu(ContentionReading& r) const {
    const auto self = static_cast<std::int64_t>(::getpid());
    auto holders = probes::read_gpu_holders(backend_, probes::Sysroot(seams_.sysroot), search_path_dirs(seams_.search_path),
                                            seams_.tool_timeout);
    if (!holders) return;  // cpu, metal, vulkan: no per-process GPU list to read
    r.gpu_checked = true;
    if (!*holders) {
        r.gpu_error = holders->error().message;
        return;
    }
    for (auto& p : **holders)
        if (p.pid != self && !own_group(p.pid)) r.gpu.push_back(std::move(p));  // a group's leader: its pid
}

ContentionReading ContentionGuard::reading_between(const Counters& a, const Counters& b, double min_share_span) const {
    ContentionReading r;
    const probes::Sysroot root(seams_.sysroot);
    r.load1 = probes::read_load_1min(root);
    r.cpus = b.cpu.cpus;
    const double window = std::chrono::duration<double>(b.at - a.at).count();
    // The machine's busy time minus ours (perfgate and the runtime it waited for) is what the
    // others used. Unlike summing /proc/<pid>/stat, this also counts processes that started and
    // ended inside the window (the compiler jobs of a build), and it needs no list of our pids.
    if (r.cpus > 0 && window >= min_share_span && window > 0 && b.cpu.busy_s > 0) {
        const double others = (b.cpu.busy_s - a.cpu.busy_s) - (b.own_s - a.own_s);
        r.other_cpu = std::clamp(others / (window * r.cpus), 0.0, 1.0);
    }
    // Names only (the share above decides): who used a tenth of a CPU or more.
    std::set<std::int64_t> ours = {static_cast<std::int64_t>(::getpid())};
    for (const auto& [pid, p] : b.cpu.processes)
        if (own_group(p.group)) ours.insert(pid);
    r.busy = probes::busy_processes(a.cpu, b.cpu, window, 0.1, ours);
    read_gpu(r);
    return r;
}

std::string ContentionGuard::over_limits(const ContentionReading& r, bool with_load) const {
    std::vector<std::string> why;
    if (with_load && r.load1 && r.cpus > 0 && *r.load1 / r.cpus > limits_.max_load_per_cpu)
        why.push_back(fmt::format("1-minute load {:.2f} on {} CPUs ({:.2f} per CPU, limit {:.2f})", *r.load1, r.cpus,
                                  *r.load1 / r.cpus, limits_.max_load_per_cpu));
    if (r.other_cpu && *r.other_cpu > limits_.max_other_cpu)
        why.push_back(fmt::format("other processes used {:.0f}% of the CPUs (limit {:.0f}%){}", *r.other_cpu * 100,
                                  limits_.max_other_cpu * 100, r.busy.empty() ? "" : ": " + readable_list(r.busy)));
    if (static_cast<std::int64_t>(r.gpu.size()) > limits_.max_gpu_processes)
        why.push_back(fmt::format("{} other process{} on the GPU ({}; limit {})", r.gpu.size(), r.gpu.size() == 1 ? "" : "es",
                                  readable_list(r.gpu), limits_.max_gpu_processes));
    return fmt::format("{}", fmt::join(why, "; "));
}

void ContentionGuard::note(const ContentionReading& r, const std::string& state) {
    // The column keeps the first disturbance it saw; quiet readings only replace quiet ones.
    if (state_ == "unsampled" || state_ == "idle") {
        shown_ = r;
        state_ = state;
    }
}

bool ContentionGuard::wait_until_quiet(std::ostream& log, const std::string& label) {
    if (mode_ == ContentionMode::off) return true;
    // Everything spent here counts against the budget, the looks as well as the pauses, so the
    // guard adds at most max_wait_s plus one look per launch to a pair (its CTest timeout allows that).
    auto since = Clock::now();
    auto charge = [&] {
        const auto now = Clock::now();
        waited_ += now - since;
        since = now;
    };
    while (true) {
        bool with_load = true;
        const Counters a = start_look(with_load);
        // A look of less than half a window leaves the others' share to the launch's own account:
        // over an instant the kernel's 10 ms ticks make it noise.
        const ContentionReading r = reading_between(a, counters(), limits_.window_s / 2);
        const std::string over = over_limits(r, with_load);
        charge();
        if (over.empty()) {
            note(r, "idle");
            return true;
        }
        if (mode_ == ContentionMode::record) {
            log << label << ": machine busy before the launch (" << over << "); recorded, not waited for (contention mode record)\n";
            note(r, "busy:before");
            return true;
        }
        const double left = limits_.max_wait_s - waited_.count();
        if (left <= 0) {
            reason_ = fmt::format("machine busy before the launch after waiting {:.0f} s (max_wait_s {:.0f}): {}",
                                  waited_.count(), limits_.max_wait_s, over);
            note(r, "contended:before");
            return false;
        }
        const double pause = std::min(limits_.poll_s, left);
        log << fmt::format("{}: machine busy ({}); waiting {:.1f} s ({:.0f} of at most {:.0f} s waited)\n", label, over,
                           pause, waited_.count(), limits_.max_wait_s)
            << std::flush;
        pause_for(pause);
        paused_ = true;
        full_look_next_ = true;  // the machine was busy: the next look watches a whole window
        charge();
    }
}

void ContentionGuard::launch_starting() {
    if (mode_ != ContentionMode::off) launch_start_ = counters();
}

bool ContentionGuard::launch_finished(std::ostream& log, const std::string& label) {
    if (mode_ == ContentionMode::off) return true;
    const Counters end = counters();
    const ContentionReading r = reading_between(launch_start_, end, 0);
    const std::string over = over_limits(r, false);
    if (over.empty()) {
        note(r, "idle");
        carried_ = CarriedLook{launch_start_, end.at, true};  // a quiet launch is the next launch's look
        return true;
    }
    if (mode_ == ContentionMode::record) {
        log << label << ": machine busy during the launch (" << over << "); recorded (contention mode record)\n";
        note(r, "busy:during");
        return true;
    }
    reason_ = "machine busy during the launch: " + over;
    note(r, "contended:during");
    return false;
}

std::string ContentionGuard::column() const {
    if (mode_ == ContentionMode::off) return off_why_;
    if (!shown_) return state_;
    const ContentionReading& r = *shown_;
    std::string s = state_;
    if (paused_) s += fmt::format(";waited={:.0f}s", waited_.count());
    if (relaunched_) s += ";relaunched";
    s += r.load1 ? fmt::format(";load1={:.2f}/{}cpu", *r.load1, r.cpus) : std::string(";load1=unknown");
    if (r.other_cpu) s += fmt::format(";other_cpu={:.0f}%", *r.other_cpu * 100);
    if (!r.busy.empty()) s += ";busy=" + process_list(r.busy, 3);
    if (!r.gpu_error.empty()) s += ";gpu_procs=unknown";
    else if (r.gpu_checked) s += ";gpu_procs=" + std::to_string(r.gpu.size()) + (r.gpu.empty() ? "" : "(" + process_list(r.gpu, 3) + ")");
    return s;
}

}  // namespace perfgate::perf
