#include "perfgate/probes/rocm_smi.hpp"

#include <regex>

#include "perfgate/core/json_input.hpp"

#include "text.hpp"

namespace perfgate::probes {

namespace {
RocmSmiCard& card_at(RocmSmiReport& report, int index) {
    for (auto& c : report.cards)
        if (c.index == index) return c;
    report.cards.push_back(RocmSmiCard{index, {}, {}, {}, {}, {}});
    return report.cards.back();
}

std::optional<std::uint32_t> parse_hex_id(const std::string& text) {
    const auto t = trim(text);
    if (t.rfind("0x", 0) != 0 && t.rfind("0X", 0) != 0) return std::nullopt;
    return parse_hex_u32(t);
}

// One key of either form; the keys are the same words in the text and the JSON output.
void apply_field(RocmSmiCard& card, const std::string& key, const std::string& value) {
    const auto lower = to_lower(key);
    if (lower == "card series" && !value.empty()) card.card_series = value;
    else if (lower == "gfx version" && !value.empty()) card.gfx_version = value;
    else if (lower == "device id" || lower == "card model") { if (auto id = parse_hex_id(value)) card.device_id = id; }
    else if (lower == "vram total memory (b)") card.vram_total_bytes = parse_leading_uint(value);
    else if (lower == "gtt total memory (b)") card.gtt_total_bytes = parse_leading_uint(value);
}

RocmSmiReport parse_json_form(const nlohmann::json& doc) {
    static const std::regex card_re(R"(card(\d+))");
    RocmSmiReport report;
    for (const auto& [name, fields] : doc.items()) {
        std::smatch m;
        if (!std::regex_match(name, m, card_re) || !fields.is_object()) continue;
        const auto index = parse_index(m[1].str());
        if (!index) continue;  // more digits than any card index
        auto& card = card_at(report, *index);
        for (const auto& [key, value] : fields.items())
            if (value.is_string()) apply_field(card, key, value.get<std::string>());
    }
    return report;
}
}  // namespace

RocmSmiReport parse_rocm_smi(std::string_view raw) {
    const auto text = strip_ansi(raw);
    if (const auto t = trim(text); !t.empty() && t.front() == '{') {
        if (const auto doc = parse_json_value(t); doc && doc->is_object()) return parse_json_form(*doc);
    }
    // "GPU[0]\t\t: VRAM Total Memory (B): 536870912"; values may be preceded by tabs.
    static const std::regex line_re(R"(^GPU\[(\d+)\]\s*:\s*([^:]+):\s*(.*)$)");
    RocmSmiReport report;
    for (const auto& line : split_lines(text)) {
        if (line.rfind("Driver version:", 0) == 0) {
            report.driver_version = trim(line.substr(15));
            continue;
        }
        std::smatch m;
        if (!std::regex_match(line, m, line_re)) continue;
        const auto index = parse_index(m[1].str());
        if (!index) continue;
        apply_field(card_at(report, *index), trim(m[2].str()), trim(m[3].str()));
    }
    return report;
}

}  // namespace perfgate::probes
