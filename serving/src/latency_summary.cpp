#include "perfgate/serving/latency_summary.hpp"

#include <algorithm>

#include "perfgate/core/stats.hpp"

namespace perfgate::serving {
namespace {

std::optional<Percentiles> percentiles_ms(const std::vector<double>& seconds) {
    if (seconds.empty()) return std::nullopt;
    std::vector<double> ms;
    ms.reserve(seconds.size());
    for (double s : seconds) ms.push_back(s * 1000.0);
    return Percentiles{quantile(ms, 0.50), quantile(ms, 0.90), quantile(ms, 0.99)};
}

}  // namespace

ServingSummary summarize(const LoadResult& load) {
    ServingSummary s;
    s.requests = load.records.size();
    std::vector<double> ttft, tpot, itl, e2e, beyond;
    double tokens = 0;
    for (const auto& r : load.records) {
        if (!r.ok) {
            ++s.failed;
            if (s.errors.size() < 5 && std::find(s.errors.begin(), s.errors.end(), r.error) == s.errors.end())
                s.errors.push_back(r.error);
            continue;
        }
        ttft.push_back(r.ttft_s);
        e2e.push_back(r.e2e_s);
        itl.insert(itl.end(), r.itl_s.begin(), r.itl_s.end());
        // Per request, as vLLM's benchmark: the decode time spread over the tokens after the first.
        if (r.output_tokens > 1) tpot.push_back((r.e2e_s - r.ttft_s) / static_cast<double>(r.output_tokens - 1));
        tokens += static_cast<double>(r.output_tokens);
        if (r.server) beyond.push_back(r.e2e_s - (r.server->prompt_ms + r.server->predicted_ms) / 1000.0);
    }
    s.ttft_ms = percentiles_ms(ttft);
    s.tpot_ms = percentiles_ms(tpot);
    s.itl_ms = percentiles_ms(itl);
    s.e2e_ms = percentiles_ms(e2e);
    s.beyond_server_ms = percentiles_ms(beyond);
    if (load.wall_s > 0) {
        s.output_tok_s = tokens / load.wall_s;
        s.request_s = static_cast<double>(s.requests - s.failed) / load.wall_s;
    }
    return s;
}

}  // namespace perfgate::serving
