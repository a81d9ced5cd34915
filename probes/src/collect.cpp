// Gathers observations: system tools looked up on PATH (each capped), files under the sysroot,
// and optionally the runtime's own report. Tool trouble becomes a warning, never an exception.
#include <cstdlib>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "perfgate/probes/runtime_query.hpp"
#include "linux_files.hpp"
#include "perfgate/probes/probe.hpp"
#include "rocm_versions.hpp"
#include "sysctl.hpp"
#include "perfgate/probes/sysroot.hpp"
#include "text.hpp"
#include "perfgate/probes/tool_runner.hpp"

namespace perfgate::probes {

namespace {
struct Context {
    const ProbeOptions& options;
    std::vector<std::string> dirs;
    Observations& obs;
    std::vector<std::string> missing;

    // Output of a tool, or nullopt with a warning (a missing tool is only listed).
    std::optional<std::string> run(const std::string& program, std::vector<std::string> args) {
        ToolCall call{program, std::move(args), {}, false, options.tool_timeout};
        auto result = run_tool(call, dirs);
        if (!result) {
            if (!find_on_path(program, dirs)) missing.push_back(program);
            else obs.warnings.push_back(result.error().message);
            return std::nullopt;
        }
        if (result->exit_code != 0)
            obs.warnings.push_back(fmt::format("{} exited with code {}", program, result->exit_code));
        return std::move(result->text);
    }
};

std::string excerpt(const std::string& text) {
    auto t = trim(text);
    if (t.size() > 120) t = t.substr(0, 120) + "...";
    return t;
}

void read_linux_files(const Sysroot& root, Observations& obs) {
    if (auto m = root.read("proc/meminfo")) obs.host_memory_bytes = parse_meminfo_total_bytes(*m);
    if (auto c = root.read("proc/cpuinfo")) obs.cpu_model = parse_cpuinfo_model(*c);
    auto os = root.read("etc/os-release");
    if (!os) os = root.read("usr/lib/os-release");
    if (os) obs.os = parse_os_release_name(*os);
    if (auto k = root.read("proc/sys/kernel/osrelease"); k && !trim(*k).empty()) obs.kernel = trim(*k);
}

// The first AMD card (vendor 0x1002) under sys/class/drm with memory files; card1 is common
// when simpledrm has taken card0.
void read_amd_sysfs(const Sysroot& root, Observations& obs) {
    static const std::regex card_re(R"(card\d+)");
    for (const auto& card : root.list("sys/class/drm", "card")) {
        if (!std::regex_match(card, card_re)) continue;
        const auto dev = "sys/class/drm/" + card + "/device/";
        const auto vendor = root.read(dev + "vendor");
        if (!vendor || parse_sysfs_number(*vendor) != 0x1002u) continue;
        if (auto v = root.read(dev + "mem_info_vram_total")) obs.sysfs_vram_bytes = parse_sysfs_number(*v);
        if (auto g = root.read(dev + "mem_info_gtt_total")) obs.sysfs_gtt_bytes = parse_sysfs_number(*g);
        if (auto id = root.read(dev + "device"))
            if (auto n = parse_sysfs_number(*id)) obs.sysfs_pci_device = static_cast<std::uint32_t>(*n);
        return;
    }
}

void read_rocm_version(const Sysroot& root, Observations& obs) {
    const char* rocm_path = std::getenv("ROCM_PATH");
    std::string base = rocm_path && *rocm_path ? std::string(rocm_path) : "/opt/rocm";
    while (!base.empty() && base.front() == '/') base.erase(0, 1);
    std::vector<std::string> candidates{base + "/.info/version"};
    for (const auto& core : root.list(base, "core")) candidates.push_back(base + "/" + core + "/.info/version");
    for (const auto& c : candidates)
        if (auto text = root.read(c))
            if (auto v = parse_rocm_version_file(*text)) { obs.rocm_version_file = v; return; }
}

void run_runtime(Context& ctx) {
    const auto& o = ctx.options;
    RuntimeReport report;
    report.kind = *o.runtime_kind;
    ToolCall call{*o.runtime_binary, {}, {}, true, o.runtime_timeout};
    // The caller looked the kind up in perf's runtime table and passes its query with its name.
    if (o.runtime_query == RuntimeQuery::none) {
        ctx.obs.warnings.push_back(fmt::format("runtime kind '{}' cannot name the device; the system tools decide",
                                               report.kind));
        return;
    }
    const bool mlxcel = o.runtime_query == RuntimeQuery::mlxcel_generate;
    if (mlxcel) {
        // A one-token run; the debug variable makes mlxcel print its kernel backend.
        call.args = {"generate", "-p", "Hello", "-n", "1"};
        if (o.runtime_model) { call.args.push_back("-m"); call.args.push_back(*o.runtime_model); }
        call.extra_env["MLXCEL_DEBUG_KERNEL_BACKEND"] = "1";
    } else {
        call.args = {"--list-devices"};
    }
    auto result = run_tool(call, ctx.dirs);
    if (!result) { ctx.obs.warnings.push_back("runtime probe: " + result.error().message); return; }
    if (result->exit_code != 0)
        ctx.obs.warnings.push_back(fmt::format("runtime probe exited with code {}: {}", result->exit_code, excerpt(result->text)));
    if (mlxcel) report.mlxcel = parse_mlxcel_backend(result->text);
    report.llama = parse_llama_cpp_devices(result->text);
    report.metal = parse_metal_init(result->text);
    ctx.obs.runtime = std::move(report);
}

void collect_linux_gpu_tools(Context& ctx, const Sysroot& root) {
    auto& obs = ctx.obs;
    if (auto out = ctx.run("rocminfo", {})) {
        obs.rocminfo = parse_rocminfo(*out);
        if (obs.rocminfo->gpus().empty())
            obs.warnings.push_back("rocminfo listed no GPU agent: " + excerpt(*out));
    }
    read_amd_sysfs(root, obs);
    const bool rocminfo_gpu = obs.rocminfo && !obs.rocminfo->gpus().empty();
    if (!rocminfo_gpu) {
        if (auto out = ctx.run("rocm-smi", {"--showproductname", "--showmeminfo", "vram", "gtt", "--json"})) {
            obs.rocm_smi = parse_rocm_smi(*out);
            if (obs.rocm_smi->cards.empty()) obs.rocm_smi.reset();
        }
    }
    const bool runtime_rocm = obs.runtime && obs.runtime->mlxcel && obs.runtime->mlxcel->backend == "rocm";
    const bool amd = rocminfo_gpu || obs.rocm_smi || obs.sysfs_pci_device || runtime_rocm;
    if (amd) {
        read_rocm_version(root, obs);
        if (auto out = ctx.run("hipconfig", {"--version"})) obs.hip_version = parse_hipconfig_version(*out);
        if (!obs.rocm_version_file)
            if (auto out = ctx.run("amd-smi", {})) obs.amd_smi = parse_amd_smi(*out);
        return;
    }
    if (auto out = ctx.run("nvidia-smi", {})) {
        obs.nvidia_table = parse_nvidia_smi(*out);
        if (auto csv = ctx.run("nvidia-smi", {nvidia_smi_csv_query, "--format=csv,noheader,nounits"}))
            obs.nvidia_csv = parse_nvidia_smi_csv(*csv);
        if (obs.nvidia_table->gpus.empty() && obs.nvidia_csv.empty())
            obs.warnings.push_back("nvidia-smi listed no GPU: " + excerpt(*out));
    }
}

void collect_macos(Context& ctx) {
    auto out = ctx.run("sysctl", {"machdep.cpu.brand_string", "hw.memsize", "kern.ostype", "kern.osproductversion", "kern.osrelease"});
    if (!out) return;
    const auto values = parse_sysctl(*out);
    const auto get = [&](const char* key) -> std::optional<std::string> {
        const auto it = values.find(key);
        return it == values.end() || it->second.empty() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto& obs = ctx.obs;
    obs.sysctl_brand = get("machdep.cpu.brand_string");
    if (auto m = get("hw.memsize")) obs.sysctl_memsize = parse_leading_uint(*m);
    if (auto t = get("kern.ostype")) obs.sysctl_os = *t + (get("kern.osproductversion") ? " " + *get("kern.osproductversion") : "");
    obs.sysctl_kernel = get("kern.osrelease");
    if (!obs.sysctl_brand && !obs.sysctl_memsize) obs.warnings.push_back("sysctl printed none of the asked keys: " + excerpt(*out));
}
}  // namespace

Observations collect_observations(const ProbeOptions& options) {
    Observations obs;
    Context ctx{options, search_path_dirs(options.search_path), obs, {}};
    const Sysroot root(options.sysroot);
    if (const char* o = std::getenv("HSA_OVERRIDE_GFX_VERSION"); o && *o) obs.hsa_override_gfx_version = o;

    if (options.runtime_kind && options.runtime_binary) run_runtime(ctx);
    else if (options.runtime_kind || options.runtime_binary)
        obs.warnings.push_back("--runtime and --runtime-binary go together; the runtime was not probed");

    // Linux is recognised by /proc/meminfo under the sysroot; otherwise ask macOS's sysctl.
    if (root.exists("proc/meminfo")) {
        read_linux_files(root, obs);
        obs.machine = read_machine_observations(root);
        collect_linux_gpu_tools(ctx, root);
    } else {
        collect_macos(ctx);
    }
    if (!ctx.missing.empty()) obs.warnings.push_back(fmt::format("not on PATH: {}", fmt::join(ctx.missing, ", ")));
    return obs;
}

}  // namespace perfgate::probes
