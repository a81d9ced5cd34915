#include "perfgate/gates/file_name.hpp"

#include "perfgate/core/backend.hpp"
#include "perfgate/core/calendar_date.hpp"
#include "perfgate/gates/calendar.hpp"

namespace perfgate::gates {
namespace {

std::vector<std::string> split_fields(std::string_view text) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        auto pos = text.find('_', start);
        fields.emplace_back(text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
        if (pos == std::string_view::npos) break;
        start = pos + 1;
    }
    return fields;
}

std::string join(const std::vector<std::string>& fields, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i) {
        if (!out.empty()) out += '_';
        out += fields[i];
    }
    return out;
}

}  // namespace

bool is_backend_name(std::string_view series) { return backend_from_string(series).has_value(); }

std::string runtime_of_series(std::string_view series) {
    return is_backend_name(series) ? std::string("mlxcel") : std::string(series);
}

std::optional<std::string> impossible_date_in_name(std::string_view path) {
    auto slash = path.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    for (const auto& field : split_fields(base)) {
        std::string_view f = field;
        if (f.size() > 4 && f.substr(f.size() - 4) == ".csv") f.remove_suffix(4);
        if (looks_like_iso_date(f) && !iso_day_number(f))
            return std::string(path) + ": the date " + std::string(f) + " in the file name is not a real calendar date";
    }
    return std::nullopt;
}

std::optional<BenchmarkFileName> parse_benchmark_file_name(std::string_view path) {
    auto slash = path.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    constexpr std::string_view ext = ".csv";
    if (base.size() <= ext.size() || base.substr(base.size() - ext.size()) != ext) return std::nullopt;
    base.remove_suffix(ext.size());

    const auto fields = split_fields(base);
    if (fields.size() < 3 || fields[0].empty() || fields[1].empty()) return std::nullopt;

    // The date is the first YYYY-MM-DD field after the host; hand-made tags may sit before it.
    std::size_t date_index = 0;
    for (std::size_t i = 2; i < fields.size(); ++i) {
        if (is_iso_date(fields[i])) {
            date_index = i;
            break;
        }
    }
    if (date_index == 0) return std::nullopt;

    BenchmarkFileName name;
    name.series = fields[0];
    name.host = fields[1];
    name.date = fields[date_index];
    for (std::size_t i = 2; i < date_index; ++i) {
        if (fields[i] == "vlm") name.harness = "vlm";
        else name.tags.push_back(fields[i]);
    }
    std::size_t single = fields.size();
    for (std::size_t i = date_index + 1; i < fields.size(); ++i) {
        if (fields[i] == "single" && i + 1 < fields.size()) {
            single = i;
            break;
        }
    }
    // pylm's docstring puts "vlm" after the date; accept it there as well.
    std::vector<std::string> after;
    for (std::size_t i = date_index + 1; i < single; ++i) {
        if (fields[i] == "vlm") name.harness = "vlm";
        else after.push_back(fields[i]);
    }
    name.suffix = join(after, 0, after.size());
    if (single < fields.size()) name.single_model = join(fields, single + 1, fields.size());
    return name;
}

}  // namespace perfgate::gates
