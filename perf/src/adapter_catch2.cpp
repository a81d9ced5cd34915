// Catch2 2.x XML reporter (-r xml): <BenchmarkResults name=".." samples=".."> with <mean value=..>
// and <standardDeviation value=..> in nanoseconds per run of the benchmark body, nested under
// <Catch>, <Group>, <TestCase> and any <Section>. Read with Boost.PropertyTree's XML parser.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <sstream>
#include <vector>

#include "adapter_util.hpp"
#include "perfgate/perf/adapters.hpp"
#include "xml_depth.hpp"

namespace perfgate::perf {
namespace {

namespace pt = boost::property_tree;

constexpr const char* kFormat = "Catch2 XML";
// Catch2 nests a benchmark four levels deep plus one per Section; far deeper is no reporter's output.
constexpr std::size_t kMaxDepth = 64;

std::optional<std::string> attribute(const pt::ptree& element, const char* name) {
    const auto value = element.get_optional<std::string>(std::string("<xmlattr>.") + name);
    return value ? std::optional(*value) : std::nullopt;
}

// Every <BenchmarkResults> element in document order, wherever it sits.
void collect_benchmarks(const pt::ptree& node, std::vector<const pt::ptree*>& out) {
    for (const auto& [name, child] : node) {
        if (name == "BenchmarkResults") out.push_back(&child);
        else if (name != "<xmlattr>") collect_benchmarks(child, out);
    }
}

// The value="" of the first child element `name`, as a number.
std::optional<double> value_of(const pt::ptree& benchmark, const char* name) {
    const auto child = benchmark.get_child_optional(name);
    if (!child) return std::nullopt;
    const auto text = attribute(*child, "value");
    return text ? detail::to_double(*text) : std::nullopt;
}

Expected<pt::ptree> parse_xml(std::string_view text) {
    if (detail::xml_depth(text) > kMaxDepth)
        return detail::no_numbers(kFormat, fmt::format("elements nested deeper than {} levels", kMaxDepth), text);
    std::istringstream in{std::string(text)};
    pt::ptree doc;
    try {
        pt::read_xml(in, doc, pt::xml_parser::no_comments);
    } catch (const pt::xml_parser_error& e) {
        return detail::no_numbers(kFormat, fmt::format("not well-formed XML (line {}: {})", e.line(), e.message()),
                                  text);
    }
    return doc;
}

}  // namespace

Expected<Measurement> parse_catch2_xml(std::string_view text, const std::string& benchmark) {
    auto doc = parse_xml(text);
    if (!doc) return doc.error();
    std::vector<const pt::ptree*> benchmarks;
    collect_benchmarks(*doc, benchmarks);
    std::vector<std::string> names;
    for (const auto* b : benchmarks) {
        const std::string name = attribute(*b, "name").value_or("");
        names.push_back(name);
        if (!benchmark.empty() && name != benchmark) continue;
        const auto mean_ns = value_of(*b, "mean");
        if (!mean_ns || *mean_ns <= 0) continue;
        Measurement m;
        m.decode_ms = *mean_ns / 1e6;
        m.decode_tok_s = 1e9 / *mean_ns;
        if (auto sd = value_of(*b, "standardDeviation")) m.decode_stddev = *sd / 1e6;  // in ms, like decode_ms
        if (auto s = attribute(*b, "samples")) m.generated_tokens = detail::to_int(*s);
        return detail::checked(kFormat, std::move(m), text);
    }
    if (names.empty()) return detail::no_numbers(kFormat, "no <BenchmarkResults> element", text);
    return make_error(fmt::format("{}: no benchmark named '{}' with a mean; found: {}", kFormat, benchmark,
                                  fmt::join(names, ", ")));
}

}  // namespace perfgate::perf
