// A launch's output read by its runtime's formats (the dispatch the pair runner uses).
#include "perfgate/perf/runtime_adapter.hpp"

namespace perfgate::perf {
namespace {

std::vector<const OutputFormat*> formats_for(const SuiteRuntime& rt) {
    // The suite validated a forced format's name against the table when it was read.
    if (rt.output)
        if (const auto* forced = find_output_format(*rt.output)) return {forced};
    std::vector<const OutputFormat*> formats;
    for (const auto& f : adapter_of(rt).formats) formats.push_back(&f);
    return formats;
}

}  // namespace

Expected<Measurement> parse_runtime_output(const SuiteRuntime& rt, const SuiteModel& model, std::string_view out,
                                           std::string_view merged) {
    const RunOutput output{out, merged, rt, model};
    std::optional<Error> first_error;
    std::optional<Measurement> partial;
    for (const OutputFormat* format : formats_for(rt)) {
        Expected<Measurement> m = format->parse(output);
        if (m && m->decode_tok_s) return m;
        if (m && !partial) partial = *m;
        if (!m && !first_error) first_error = m.error();
    }
    if (partial) return *partial;  // FAIL:no_output keeps whatever parsed
    return first_error.value_or(make_error("no output format matched"));
}

}  // namespace perfgate::perf
