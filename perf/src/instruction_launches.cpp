#include "instruction_launches.hpp"

#include <chrono>
#include <fmt/format.h>

#include "perfgate/core/file_read.hpp"
#include "perfgate/core/scratch_folder.hpp"
#include "perfgate/core/search_path.hpp"
#include "perfgate/perf/cachegrind.hpp"
#include "perfgate/perf/launcher.hpp"
#include "perfgate/perf/pair_runner.hpp"
#include "perfgate/perf/runtime_adapter.hpp"
#include "classify.hpp"

namespace perfgate::perf {
namespace {

using Clock = std::chrono::steady_clock;

// One counted workload: its prompt and generated token counts, and what it is for.
struct CountedWorkload {
    std::int64_t prompt_tokens, generated_tokens;
    const char* role;
};

// A cachegrind output file is about 250 KB for llama-bench (one line per function and source line
// executed); 64 MiB bounds a pathological one.
constexpr std::uint64_t kMaxCachegrindBytes = 64ull << 20;

// Why valgrind could not run the binary, when its output says: 3.19 stops at the first instruction
// its JIT does not know (AVX-512 in a -march=native build), which the runtime sees as SIGILL.
std::string valgrind_hint(const LaunchResult& run) {
    if (run.err.find("unhandled instruction bytes") == std::string::npos) return {};
    return "; valgrind does not know an instruction of this binary (AVX-512 in a -march=native build?): count a "
           "build for AVX2 (GGML_NATIVE=OFF; docs/instructions.md)";
}

LaunchStop stopped(const char* status, std::string reason) { return LaunchStop{StatusToken{status}, one_line(std::move(reason)), std::nullopt}; }

struct Counted {
    std::uint64_t instructions = 0;
    Measurement measurement;
    std::vector<std::string> args;
};

class InstructionCounter {
public:
    InstructionCounter(const InstructionPlan& plan, const ScratchFolder& scratch, std::ostream& log)
        : plan_(plan), scratch_(scratch), log_(log) {}

    std::vector<std::string> arguments(const CountedWorkload& c) const {
        return counted_arguments(plan_, c.prompt_tokens, c.generated_tokens);
    }

