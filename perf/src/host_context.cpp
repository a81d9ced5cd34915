#include "perfgate/perf/host_context.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "perfgate/core/file_read.hpp"
#include "perfgate/core/file_write.hpp"
#include "perfgate/core/host_tag_rule.hpp"
#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/core/json_optional.hpp"

namespace perfgate::perf {

using nlohmann::json;

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
    for (const auto& field : host_record_fields())
        std::visit([&](auto member) { j[std::string(field.key)] = h.*member; }, field.member);
    j["usable_memory_bytes"] = h.usable_memory_bytes;
    j["memory_is_device"] = h.memory_is_device;
    j["cpu_cores"] = h.cpu_cores;
    j["date"] = h.date;
    j["run_id"] = h.run_id;
    j["replay"] = h.replay;
    if (auto st = replace_file(path.string(), j.dump(2) + "\n"); !st) return st.error();  // never half a file
    return Ok{};
}

namespace {

// Absent and null both say the fact is unknown (the writer writes an unknown fact as null).
bool known(const json& object, const std::string& key) {
    auto it = object.find(key);
    return it != object.end() && !it->is_null();
}

// Reads one host fact of `object` into `h`.
void read_host_fact(JsonFields& fields, const json& object, const HostRecordField& field, HostRecord& h) {
    const std::string key(field.key);
    if (!known(object, key)) return;
    std::visit(
        [&](auto member) {
            using Value = std::remove_reference_t<decltype(h.*member)>;
            if constexpr (std::is_same_v<Value, std::string>) {
                if (auto v = fields.string(object, "", key.c_str())) h.*member = *v;
            } else if constexpr (std::is_same_v<Value, std::optional<bool>>) {
                h.*member = fields.boolean(object, "", key.c_str());
            } else {
                h.*member = fields.unsigned_integer(object, "", key.c_str(), 0);
            }
        },
        field.member);
}

}  // namespace

Expected<HostContext> read_host_context(const std::filesystem::path& path) {
    auto text = read_regular_file(path.string());
    if (!text)
        return make_error(path.string() + ": no host facts (the perf.probe setup test writes them; run the pair "
                                          "through ctest, or pass --host-json): " + text.error().message);
    auto doc = parse_json_document(*text, path.string());
    if (!doc) return doc.error();
    const json& j = doc->value;
    if (!j.is_object()) return doc->error("", "host facts must be a JSON object");
    JsonFields fields(*doc);
    HostContext h;
    h.backend = fields.string(j, "", "backend", JsonFields::Need::required).value_or("");
    for (const auto& field : host_record_fields()) read_host_fact(fields, j, field, h);
    if (!fields.failed() && h.host.empty()) fields.fail("", "missing \"host_tag\"");
    if (known(j, "usable_memory_bytes")) h.usable_memory_bytes = fields.unsigned_integer(j, "", "usable_memory_bytes", 0);
    h.memory_is_device = fields.boolean(j, "", "memory_is_device").value_or(false);
    if (known(j, "cpu_cores"))
        if (auto cores = fields.integer(j, "", "cpu_cores", 1)) {
            if (*cores > 65536) fields.fail("/cpu_cores", "\"cpu_cores\" must be at most 65536");
            else h.cpu_cores = static_cast<int>(*cores);
        }
    h.date = fields.string(j, "", "date").value_or("");
    h.run_id = fields.string(j, "", "run_id").value_or("");
    h.replay = fields.string(j, "", "replay").value_or("");
    if (fields.failed()) return fields.error();
    if (auto bad = host_tag_problem(h.host, doc->where("/host_tag") + ": \"host_tag\"")) return make_error(*bad);
    return h;
}

}  // namespace perfgate::perf
