// Machine identity (docs/probes.md, "Machine identity"): a keyed one-way id and a fingerprint of
// what decides speed, read through the sysroot. tests/data/machines/cpu-vm-ids is a constructed
// machine: its machine-id and product_uuid are invented values, not a real machine's.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "perfgate/probes/machine_identity.hpp"
#include "perfgate/probes/sysroot.hpp"
#include "perfgate/test/files.hpp"
#include "test_support.hpp"

using namespace perfgate::probes;
using namespace perfgate::probes::test;
namespace fs = std::filesystem;

namespace {
const std::string kMachineId = "5f1c0a9e2b7d4c36a8e1f09b3d6c2a71";
const std::string kProductUuid = "EC2A1B3C-4D5E-6F70-8192-A3B4C5D6E7F8";

bool is_digest(const std::string& s) { return std::regex_match(s, std::regex("[0-9a-f]{16}")); }

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// A copy of cpu-vm-ids' root in a scratch folder, to change one input at a time.
struct MachineCopy {
    perfgate::test::TempDir dir{"machine-id"};
    MachineCopy() { fs::copy(machine_dir("cpu-vm-ids") + "/root", dir.path / "root", fs::copy_options::recursive); }
    void write(const std::string& relative, const std::string& text) const {
        perfgate::test::write_file(dir.path / "root" / relative, text);
    }
    void remove(const std::string& relative) const { fs::remove(dir.path / "root" / relative); }
    HostFacts probe() const {
        auto o = machine_options("cpu-vm-ids");
        o.sysroot = (dir.path / "root").string();
        return probe_host(o);
    }
};
}  // namespace

TEST_CASE("keyed digest: 16 hex characters, the same text gives the same digest, purposes differ", "[probes][machine]") {
    const auto a = keyed_digest("machine_id", "machine-id=abc\n");
    CHECK(is_digest(a));
    CHECK(a == keyed_digest("machine_id", "machine-id=abc\n"));
    CHECK(a != keyed_digest("machine_id", "machine-id=abd\n"));
    CHECK(a != keyed_digest("machine_fingerprint", "machine-id=abc\n"));
    // RFC 4122 version 5 (SHA-1) of "machine_id\nmachine-id=abc\n" in perfgate's namespace, as any
    // other implementation computes it (Python: uuid.uuid5): f4a260ba-fe15-5b9d-8efc-01443c92b34f,
    // less the version digit 5 and the variant digit 8. A changed key or cut would move every
    // recorded machine to `new machine`.
    CHECK(a == "f4a260bafe15b9de");
}

TEST_CASE("cpu identity: the first processor's silicon lines, not its clock or per-core ids", "[probes][machine]") {
    const auto cpuinfo = perfgate::test::read_file(machine_dir("cpu-vm-ids") + "/root/proc/cpuinfo");
    const auto id = parse_cpu_identity(cpuinfo);
    std::vector<std::string> keys;
    for (const auto& [k, v] : id) keys.push_back(k);
    CHECK(keys == std::vector<std::string>{"vendor_id", "cpu family", "model", "stepping", "microcode", "flags"});
    CHECK(id[4].second == "0xa0011d1");
    // An ARM block names its part instead.
    const auto arm = parse_cpu_identity("processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n"
                                        "CPU part\t: 0xd0c\n\nprocessor\t: 1\nCPU part\t: 0xd40\n");
    REQUIRE(arm.size() == 3);
    CHECK(arm[2] == std::pair<std::string, std::string>{"CPU part", "0xd0c"});
}

TEST_CASE("the constructed VM: an id from machine-id and product_uuid, stable, and never the raw values", "[probes][machine]") {
    const auto f = probe_machine("cpu-vm-ids");
    REQUIRE(f.machine_id);
    CHECK(is_digest(*f.machine_id));
    CHECK(is_digest(f.machine_fingerprint));
    CHECK(f.machine_id_sources == std::vector<std::string>{"etc/machine-id", "dmi product_uuid"});
    const auto again = probe_machine("cpu-vm-ids");
    CHECK(again.machine_id == f.machine_id);
    CHECK(again.machine_fingerprint == f.machine_fingerprint);
    // Neither output holds a raw id, whole or as its first 8 characters (in any case).
    for (const auto& text : {to_json(f).dump(), to_summary(f)}) {
        INFO(text);
        CHECK(lower(text).find(kMachineId.substr(0, 8)) == std::string::npos);
        CHECK(lower(text).find(lower(kProductUuid).substr(0, 8)) == std::string::npos);
        CHECK(text.find(*f.machine_id) != std::string::npos);
        CHECK(text.find(f.machine_fingerprint) != std::string::npos);
    }
    CHECK(to_json(f)["machine_id"] == *f.machine_id);
    CHECK(to_summary(f).find("machine  id " + *f.machine_id) != std::string::npos);
}

