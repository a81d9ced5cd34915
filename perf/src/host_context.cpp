#include "perfgate/perf/host_context.hpp"

#include "perfgate/core/file_write.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/core/json_optional.hpp"

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include "perfgate/core/json_input.hpp"
#include <sstream>
#include <unistd.h>

namespace perfgate::perf {
namespace {

using nlohmann::json;

std::optional<std::uint64_t> get_bytes(const json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_unsigned()) return std::nullopt;
    return it->get<std::uint64_t>();
}

std::string get_text(const json& j, const char* key) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    return fmt::format("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}

std::string new_run_id() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}-{}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                       tm.tm_min, tm.tm_sec, ::getpid());
}

Status write_host_context(const std::filesystem::path& path, const HostContext& h) {
    json j;
    j["backend"] = h.backend;
    j["host_tag"] = h.host_tag;
    j["hardware"] = h.hardware;
    j["device"] = h.device;
    j["device_arch"] = h.device_arch;
    j["device_memory_bytes"] = h.device_memory_bytes;
    j["usable_memory_bytes"] = h.usable_memory_bytes;
    j["memory_is_device"] = h.memory_is_device;
    j["device_memory_source"] = h.device_memory_source;
    j["uma"] = h.uma;
    j["host_memory_bytes"] = h.host_memory_bytes;
    j["cpu_model"] = h.cpu_model;
    j["cpu_cores"] = h.cpu_cores;
    j["rocm_version"] = h.rocm_version;
    j["hip_version"] = h.hip_version;
    j["cuda_version"] = h.cuda_version;
    j["driver_version"] = h.driver_version;
    j["os"] = h.os;
    j["kernel"] = h.kernel;
    j["machine_id"] = h.machine_id;
    j["machine_fingerprint"] = h.machine_fingerprint;
    j["date"] = h.date;
    j["run_id"] = h.run_id;
    j["replay"] = h.replay;
    if (auto st = replace_file(path.string(), j.dump(2) + "\n"); !st) return st.error();  // never half a file
    return Ok{};
}

Expected<HostContext> read_host_context(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return make_error(path.string() + ": no host facts (the perf.probe setup test writes them; run the pair through ctest, or pass --host-json)");
    std::ostringstream text;
    text << in.rdbuf();
    const auto parsed = parse_json_value(text.str());
    if (!parsed || !parsed->is_object())
        return make_error(path.string() + ":1: not a JSON object" + (parsed ? "" : " (" + parsed.error().message + ")"));
    const auto& j = *parsed;
    HostContext h;
    h.backend = get_text(j, "backend");
    h.host_tag = get_text(j, "host_tag");
    if (h.backend.empty() || h.host_tag.empty())
        return make_error(path.string() + ": \"backend\" and \"host_tag\" are required");
    if (auto bad = host_tag_problem(h.host_tag, path.string() + " \"host_tag\"")) return make_error(*bad);
    h.hardware = get_text(j, "hardware");
    h.device = get_text(j, "device");
    h.device_arch = get_text(j, "device_arch");
    h.device_memory_bytes = get_bytes(j, "device_memory_bytes");
    h.usable_memory_bytes = get_bytes(j, "usable_memory_bytes");
    h.memory_is_device = j.value("memory_is_device", false);
    h.device_memory_source = get_text(j, "device_memory_source");
    if (auto it = j.find("uma"); it != j.end() && it->is_boolean()) h.uma = it->get<bool>();
    h.host_memory_bytes = get_bytes(j, "host_memory_bytes");
    h.cpu_model = get_text(j, "cpu_model");
    if (auto it = j.find("cpu_cores"); it != j.end() && it->is_number_unsigned() && it->get<std::uint64_t>() >= 1 &&
                                        it->get<std::uint64_t>() <= 65536)
        h.cpu_cores = static_cast<int>(it->get<std::uint64_t>());
    h.rocm_version = get_text(j, "rocm_version");
    h.hip_version = get_text(j, "hip_version");
    h.cuda_version = get_text(j, "cuda_version");
    h.driver_version = get_text(j, "driver_version");
    h.os = get_text(j, "os");
    h.kernel = get_text(j, "kernel");
    h.machine_id = get_text(j, "machine_id");
    h.machine_fingerprint = get_text(j, "machine_fingerprint");
    h.date = get_text(j, "date");
    h.run_id = get_text(j, "run_id");
    h.replay = get_text(j, "replay");
    return h;
}

}  // namespace perfgate::perf
