#include "perfgate/core/method_marks.hpp"

#include <array>
#include <fmt/format.h>
#include <utility>

#include "perfgate/core/text.hpp"

namespace perfgate {
namespace {

constexpr std::string_view sweep_prefix = "perfgate.sweep=";

struct AxisRow {
    SweepAxis axis;
    std::string_view name;
    char letter;
};
constexpr std::array<AxisRow, 4> axes{{{SweepAxis::concurrency, "concurrency", 'c'},
                                       {SweepAxis::prompt_tokens, "prompt_tokens", 'p'},
                                       {SweepAxis::generated_tokens, "generated_tokens", 'n'},
                                       {SweepAxis::batch, "batch", 'b'}}};

const AxisRow& row_of(SweepAxis axis) {
    for (const auto& r : axes)
        if (r.axis == axis) return r;
    return axes[0];  // unreachable: every enumerator has a row
}

}  // namespace

std::string_view sweep_axis_name(SweepAxis axis) { return row_of(axis).name; }
char sweep_axis_letter(SweepAxis axis) { return row_of(axis).letter; }

std::optional<SweepAxis> sweep_axis_named(std::string_view name) {
    for (const auto& r : axes)
        if (r.name == name) return r.axis;
    return std::nullopt;
}

std::string sweep_point_name(std::string_view entry, SweepAxis axis, std::int64_t value) {
    return fmt::format("{}-{}{}", entry, sweep_axis_letter(axis), value);
}

std::string load_mark(std::int64_t requests, double output_spread) {
    return fmt::format("perfgate.load=requests:{},output-spread:{}", requests, output_spread);
}

std::string sweep_mark(std::string_view entry, SweepAxis axis) {
    return fmt::format("{}{}:{}", sweep_prefix, entry, sweep_axis_name(axis));
}

std::string with_mark(std::string flags, std::string_view mark) {
    if (!flags.empty()) flags += ' ';
    flags += mark;
    return flags;
}

std::optional<SweepMembership> sweep_of(std::string_view flags) {
    for (auto token : split(flags, ' ')) {
        if (token.substr(0, sweep_prefix.size()) != sweep_prefix) continue;
        token.remove_prefix(sweep_prefix.size());
        const auto colon = token.rfind(':');
        if (colon == std::string_view::npos || colon == 0) return std::nullopt;
        auto axis = sweep_axis_named(token.substr(colon + 1));
        if (!axis) return std::nullopt;
        return SweepMembership{std::string(token.substr(0, colon)), *axis};
    }
    return std::nullopt;
}

std::optional<std::int64_t> sweep_value(const ResultRow& row, SweepAxis axis) {
    switch (axis) {
    case SweepAxis::concurrency:
    case SweepAxis::batch: return row.batch;
    case SweepAxis::prompt_tokens: return row.prompt_target_len;
    case SweepAxis::generated_tokens: return row.max_tokens;
    }
    return std::nullopt;
}

}  // namespace perfgate
