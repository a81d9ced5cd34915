#include "contention_summary.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/core/text.hpp"

namespace perfgate::report {
namespace {

template <class T>
std::optional<T> number(std::string_view text) {
    T v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return v;
}

void widen(std::optional<double>& lo, std::optional<double>& hi, double v) {
    lo = lo ? std::min(*lo, v) : v;
    hi = hi ? std::max(*hi, v) : v;
}

// One field after the state: "load1=3.20/2cpu", "other_cpu=61%", "busy=cc1plus:4321+ld:7+2more",
// "gpu_procs=1(python3:1234)", "waited=120s", "relaunched". False when it is none of them.
bool read_field(std::string_view field, ContentionSummary& s) {
    if (field == "relaunched") return ++s.relaunched, true;
    const auto eq = field.find('=');
    if (eq == std::string_view::npos) return false;
    const auto key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "waited") return true;
    if (key == "load1") {
        if (value == "unknown") return true;
        const auto slash = value.find('/');
        if (slash == std::string_view::npos || value.size() < slash + 4 || value.substr(value.size() - 3) != "cpu")
            return false;
        const auto load = number<double>(value.substr(0, slash));
        const auto cpus = number<int>(value.substr(slash + 1, value.size() - 3 - slash - 1));
        if (!load || !cpus) return false;
        widen(s.load_min, s.load_max, *load);
        s.cpus.insert(*cpus);
        return true;
    }
    if (key == "other_cpu") {
        const auto pct = value.empty() || value.back() != '%' ? std::nullopt : number<double>(value.substr(0, value.size() - 1));
        if (!pct) return false;
        s.other_cpu_max = std::max(s.other_cpu_max.value_or(0), *pct);
        return true;
    }
    if (key == "busy") {
        for (auto item : perfgate::split(value, '+'))
            if (const auto colon = item.find(':'); colon != std::string_view::npos) s.busy.emplace(item.substr(0, colon));
        return true;
    }
    if (key == "gpu_procs") {
        if (value == "unknown") return s.gpu_unknown = true, true;
        const auto n = number<int>(value.substr(0, value.find('(')));
        if (!n) return false;
        s.gpu_procs_max = std::max(s.gpu_procs_max.value_or(0), *n);
        return true;
    }
    return false;
}

}  // namespace

ContentionSummary summarise_contention(const std::vector<std::string>& cells) {
    ContentionSummary s;
    for (const auto& cell : cells) {
        if (cell.empty()) continue;
        ++s.rows;
        const auto fields = perfgate::split(cell, ';');
        ContentionSummary parsed = s;
        bool readable = true;
        for (std::size_t i = 1; i < fields.size() && readable; ++i) readable = read_field(fields[i], parsed);
        if (!readable) {
            ++s.states["other"];
            s.unreadable.push_back(cell);
            continue;
        }
        s = std::move(parsed);
        ++s.states[std::string(fields[0] == "none" ? std::string_view("none seen") : fields[0])];
    }
    return s;
}

std::string contention_text(const ContentionSummary& s) {
    if (s.rows == 0) return "";
    std::vector<std::pair<std::string, std::size_t>> states(s.states.begin(), s.states.end());
    std::stable_sort(states.begin(), states.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::string> counts;
    for (const auto& [state, n] : states) counts.push_back(fmt::format("{} {}", n, state));
    std::string text = fmt::format("{} row{}: {}", s.rows, s.rows == 1 ? "" : "s", fmt::join(counts, ", "));
    if (s.relaunched) text += fmt::format(" ({} relaunched once)", s.relaunched);
    if (s.load_min) {
        const std::string range = *s.load_min == *s.load_max ? fmt::format("{:.2f}", *s.load_min)
                                                              : fmt::format("{:.2f}-{:.2f}", *s.load_min, *s.load_max);
        text += fmt::format("; 1-minute load {} of {} CPUs", range, fmt::join(s.cpus, " or "));
    }
    if (s.other_cpu_max) text += fmt::format("; others used at most {:g}% of the CPUs", *s.other_cpu_max);
    if (!s.busy.empty()) text += fmt::format("; seen busy: {}", fmt::join(s.busy, ", "));
    if (s.gpu_procs_max)
        text += *s.gpu_procs_max == 0 ? std::string("; other GPU processes: none")
                                      : fmt::format("; other GPU processes: up to {}", *s.gpu_procs_max);
    if (s.gpu_unknown) text += "; GPU process list unreadable in some rows";
    if (!s.unreadable.empty()) text += fmt::format("; not in the guard's format: {}", fmt::join(s.unreadable, "; "));
    return text;
}

}  // namespace perfgate::report
