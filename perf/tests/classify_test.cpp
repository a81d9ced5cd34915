#include <catch2/catch.hpp>
#include <csignal>

#include "classify.hpp"

using namespace perfgate::perf;

static LaunchResult exited(int code, std::string out = {}, std::string err = {}) {
    LaunchResult r;
    r.started = true;
    r.exit_code = code;
    r.out = std::move(out);
    r.err = std::move(err);
    return r;
}

TEST_CASE("the OOM message rule", "[classify]") {
    CHECK(output_reports_oom("ggml_backend_cuda_buffer_type_alloc_buffer: cudaMalloc failed: out of memory"));
    CHECK(output_reports_oom("terminate called after throwing an instance of 'std::bad_alloc'"));
    CHECK(output_reports_oom("[metal::malloc] Attempting to allocate 1 bytes which is greater than the maximum allowed buffer size"));
    CHECK(output_reports_oom("CUDA_ERROR_OUT_OF_MEMORY"));
    CHECK(output_reports_oom("Memory allocation of 123 bytes failed"));
    CHECK(output_reports_oom("FAILED TO ALLOCATE"));
    CHECK_FALSE(output_reports_oom("oom"));  // bare "oom" is deliberately not matched
    CHECK_FALSE(output_reports_oom("room for a zoom"));
    CHECK_FALSE(output_reports_oom("memory allocation of many bytes"));
}

TEST_CASE("classification order", "[classify]") {
    CHECK(classify_launch(exited(0), true).text == "ok");
    CHECK(classify_launch(exited(0), false).text == "FAIL:no_output");
    CHECK(classify_launch(exited(1, "", "error: bad model"), false).text == "FAIL:bench");
    CHECK(classify_launch(exited(1, "", "cudaMalloc failed: out of memory"), false).text == "SKIP:oom");
    CHECK(classify_launch(exited(137), false).text == "SKIP:oom");
    CHECK(classify_launch(exited(2, "out of memory"), true).text == "SKIP:oom");  // non-zero exit wins over numbers

    LaunchResult killed;
    killed.started = true;
    killed.term_signal = SIGKILL;
    CHECK(classify_launch(killed, false).text == "SKIP:oom");

    LaunchResult timeout;
    timeout.started = true;
    timeout.timed_out = true;
    timeout.term_signal = SIGKILL;
    timeout.err = "out of memory";  // never OOM on a timeout
    CHECK(classify_launch(timeout, false).text == "FAIL:timeout");

    LaunchResult segv;
    segv.started = true;
    segv.term_signal = SIGSEGV;
    CHECK(classify_launch(segv, false).text == "FAIL:bench");

    LaunchResult missing;
    CHECK(classify_launch(missing, false).text == "FAIL:bench");
}

