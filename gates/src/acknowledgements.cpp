#include "perfgate/gates/acknowledgements.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/json_input.hpp"
#include "perfgate/core/metric.hpp"

namespace perfgate::gates {
namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n) {
    if (s.size() < at + n) return false;
    return std::all_of(s.begin() + static_cast<long>(at), s.begin() + static_cast<long>(at + n),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

// YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ: the two forms result rows carry (date, timestamp), so a
// plain string comparison orders an entry among the runs.
bool valid_from(std::string_view s) {
    const bool date = s.size() >= 10 && digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 2) && s[7] == '-' && digits(s, 8, 2);
    if (!date) return false;
    if (s.size() == 10) return true;
    return s.size() == 20 && s[10] == 'T' && digits(s, 11, 2) && s[13] == ':' && digits(s, 14, 2) && s[16] == ':' &&
           digits(s, 17, 2) && s[19] == 'Z';
}

std::optional<Acknowledgement> read_entry(const JsonDocument& doc, JsonFields& r, const nlohmann::json& e,
                                          const std::string& at) {
    if (!e.is_object()) {
        r.fail(at, "an acknowledgement must be an object");
        return std::nullopt;
    }
    r.only_keys(e, at, {"host", "machine", "runtime", "model", "metric", "from", "level", "commit", "why"},
                "an acknowledgement");
    using Need = JsonFields::Need;
    Acknowledgement a;
    a.host = r.string(e, at, "host", Need::required).value_or("");
    a.machine = r.string(e, at, "machine").value_or("");
    a.runtime = r.string(e, at, "runtime", Need::required).value_or("");
    a.model = r.string(e, at, "model", Need::required).value_or("");
    a.metric = r.string(e, at, "metric", Need::required).value_or("");
    a.from = r.string(e, at, "from", Need::required).value_or("");
    a.level = r.number(e, at, "level");
    a.commit = r.string(e, at, "commit").value_or("");
    a.why = r.string(e, at, "why", Need::required).value_or("");
    if (r.failed()) return std::nullopt;
    if (!find_metric(a.metric))
        r.fail(json_pointer_child(at, "metric"),
               fmt::format("\"metric\" = \"{}\" is not a registered metric ({})", a.metric,
                           fmt::join(registered_metric_keys(), ", ")));
    else if (!valid_from(a.from))
        r.fail(json_pointer_child(at, "from"),
               fmt::format("\"from\" = \"{}\" is neither a date (YYYY-MM-DD) nor a UTC time (YYYY-MM-DDTHH:MM:SSZ)", a.from));
    else if (a.level && !(*a.level > 0))
        r.fail(json_pointer_child(at, "level"), "\"level\" must be a positive reading of the metric");
    else if (a.why.find_first_not_of(" \t") == std::string::npos)
        r.fail(json_pointer_child(at, "why"), "\"why\" must say why the change is accepted");
    else if (a.host.empty() || a.runtime.empty() || a.model.empty())
        r.fail(at, "\"host\", \"runtime\" and \"model\" must not be empty");
    if (r.failed()) return std::nullopt;
    a.source = doc.where(at);
    return a;
}

}  // namespace

std::vector<const Acknowledgement*> Acknowledgements::of(const AcknowledgedPair& pair) const {
    std::vector<const Acknowledgement*> out;
    for (const auto& a : entries_)
        if (a.host == pair.host && a.runtime == pair.runtime && a.model == pair.model && a.metric == pair.metric &&
            (a.machine.empty() || a.machine == pair.machine))
            out.push_back(&a);
    std::stable_sort(out.begin(), out.end(), [](const auto* x, const auto* y) { return x->from < y->from; });
    return out;
}

Expected<Acknowledgements> parse_acknowledgements(std::string_view text, const std::string& origin) {
    auto doc = parse_json_document(text, origin);
    if (!doc) return doc.error();
    const nlohmann::json& v = doc->value;
    if (!v.is_object()) return doc->error("", "the acknowledgements file must be a JSON object");
    JsonFields r(*doc);
    r.only_keys(v, "", {"description", "acknowledgements"}, "the acknowledgements file");
    if (r.failed()) return r.error();
    auto list = v.find("acknowledgements");
    if (list == v.end() || !list->is_array())
        return doc->error("", "the acknowledgements file needs an array \"acknowledgements\"");
    std::vector<Acknowledgement> entries;
    for (std::size_t i = 0; i < list->size(); ++i) {
        auto a = read_entry(*doc, r, (*list)[i], "/acknowledgements/" + std::to_string(i));
        if (!a) return r.error();
        entries.push_back(std::move(*a));
    }
    return Acknowledgements(std::move(entries));
}

}  // namespace perfgate::gates