    std::variant<Counted, LaunchStop> count(const CountedWorkload& c, std::size_t index) {
        const SuiteRuntime& rt = plan_.runtime;
        Counted counted;
        counted.args = arguments(c);
        const auto out_file = (scratch_.path() / fmt::format("cachegrind.{}.out", index)).string();
        LaunchRequest request;
        request.program = rt.valgrind;
        request.args = cachegrind_arguments(out_file);
        // valgrind looks a bare name up on PATH itself; resolved here, as the row's command says.
        request.args.push_back(counted_binary(rt));
        request.args.insert(request.args.end(), counted.args.begin(), counted.args.end());
        request.env = rt.env;
        request.timeout = std::chrono::milliseconds(static_cast<long long>(plan_.workload.timeout_s * 1000));
        log_ << fmt::format("{}: counting instructions under cachegrind, workload {}/3 ({}: {} prompt, {} generated tokens)\n",
                            plan_.label, index + 1, c.role, c.prompt_tokens, c.generated_tokens)
             << std::flush;
        const auto start = Clock::now();
        const LaunchResult run = launch(request);
        if (!run.started)
            return stopped("FAIL:bench", fmt::format("valgrind ({}) could not be started: {} (Debian: apt-get install "
                                                     "valgrind)", rt.valgrind, run.start_error));
        const auto parsed = parse_runtime_output(rt, plan_.model, run.out, run.merged());
        const StatusToken status = classify_launch(run, parsed && parsed->decode_tok_s.has_value());
        if (!status.ok())
            return stopped(status.text.c_str(), fmt::format("{} under cachegrind ({} workload){}", describe_launch(run),
                                                            c.role, valgrind_hint(run)));
        counted.measurement = *parsed;
        auto text = read_regular_file(out_file, kMaxCachegrindBytes);
        if (!text) return stopped("FAIL:bench", "cachegrind wrote no output file: " + text.error().message);
        auto counts = parse_cachegrind_out(*text, "cachegrind output of the " + std::string(c.role) + " workload");
        if (!counts) return stopped("FAIL:bench", counts.error().message);
        const auto instructions = counts->total("Ir");
        if (!instructions) return stopped("FAIL:bench", "cachegrind counted no instructions (no Ir event)");
        counted.instructions = *instructions;
        log_ << fmt::format("{}: {} instructions ({:.1f} s under cachegrind)\n", plan_.label, counted.instructions,
                            std::chrono::duration<double>(Clock::now() - start).count());
        return counted;
    }

private:
    const InstructionPlan& plan_;
    const ScratchFolder& scratch_;
    std::ostream& log_;
};

// (more - base) / tokens, or nothing when the counts did not grow with the workload: by at least a
// thousandth of the base count, far above how well a count repeats (llama-bench's to 5e-6 over 20
// runs; a program's start-up moves by a few instructions with its arguments and environment, which
// must not pass for work per token).
std::optional<double> per_token(std::uint64_t base, std::uint64_t more, std::int64_t tokens) {
    if (tokens <= 0 || more <= base || static_cast<double>(more - base) < 1e-3 * static_cast<double>(base))
        return std::nullopt;
    return static_cast<double>(more - base) / static_cast<double>(tokens);
}

}  // namespace

std::vector<std::string> cachegrind_arguments(const std::string& out_file) {
    return {"--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=" + out_file};
}

std::string counted_binary(const SuiteRuntime& runtime) { return find_on_path(runtime.binary).value_or(runtime.binary); }

std::vector<std::string> counted_arguments(const InstructionPlan& plan, std::int64_t prompt_tokens,
                                           std::int64_t generated_tokens) {
    Workload w = plan.workload;
    w.prompt_tokens = prompt_tokens;
    w.generated_tokens = generated_tokens;
    auto args = build_arguments(plan.runtime, w, plan.model_path, plan.model.name, 1, plan.forge_spec);
    const auto& counting = adapter_of(plan.runtime).counting_flags;
    args.insert(args.end(), counting.begin(), counting.end());
    return args;
}

Expected<std::variant<InstructionReadings, LaunchStop>> run_instruction_launches(const InstructionPlan& plan,
                                                                                 std::ostream& log) {
    const std::int64_t p = plan.workload.prompt_tokens, n = plan.workload.generated_tokens;
    if (p <= 0 || n <= 0)
        return make_error(fmt::format("{}: runtime {} counts instructions per prompt and per generated token: the "
                                      "workload needs prompt_tokens and generated_tokens above 0 (it has {} and {})",
                                      plan.suite_path, plan.runtime.name, p, n));
    const CountedWorkload workloads[] = {{p, n, "base"}, {2 * p, n, "twice the prompt"}, {p, 2 * n, "twice the generation"}};
    auto scratch = ScratchFolder::make("perfgate-cachegrind");
    if (!scratch) return scratch.error();
    InstructionCounter counter(plan, *scratch, log);
    const auto base_args = counter.arguments(workloads[0]);
    if (counter.arguments(workloads[1]) == base_args || counter.arguments(workloads[2]) == base_args)
        return make_error(fmt::format(
            "{}:{}: runtime {} measures instructions by the difference of workloads, but its arguments do not change "
            "with them: give it \"args\" with {{prompt_tokens}} and {{generated_tokens}} (docs/instructions.md)",
            plan.suite_path, plan.runtime.line, plan.runtime.name));
    std::vector<Counted> counted;
    for (std::size_t i = 0; i < std::size(workloads); ++i) {
        auto result = counter.count(workloads[i], i);
        if (auto* stop = std::get_if<LaunchStop>(&result)) return std::variant<InstructionReadings, LaunchStop>(*stop);
        counted.push_back(std::get<Counted>(std::move(result)));
    }
    const auto prefill = per_token(counted[0].instructions, counted[1].instructions, p);
    const auto decode = per_token(counted[0].instructions, counted[2].instructions, n);
    if (!prefill || !decode)
        return std::variant<InstructionReadings, LaunchStop>(stopped(
            "FAIL:bench", fmt::format("the instruction counts did not grow with the workload ({} base, {} with twice the "
                                      "prompt, {} with twice the generation): no per-token figure",
                                      counted[0].instructions, counted[1].instructions, counted[2].instructions)));
    InstructionReadings readings{*prefill, *decode, counted[0].measurement};
    return std::variant<InstructionReadings, LaunchStop>(std::move(readings));
}

}  // namespace perfgate::perf
