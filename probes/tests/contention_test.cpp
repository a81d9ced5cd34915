#include <catch2/catch.hpp>

#include <chrono>

#include "perfgate/probes/contention.hpp"
#include "perfgate/probes/cpu_cores.hpp"
#include "perfgate/probes/tool_runner.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;

TEST_CASE("contention_cpu: the 1-minute load and the CPU totals of /proc", "[probes][contention]") {
    CHECK(parse_loadavg_1min("3.20 2.10 1.05 5/312 4567\n").value_or(-1) == Approx(3.20));
    CHECK_FALSE(parse_loadavg_1min(""));
    CHECK_FALSE(parse_loadavg_1min("high 2.10 1.05"));

    const auto stat = parse_proc_stat("cpu  100 5 50 1000 40 3 2 1 0 0\ncpu0 50 0 25 500 20 1 1 0 0 0\n"
                                      "cpu1 50 5 25 500 20 2 1 1 0 0\nintr 5 0\nprocs_running 3\n",
                                      100.0);
    REQUIRE(stat);
    CHECK(stat->cpus == 2);
    // user + nice + system + irq + softirq + steal; idle and iowait are not busy.
    CHECK(stat->busy_s == Approx((100 + 5 + 50 + 3 + 2 + 1) / 100.0));
    CHECK_FALSE(parse_proc_stat("intr 5 0\n", 100.0));
}

TEST_CASE("contention_cpu: /proc/<pid>/stat with a name holding spaces and parentheses", "[probes][contention]") {
    auto p = parse_pid_stat("42 (tricky ) name) R 1 42 42 0 -1 4194304 99 0 0 0 250 50 0 0 20 0 1 0 1 1 1", 100.0);
    REQUIRE(p);
    CHECK(p->name == "tricky ) name");
    CHECK(p->cpu_s == Approx(3.0));
    CHECK_FALSE(parse_pid_stat("42 (short) R 1 2", 100.0));
    CHECK(p->group == 42);
    CHECK_FALSE(parse_pid_stat("no parentheses at all", 100.0));
}

TEST_CASE("contention_cpu: busy processes between two readings, excluding our own", "[probes][contention]") {
    CpuCounters before, after;
    before.processes = {{10, {"cc1plus", 5.0}}, {11, {"ld", 1.0}}, {12, {"perfgate", 0.0}}, {13, {"sleepy", 2.0}},
                        {14, {"old", 9.0}}};
    after.processes = {{10, {"cc1plus", 5.9}}, {11, {"ld", 1.4}}, {12, {"perfgate", 1.0}}, {13, {"sleepy", 2.01}},
                       {14, {"reused", 0.5}}, {15, {"new", 0.7}}};
    const auto busy = busy_processes(before, after, 1.0, 0.1, {12});
    REQUIRE(busy.size() == 2);
    CHECK(busy[0].name == "cc1plus");
    CHECK(busy[0].cpus == Approx(0.9));
    CHECK(busy[1].name == "ld");
    CHECK(busy_processes(before, after, 0.0, 0.1, {}).empty());
}

TEST_CASE("contention: a fake busy machine read through its sysroot", "[probes][contention]") {
    const Sysroot busy(machine_dir("busy-host") + "/root");
    CHECK(read_load_1min(busy).value_or(-1) == Approx(3.20));
    const auto counters = read_cpu_counters(busy);
    CHECK(counters.cpus == 2);
    REQUIRE(counters.processes.count(4321));
    CHECK(counters.processes.at(4321).name == "cc1plus");
    CHECK(counters.processes.at(4321).cpu_s > 0);

    const auto kfd = read_kfd_processes(busy);
    REQUIRE(kfd.size() == 2);
    CHECK(kfd[0].pid == 1234);
    CHECK(kfd[0].name == "python3");
    CHECK(kfd[1].pid == 777);
    CHECK(kfd[0].device_bytes == 2147483648ULL);
    CHECK(kfd[1].device_bytes == 4294967296ULL + 1048576ULL);  // its two GPUs together

    const Sysroot quiet(machine_dir("quiet-host") + "/root");
    CHECK(read_load_1min(quiet).value_or(-1) == Approx(0.05));
    CHECK(read_kfd_processes(quiet).empty());
    CHECK_FALSE(read_load_1min(Sysroot(machine_dir("busy-host") + "/no-such-root")));
}

