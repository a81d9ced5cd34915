// llama-bench -o sql: any bytes end in tests or an error naming the file and a line of the input,
// never a crash; the tests that parse go the way compare, gate and report take them
// (llama_bench_rows), whose rows hold only finite, non-negative rates.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "perfgate/perf/llama_bench_tests.hpp"
#include "perfgate/perf/result_files.hpp"

using perfgate::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)perfgate::perf::starts_as_llama_bench_sql(text);
    const auto tests = perfgate::perf::parse_llama_bench_sql(text, "fuzz.sql");
    if (!tests) {
        check(perfgate::fuzz::names_file_and_line(tests.error().message, "fuzz.sql", text),
              "an error names fuzz.sql and a line of the input", tests.error().message);
        return 0;
    }
    check(!tests->empty(), "a parsed file holds a test");
    std::size_t lines = 1;
    for (char c : text) lines += c == '\n';
    for (const auto& t : *tests) check(t.line >= 1 && t.line <= lines, "a test's line is in the input");
    const auto rows = perfgate::perf::llama_bench_rows(*tests, "fuzz.sql", "h");
    if (!rows) return 0;
    for (const auto& r : *rows)
        for (const auto* v : {&r.prefill_tok_s, &r.decode_tok_s, &r.prefill_ms, &r.decode_ms})
            if (*v) check(std::isfinite(**v) && **v >= 0, "a rate or duration is finite and >= 0", std::to_string(**v));
    return 0;
}
