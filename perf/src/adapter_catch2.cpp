// Catch2 2.x XML reporter (-r xml): <BenchmarkResults name=".." samples=".."> with <mean value=..>
// and <standardDeviation value=..> in nanoseconds per run of the benchmark body.
#include <regex>

#include "adapter_util.hpp"
#include "perfgate/perf/adapters.hpp"

namespace perfgate::perf {
namespace {

std::string xml_unescape(std::string s) {
    const std::pair<const char*, const char*> entities[] = {
        {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
    for (const auto& [from, to] : entities)
        for (std::size_t pos; (pos = s.find(from)) != std::string::npos;) s.replace(pos, std::string(from).size(), to);
    return s;
}

std::optional<std::string> attribute(const std::string& tag, const std::string& name) {
    const std::regex re("\\s" + name + "=\"([^\"]*)\"");
    std::smatch m;
    if (std::regex_search(tag, m, re)) return xml_unescape(m[1].str());
    return std::nullopt;
}

}  // namespace

Expected<Measurement> parse_catch2_xml(std::string_view text_view, const std::string& benchmark) {
    const std::string text(text_view);
    static const std::regex block_re(R"re((<BenchmarkResults\b[^>]*>)([\s\S]*?)</BenchmarkResults>)re");
    static const std::regex mean_re(R"re(<mean\b[^>]*\svalue="([^"]*)")re");
    static const std::regex stddev_re(R"re(<standardDeviation\b[^>]*\svalue="([^"]*)")re");
    std::vector<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), block_re); it != std::sregex_iterator(); ++it) {
        const std::string open = (*it)[1].str();
        const std::string body = (*it)[2].str();
        const std::string name = attribute(open, "name").value_or("");
        names.push_back(name);
        if (!benchmark.empty() && name != benchmark) continue;
        std::smatch mm;
        if (!std::regex_search(body, mm, mean_re)) continue;
        const auto mean_ns = detail::to_double(mm[1].str());
        if (!mean_ns || *mean_ns <= 0) continue;
        Measurement m;
        m.decode_ms = *mean_ns / 1e6;
        m.decode_tok_s = 1e9 / *mean_ns;
        if (std::regex_search(body, mm, stddev_re))
            if (auto sd = detail::to_double(mm[1].str())) m.decode_stddev = *sd / 1e6;  // in ms, like decode_ms
        if (auto s = attribute(open, "samples")) m.generated_tokens = detail::to_int(*s);
        return detail::checked("Catch2 XML", std::move(m), text);
    }
    if (names.empty()) return detail::no_numbers("Catch2 XML", "no <BenchmarkResults> element", text);
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    return make_error("Catch2 XML: no benchmark named '" + benchmark + "' with a mean; found: " + list);
}

}  // namespace perfgate::perf
