// The page's contention line, from cells as the contention guard writes them (the H200 page's
// cells among them) and from cells in no known format.
#include <catch2/catch.hpp>

#include "contention_summary.hpp"

using namespace perfgate::report;

TEST_CASE("contention summary: states counted, load range, others' CPU, busy names, GPU processes", "[report][contention]") {
    const std::vector<std::string> cells = {
        "idle;load1=12.33/16cpu;other_cpu=0%;gpu_procs=0",
        "idle;load1=6.70/16cpu;other_cpu=1%;busy=kcompactd0:105;gpu_procs=0",
        "unsampled",
        "idle;load1=3.46/16cpu;other_cpu=0%;gpu_procs=0",
        "",  // a skipped row of an older file: not recorded, not counted
    };
    const auto s = summarise_contention(cells);
    CHECK(s.rows == 4);
    CHECK(s.states.at("idle") == 3);
    CHECK(s.states.at("unsampled") == 1);
    CHECK(*s.load_min == Approx(3.46));
    CHECK(*s.load_max == Approx(12.33));
    CHECK(*s.other_cpu_max == Approx(1.0));
    CHECK(s.busy == std::set<std::string>{"kcompactd0"});
    CHECK(*s.gpu_procs_max == 0);
    CHECK(contention_text(s) == "4 rows: 3 idle, 1 unsampled; 1-minute load 3.46-12.33 of 16 CPUs; others used at "
                                "most 1% of the CPUs; seen busy: kcompactd0; other GPU processes: none");
}

TEST_CASE("contention summary: waits, relaunches, skips, GPU tenants and cells in no known format", "[report][contention]") {
    const auto s = summarise_contention({
        "contended:before;waited=120s;load1=3.20/2cpu;other_cpu=61%;busy=cc1plus:4321+ld:77+2more;gpu_procs=1(python3:1234)",
        "idle;relaunched;load1=0.40/2cpu;other_cpu=3%;gpu_procs=unknown",
        "off:replay",
        "none",
        "idle;load1=lots",
    });
    CHECK(s.rows == 5);
    CHECK(s.states.at("contended:before") == 1);
    CHECK(s.states.at("off:replay") == 1);
    CHECK(s.states.at("none seen") == 1);
    CHECK(s.states.at("other") == 1);
    CHECK(s.relaunched == 1);
    CHECK(s.busy == std::set<std::string>{"cc1plus", "ld"});
    CHECK(*s.gpu_procs_max == 1);
    CHECK(s.gpu_unknown);
    CHECK(*s.other_cpu_max == Approx(61));
    const auto text = contention_text(s);
    CHECK(text.rfind("5 rows: ", 0) == 0);
    CHECK(text.find("(1 relaunched once)") != std::string::npos);
    CHECK(text.find("1-minute load 0.40-3.20 of 2 CPUs") != std::string::npos);
    CHECK(text.find("other GPU processes: up to 1") != std::string::npos);
    CHECK(text.find("GPU process list unreadable in some rows") != std::string::npos);
    CHECK(text.find("not in the guard's format: idle;load1=lots") != std::string::npos);
    // Nothing recorded: no line at all (the page says "not recorded").
    CHECK(contention_text(summarise_contention({"", ""})).empty());
    CHECK(summarise_contention({"idle;load1=1/"}).unreadable.size() == 1);  // too short to be "N/Mcpu"
}
