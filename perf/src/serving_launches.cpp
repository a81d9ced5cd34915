#include "serving_launches.hpp"

#include <fmt/format.h>

#include "perfgate/core/measure_rules.hpp"
#include "perfgate/core/stats.hpp"
#include "perfgate/serving/server_address.hpp"
#include "perfgate/serving/server_process.hpp"

namespace perfgate::perf {
namespace {

LaunchStop stop(const char* status, std::string reason) { return LaunchStop{StatusToken{status}, one_line(std::move(reason)), std::nullopt}; }

serving::ServerLaunch server_launch(const LaunchPlan& plan) {
    serving::ServerLaunch launch;
    launch.program = plan.runtime.binary;
    launch.args = plan.args;
    launch.env = plan.runtime.env;
    launch.health_path = plan.runtime.serving.health_path;
    // Loading the model is part of the start-up; the workload's per-run limit bounds it.
    launch.startup_timeout = std::chrono::milliseconds(static_cast<long long>(plan.workload.timeout_s * 1000));
    return launch;
}

serving::LoadOptions load_options(const LaunchPlan& plan, std::uint16_t port) {
    serving::LoadOptions o;
    o.port = port;
    o.path = plan.runtime.serving.endpoint;
    o.model = plan.model.name;
    o.concurrency = static_cast<std::size_t>(plan.runtime.serving.concurrency);
    o.request_timeout = std::chrono::milliseconds(static_cast<long long>(plan.workload.timeout_s * 1000));
    return o;
}

// One pass over the request set; a pass in which a request failed stops the pair (its figures
// would leave the failed requests out and look faster).
std::variant<serving::ServingSummary, LaunchStop> one_pass(const serving::LoadOptions& options,
                                                           const std::vector<serving::CompletionRequest>& requests,
                                                           double& client_cpu_s) {
    auto load = serving::run_load(options, requests);
    if (!load) return stop("FAIL:bench", load.error().message);
    client_cpu_s += load->client_cpu_s;
    auto summary = serving::summarize(*load);
    if (summary.failed > 0)
        return stop("FAIL:requests", fmt::format("{} of {} requests failed: {}", summary.failed, summary.requests,
                                                 fmt::join(summary.errors, "; ")));
    return summary;
}

// The server of the pair, ready: started here, or one that is already running (a "url"), which
// is only waited for until healthy; `running` holds a started server until the pair ends.
std::variant<serving::ServerAddress, LaunchStop> ready_server(const LaunchPlan& plan, ContentionGuard& guard,
                                                              std::unique_ptr<serving::RunningServer>& running) {
    const auto& url = plan.runtime.serving.url;
    const std::chrono::milliseconds bound(static_cast<long long>(plan.workload.timeout_s * 1000));
    if (!url.empty()) {
        auto address = serving::parse_server_url(url);  // checked when the suite was read
        if (!address) return stop("FAIL:bench", address.error().message);
        if (auto ready = serving::wait_until_healthy(*address, plan.runtime.serving.health_path, bound); !ready)
            return stop("FAIL:bench", ready.error().message);
        return *address;
    }
    auto server = serving::start_server(server_launch(plan));
    if (!server) return stop("FAIL:bench", server.error().message);
    running = std::move(*server);
    // The server runs through every pass without being waited for: its CPU is the pair's own.
    guard.count_group_as_own(running->process_group());
    return serving::ServerAddress{"127.0.0.1", running->port()};
}

}  // namespace

std::variant<ServingReadings, LaunchStop> run_serving(const LaunchPlan& plan, ContentionGuard& guard, std::ostream& log) {
    const Workload& w = plan.workload;
    if (!guard.wait_until_quiet(log, plan.label)) return stop(StatusToken::contended, guard.reason());
    std::unique_ptr<serving::RunningServer> running;
    auto server = ready_server(plan, guard, running);
    if (auto* stopped = std::get_if<LaunchStop>(&server)) return *stopped;
    const auto& address = std::get<serving::ServerAddress>(server);
    auto options = load_options(plan, address.port);
    options.host = address.host;
    const auto count = static_cast<std::size_t>(plan.runtime.serving.requests);
    log << fmt::format("{}: server ready at {}:{}{}; {} requests per pass at concurrency {}\n", plan.label, address.host,
                       options.port, running ? "" : " (already running: not started by perfgate)", count,
                       options.concurrency);
    ServingReadings readings;
    double client_cpu_s = 0;
    for (std::int64_t i = 0; i < w.warmup + w.repetitions; ++i) {
        const bool warmup = i < w.warmup;
        // Each pass its own prompts (the same lengths, another seed): a server that caches prompts
        // (llama-server's slots, vLLM's prefix cache) would answer a repeated pass from its cache,
        // and its TTFT would drop tenfold after the warmup (measured: 99.9 ms, then 5.5-11.4 ms).
        const auto requests = serving::synthetic_requests(count, w.prompt_tokens, w.generated_tokens, 28 + static_cast<std::uint64_t>(i),
                                                          serving_output_spread);
        guard.launch_starting();
        auto pass = one_pass(options, requests, client_cpu_s);
        if (auto* stopped = std::get_if<LaunchStop>(&pass)) return *stopped;
        if (!guard.launch_finished(log, plan.label)) return stop(StatusToken::contended, guard.reason());
        const auto& s = std::get<serving::ServingSummary>(pass);
        // The same plausibility as a rate read off a runtime's output (issue 48 item 14): a server
        // whose usage claimed 9e18 tokens made 6.99e21 tok/s a row, later a baseline.
        if (auto why = implausible_rate(s.output_tok_s))
            return stop("FAIL:bench", fmt::format("pass {}: output {:g} tok/s is no reading ({}); the server's "
                                                  "usage.completion_tokens is not what it streamed",
                                                  i + 1, s.output_tok_s, *why));
        log << fmt::format("{}: {} {}: {:.1f} output tok/s, TTFT p50 {:.1f} ms, ITL p50 {:.2f} ms\n", plan.label,
                           warmup ? "warmup" : "pass", warmup ? i + 1 : i - w.warmup + 1, s.output_tok_s,
                           s.ttft_ms ? s.ttft_ms->p50 : 0.0, s.itl_ms ? s.itl_ms->p50 : 0.0);
        if (!warmup) readings.repetitions.push_back(s);
    }
    if (running) running->stop();
    const auto passes = static_cast<double>(w.warmup + w.repetitions) * static_cast<double>(count);
    readings.client_cpu_s_per_request = passes > 0 ? client_cpu_s / passes : 0;
    std::vector<double> beyond;
    for (const auto& r : readings.repetitions)
        if (r.beyond_server_ms) beyond.push_back(r.beyond_server_ms->p50);
    if (!beyond.empty()) readings.beyond_server_ms = median(beyond);
    return readings;
}

void apply_serving_readings(ResultRow& row, const ServingReadings& readings) {
    const auto set = [&](std::optional<double>& value, std::vector<double>& samples, auto figure) {
        samples.clear();
        for (const auto& s : readings.repetitions)
            if (auto v = figure(s)) samples.push_back(*v);
        value = samples.empty() ? std::nullopt : std::optional<double>(median(samples));
    };
    using S = serving::ServingSummary;
    set(row.serving_output_tok_s, row.serving_output_tok_s_samples, [](const S& s) { return std::optional(s.output_tok_s); });
    set(row.serving_request_s, row.serving_request_s_samples, [](const S& s) { return std::optional(s.request_s); });
    set(row.ttft_p50_ms, row.ttft_p50_ms_samples, [](const S& s) { return s.ttft_ms ? std::optional(s.ttft_ms->p50) : std::nullopt; });
    set(row.ttft_p99_ms, row.ttft_p99_ms_samples, [](const S& s) { return s.ttft_ms ? std::optional(s.ttft_ms->p99) : std::nullopt; });
    set(row.tpot_p50_ms, row.tpot_p50_ms_samples, [](const S& s) { return s.tpot_ms ? std::optional(s.tpot_ms->p50) : std::nullopt; });
    set(row.tpot_p99_ms, row.tpot_p99_ms_samples, [](const S& s) { return s.tpot_ms ? std::optional(s.tpot_ms->p99) : std::nullopt; });
    set(row.itl_p50_ms, row.itl_p50_ms_samples, [](const S& s) { return s.itl_ms ? std::optional(s.itl_ms->p50) : std::nullopt; });
    set(row.itl_p99_ms, row.itl_p99_ms_samples, [](const S& s) { return s.itl_ms ? std::optional(s.itl_ms->p99) : std::nullopt; });
}

}  // namespace perfgate::perf