TEST_CASE("contention_nvidia: compute apps from a fake nvidia-smi on the search path", "[probes][contention]") {
    auto apps = query_nvidia_compute_apps(split_search_path(machine_dir("busy-host") + "/bin"), std::chrono::milliseconds(2000));
    REQUIRE(apps);
    REQUIRE(apps->size() == 2);
    CHECK((*apps)[0].pid == 1234);
    CHECK((*apps)[0].name == "python3");
    CHECK((*apps)[1].name == "/opt/llama/bin/llama-bench");
    CHECK((*apps)[0].device_bytes == 2048ULL * 1024 * 1024);  // used_memory is MiB
    CHECK((*apps)[1].device_bytes == 5120ULL * 1024 * 1024);

    auto none = query_nvidia_compute_apps(split_search_path(machine_dir("quiet-host") + "/bin"), std::chrono::milliseconds(2000));
    REQUIRE(none);
    CHECK(none->empty());
    CHECK_FALSE(query_nvidia_compute_apps(split_search_path("/nonexistent"), std::chrono::milliseconds(2000)));

    CHECK(parse_compute_apps("No running processes found\n").empty());
    const auto odd = parse_compute_apps("99, a, b, c, 12\n12x, bad, 1\n");
    REQUIRE(odd.size() == 1);
    CHECK(odd[0].name == "a, b, c");
    CHECK(odd[0].device_bytes == 12ULL * 1024 * 1024);
    // A driver that cannot attribute memory prints [N/A]: the holder counts, its memory is unknown.
    const auto na = parse_compute_apps("55, python3, [N/A]\n");
    REQUIRE(na.size() == 1);
    CHECK_FALSE(na[0].device_bytes);
}

TEST_CASE("cpu_cores: physical cores from /proc/cpuinfo", "[probes][cpu]") {
    // Two hyperthreads of one core each on two cores (4 processors, 2 cores).
    const char* smt = "processor\t: 0\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nphysical id\t: 0\ncore id\t\t: 1\n\n"
                      "processor\t: 2\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 3\nphysical id\t: 0\ncore id\t\t: 1\n";
    CHECK(parse_physical_cores(smt) == 2);
    // Two packages with the same core ids are different cores.
    const char* two_sockets = "processor: 0\nphysical id: 0\ncore id: 0\n\nprocessor: 1\nphysical id: 1\ncore id: 0\n";
    CHECK(parse_physical_cores(two_sockets) == 2);
    // No topology keys (ARM): the processors.
    CHECK(parse_physical_cores("processor\t: 0\nBogoMIPS: 50\n\nprocessor\t: 1\nBogoMIPS: 50\n") == 2);
    CHECK_FALSE(parse_physical_cores("nothing useful\n"));
    CHECK(affinity_cpu_count().value_or(0) >= 1);
}

TEST_CASE("device memory of one process group: only the group's GPU holders, summed", "[probes][contention][memory]") {
    const Sysroot busy(machine_dir("busy-host") + "/root");
    CHECK(process_group_of(busy, 777) == 700);
    CHECK(process_group_of(busy, 1234) == 1234);
    CHECK_FALSE(process_group_of(busy, 999));  // gone
    const auto kfd = read_kfd_processes(busy);
    CHECK(group_device_bytes(busy, kfd, 700) == 4294967296ULL + 1048576ULL);
    CHECK(group_device_bytes(busy, kfd, 1234) == 2147483648ULL);
    // A group none of the holders is in, and a holder without a figure, give no reading, not 0.
    CHECK_FALSE(group_device_bytes(busy, kfd, 4300));
    auto unknown = kfd;
    for (auto& p : unknown) p.device_bytes.reset();
    CHECK_FALSE(group_device_bytes(busy, unknown, 700));
    // Two holders of one group add up (a runtime and the worker it started).
    std::vector<OtherProcess> two{{777, "llama-bench", 0, 100}, {4321, "cc1plus", 0, 20}};
    CHECK(group_device_bytes(busy, two, 700) == 100);  // 4321 is in group 4300
    two[1].pid = 777;
    CHECK(group_device_bytes(busy, two, 700) == 120);
}