TEST_CASE("different inputs, different ids, what decides speed moves the fingerprint only", "[probes][machine]") {
    const auto base = probe_machine("cpu-vm-ids");
    REQUIRE(base.machine_id);

    SECTION("another machine-id: another machine, the same kind of machine") {
        MachineCopy m;
        m.write("etc/machine-id", "0d3b9c1e7a2f4e5d8c6b1a0f9e8d7c6b\n");
        const auto f = m.probe();
        CHECK(f.machine_id != base.machine_id);
        CHECK(f.machine_fingerprint == base.machine_fingerprint);
    }
    SECTION("a cloned image shares machine-id; product_uuid tells the VMs apart") {
        MachineCopy m;
        m.write("sys/class/dmi/id/product_uuid", "EC2A1B3C-4D5E-6F70-8192-A3B4C5D6E7F9\n");
        CHECK(m.probe().machine_id != base.machine_id);
    }
    SECTION("product_uuid unreadable (not root): an id from machine-id alone, and it says so") {
        MachineCopy m;
        m.remove("sys/class/dmi/id/product_uuid");
        const auto f = m.probe();
        REQUIRE(f.machine_id);
        CHECK(f.machine_id != base.machine_id);
        CHECK(f.machine_id_sources == std::vector<std::string>{"etc/machine-id"});
    }
    SECTION("a GPU's UUID joins the id and the fingerprint") {
        MachineCopy m;
        m.write("proc/driver/nvidia/gpus/0000-01-00.0/information",
                "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9\n");
        const auto f = m.probe();
        CHECK(f.machine_id != base.machine_id);
        CHECK(f.machine_fingerprint != base.machine_fingerprint);
        CHECK(to_json(f).dump().find("0a1b2c3d") == std::string::npos);
        CHECK(f.machine_id_sources.back() == "1 GPU UUID(s)");
    }
    SECTION("a new kernel or microcode: the same machine, another fingerprint") {
        MachineCopy m;
        m.write("proc/sys/kernel/osrelease", "6.1.0-31-cloud-amd64\n");
        const auto kernel = m.probe();
        CHECK(kernel.machine_id == base.machine_id);
        CHECK(kernel.machine_fingerprint != base.machine_fingerprint);
        MachineCopy n;
        auto cpuinfo = perfgate::test::read_file(n.dir.path / "root/proc/cpuinfo");
        cpuinfo = std::regex_replace(cpuinfo, std::regex("0xa0011d1"), "0xa0011d5");
        n.write("proc/cpuinfo", cpuinfo);
        CHECK(n.probe().machine_fingerprint != base.machine_fingerprint);
    }
    SECTION("the clock of the moment is not what the machine is") {
        MachineCopy m;
        auto cpuinfo = perfgate::test::read_file(m.dir.path / "root/proc/cpuinfo");
        m.write("proc/cpuinfo", std::regex_replace(cpuinfo, std::regex("2445\\.406"), "3100.000"));
        CHECK(m.probe().machine_fingerprint == base.machine_fingerprint);
    }
    SECTION("no source readable: the id is unknown, never made up") {
        MachineCopy m;
        m.remove("etc/machine-id");
        m.remove("sys/class/dmi/id/product_uuid");
        const auto f = m.probe();
        CHECK_FALSE(f.machine_id);
        CHECK(f.machine_id_sources.empty());
        CHECK(to_json(f)["machine_id"].is_null());
        CHECK(is_digest(f.machine_fingerprint));
    }
}

TEST_CASE("every recorded machine: the same id and fingerprint on every probe", "[probes][machine][replay]") {
    for (const auto& entry : fs::directory_iterator(machine_dir(""))) {
        if (!fs::is_directory(entry.path() / "root")) continue;
        const auto name = entry.path().filename().string();
        if (name.rfind("stub-", 0) == 0) continue;  // runtimes that hang or print garbage
        INFO("machine " << name);
        const auto a = probe_machine(name), b = probe_machine(name);
        CHECK(a.machine_id == b.machine_id);
        CHECK(a.machine_fingerprint == b.machine_fingerprint);
        CHECK(is_digest(a.machine_fingerprint));
        // Only cpu-vm-ids holds an id source; the others are recorded tool outputs.
        CHECK(a.machine_id.has_value() == (name == "cpu-vm-ids"));
    }
}
