#include "perfgate/gates/thresholds.hpp"

#include <fnmatch.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <nlohmann/json.hpp>
#include <span>
#include <tuple>

#include "perfgate/core/json_fields.hpp"
#include "perfgate/core/thresholds_file.hpp"
#include "perfgate/gates/calendar.hpp"

namespace perfgate::gates {
namespace {

using nlohmann::json;

bool valid_metric_name(const std::string& m) {
    if (m == "*") return true;
    if (m.empty()) return false;
    return std::all_of(m.begin(), m.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// Reads max_drop/alpha/noise from an object; other keys are checked by the caller.
Expected<ThresholdFields> read_fields(const JsonDocument& v, const json& obj, const std::string& pointer) {
    ThresholdFields f;
    struct Spec {
        const char* key;
        std::optional<double> ThresholdFields::*field;
        double lo;
        bool lo_open;
        double hi;
        const char* range;
    };
    static const Spec specs[] = {
        {"max_drop", &ThresholdFields::max_drop, 0.0, false, 1.0, "0 <= max_drop < 1 (a fraction: 0.05 = 5%)"},
        {"alpha", &ThresholdFields::alpha, 0.0, true, 0.5, "0 < alpha <= 0.5"},
        {"noise", &ThresholdFields::noise, 0.0, false, 1.0, "0 <= noise < 1 (a fraction)"},
        {"run_noise", &ThresholdFields::run_noise, 0.0, true, 1.0, "0 < run_noise < 1 (a fraction)"},
        {"ab_max_drop", &ThresholdFields::ab_max_drop, 0.0, false, 1.0, "0 <= ab_max_drop < 1 (a fraction: 0.01 = 1%)"},
    };
    for (const auto& s : specs) {
        auto it = obj.find(s.key);
        if (it == obj.end()) continue;
        const std::string p = pointer + "/" + s.key;
        JsonFields r(v);
        const auto number = r.number(obj, pointer, s.key);
        if (!number) return r.error();
        const double x = *number;
        bool ok = (s.lo_open ? x > s.lo : x >= s.lo) &&
                  (std::string_view(s.key) == "alpha" ? x <= s.hi : x < s.hi);
        if (!ok) return v.error(p, std::string("\"") + s.key + "\" = " + it->dump() + " is out of range; need " + s.range);
        f.*(s.field) = x;
    }
    return f;
}

Status check_keys(const JsonDocument& v, const json& obj, const std::string& pointer,
                  std::span<const std::string_view> allowed, std::string_view context) {
    JsonFields r(v);
    r.only_keys(obj, pointer, allowed, context);
    if (r.failed()) return r.error();
    return Ok{};
}

Status check_keys(const JsonDocument& v, const json& obj, const std::string& pointer,
                  std::initializer_list<std::string_view> allowed, std::string_view context) {
    return check_keys(v, obj, pointer, std::span<const std::string_view>(allowed.begin(), allowed.size()), context);
}

// What a value of the "calibration" object must be.
enum class CalibrationKind { text, count, fraction, positive, non_negative, count_or_null };

struct CalibrationKey {
    const char* key;
    CalibrationKind kind;
};

// The keys of the file's "calibration" object (`top_level`) or of an override's.
std::span<const CalibrationKey> calibration_keys(bool top_level) {
    using Kind = CalibrationKind;
    static const CalibrationKey top[] = {{"suite", Kind::text}, {"host_tag", Kind::text}, {"date", Kind::text},
                                         {"runs", Kind::count}, {"repetitions", Kind::count},
                                         {"target_false_alarm", Kind::fraction}, {"power", Kind::fraction},
                                         // calibrate --from-history
                                         {"method", Kind::text}, {"history_runs", Kind::count},
                                         {"min_runs", Kind::count}, {"reference_runs", Kind::count},
                                         {"metrics_calibrated", Kind::count},
                                         {"floors", Kind::text},  // "policy" or "measured" (--measured-floors)
                                         // written by calibrations before the reference level (read, unused)
                                         {"baseline_window", Kind::count}};
    static const CalibrationKey per_metric[] = {{"readings", Kind::count}, {"median", Kind::positive},
                                                {"mad", Kind::non_negative}, {"robust_cv", Kind::non_negative},
                                                {"cv", Kind::non_negative},
                                                {"min_detectable_effect", Kind::non_negative},
                                                {"single_reading_min_detectable_effect", Kind::non_negative},
                                                {"repetitions_for_5pct", Kind::count_or_null},
                                                {"repetitions_for_10pct", Kind::count_or_null},
                                                {"deepest_dip", Kind::non_negative},
                                                {"outlier_runs_left_out", Kind::count},
                                                {"runtime_prior_pairs", Kind::count}};
    if (top_level) return top;
    return per_metric;
}

Status check_calibration_value(const JsonDocument& v, const std::string& p, const std::string& key, const json& x,
                               CalibrationKind kind) {
    switch (kind) {
        case CalibrationKind::text:
            if (!x.is_string()) return v.error(p, key + " must be a string");
            break;
        case CalibrationKind::count_or_null:
            if (x.is_null()) break;
            [[fallthrough]];
        case CalibrationKind::count:
            if (!x.is_number_integer() || x.get<long long>() < 1)
                return v.error(p, key + " must be a whole number >= 1" +
                                      std::string(kind == CalibrationKind::count_or_null ? " or null" : ""));
            break;
        case CalibrationKind::fraction:
            if (!x.is_number() || !(x.get<double>() > 0 && x.get<double>() < 1))
                return v.error(p, key + " must be a number with 0 < x < 1");
            break;
        case CalibrationKind::positive:
            if (!x.is_number() || !(x.get<double>() > 0)) return v.error(p, key + " must be a number > 0");
            break;
        case CalibrationKind::non_negative:
            if (!x.is_number() || !(x.get<double>() >= 0)) return v.error(p, key + " must be a number >= 0");
            break;
    }
    return Ok{};
}

// Optional "calibration" facts written by perfgate calibrate (docs/verdict-quality.md): informational,
// never used for a verdict, but validated like the rest so a hand edit cannot smuggle in nonsense.
Status check_calibration(const JsonDocument& v, const json& obj, const std::string& pointer, bool top_level) {
    if (!obj.is_object()) return v.error(pointer, "\"calibration\" must be an object");
    const auto keys = calibration_keys(top_level);
    std::vector<std::string_view> known;
    for (const auto& k : keys) known.push_back(k.key);
    if (auto st = check_keys(v, obj, pointer, known, "\"calibration\""); !st) return st;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const auto spec = std::find_if(keys.begin(), keys.end(), [&](const CalibrationKey& k) { return it.key() == k.key; });
        if (auto st = check_calibration_value(v, json_pointer_child(pointer, it.key()), "\"" + it.key() + "\"", *it,
                                              spec->kind);
            !st)
            return st;
    }
    return Ok{};
}

Expected<MemoryBandwidth> read_memory_bandwidth(const JsonDocument& v, const json& obj) {
    const std::string p = "/memory_bandwidth";
    if (!obj.is_object())
        return v.error(p, "\"memory_bandwidth\" must be an object with bytes_per_s, source and date");
    if (auto st = check_keys(v, obj, p, {"bytes_per_s", "source", "date", "description"}, "\"memory_bandwidth\""); !st) return st.error();
    MemoryBandwidth bw;
    auto bytes = obj.find("bytes_per_s");
    if (bytes == obj.end()) return v.error(p, "\"memory_bandwidth\" needs \"bytes_per_s\" (bytes per second, e.g. 4.29e12)");
    if (!bytes->is_number() || !(bytes->get<double>() > 0) || !std::isfinite(bytes->get<double>()))
        return v.error(p + "/bytes_per_s", "\"bytes_per_s\" must be a positive number of bytes per second");
    bw.bytes_per_s = bytes->get<double>();
    for (auto [key, target, what] : {std::tuple<const char*, std::string*, const char*>{"source", &bw.source, "how it was measured"},
                                     {"date", &bw.date, "the day of the measurement, YYYY-MM-DD"}}) {
        auto f = obj.find(key);
        if (f == obj.end() || !f->is_string() || f->get<std::string>().empty())
            return v.error(f == obj.end() ? p : p + "/" + key,
                           std::string("\"memory_bandwidth\" needs \"") + key + "\" as a non-empty string (" + what + ")");
        *target = f->get<std::string>();
    }
    if (!day_number(bw.date)) return v.error(p + "/date", "\"date\" = \"" + bw.date + "\" is not a YYYY-MM-DD date");
    if (auto d = obj.find("description"); d != obj.end() && !d->is_string())
        return v.error(p + "/description", "\"description\" must be a string");
    bw.where = v.where(p);
    return bw;
}

// The "metrics" object: one rule per metric name. "*" is the fallback for metrics not named, so
// its rules come first and apply first.
Expected<std::vector<ThresholdRule>> read_metric_rules(const JsonDocument& v, const json& metrics) {
    if (!metrics.is_object()) return v.error("/metrics", "\"metrics\" must be an object of metric name -> settings");
    std::vector<ThresholdRule> wildcard, specific;
    for (auto m = metrics.begin(); m != metrics.end(); ++m) {
        const std::string p = json_pointer_child("/metrics", m.key());
        if (!valid_metric_name(m.key()))
            return v.error(p, "metric name \"" + m.key() + "\" must be \"*\" or lowercase [a-z0-9_]");
        if (!m->is_object()) return v.error(p, "settings of \"" + m.key() + "\" must be an object");
        if (auto st = check_keys(v, *m, p, {"max_drop", "alpha", "noise", "run_noise", "ab_max_drop", "description"}, p); !st) return st.error();
        auto fields = read_fields(v, *m, p);
        if (!fields) return fields.error();
        ThresholdRule rule;
        rule.metric = m.key();
        rule.fields = *fields;
        rule.where = v.where(p);
        (m.key() == "*" ? wildcard : specific).push_back(std::move(rule));
    }
    for (auto& r : specific) wildcard.push_back(std::move(r));
    return wildcard;
}

// One entry of "overrides" at `p`: globs of metric, model and runtime, and at least one setting.
Expected<ThresholdRule> read_override(const JsonDocument& v, const json& o, const std::string& p) {
    if (!o.is_object()) return v.error(p, "each override must be an object");
    if (auto st = check_keys(v, o, p, {"metric", "model", "runtime", "max_drop", "alpha", "noise", "run_noise", "ab_max_drop", "description", "calibration"}, p); !st)
        return st.error();
    if (auto c = o.find("calibration"); c != o.end())
        if (auto st = check_calibration(v, *c, p + "/calibration", false); !st) return st.error();
    ThresholdRule rule;
    for (auto [key, target] : {std::pair<const char*, std::string*>{"metric", &rule.metric},
                               {"model", &rule.model}, {"runtime", &rule.runtime}}) {
        auto f = o.find(key);
        if (f == o.end()) continue;
        if (!f->is_string() || f->get<std::string>().empty())
            return v.error(p + "/" + key, std::string("\"") + key + "\" must be a non-empty string (a glob)");
        *target = f->get<std::string>();
    }
    if (!valid_metric_name(rule.metric))
        return v.error(p + "/metric", "metric name \"" + rule.metric + "\" must be \"*\" or lowercase [a-z0-9_]");
    auto fields = read_fields(v, o, p);
    if (!fields) return fields.error();
    if (!fields->max_drop && !fields->alpha && !fields->noise && !fields->run_noise && !fields->ab_max_drop)
        return v.error(p, "override sets none of max_drop, alpha, noise, run_noise, ab_max_drop");
    rule.fields = *fields;
    rule.where = v.where(p);
    return rule;
}

Expected<std::vector<ThresholdRule>> read_overrides(const JsonDocument& v, const json& overrides) {
    if (!overrides.is_array()) return v.error("/overrides", "\"overrides\" must be an array of rules");
    std::vector<ThresholdRule> rules;
    for (std::size_t i = 0; i < overrides.size(); ++i) {
        auto rule = read_override(v, overrides[i], "/overrides/" + std::to_string(i));
        if (!rule) return rule.error();
        rules.push_back(std::move(*rule));
    }
    return rules;
}

bool glob_match(const std::string& pattern, std::string_view value) {
    if (pattern == "*") return true;
    return fnmatch(pattern.c_str(), std::string(value).c_str(), 0) == 0;
}

}  // namespace


Expected<ThresholdFile> parse_threshold_file(std::string_view text, const std::string& name) {
    auto doc = parse_json_document(text, name);
    if (!doc) return doc.error();
    return threshold_file_from(*doc);
}

Expected<ThresholdFile> threshold_file_from(const JsonDocument& v) {
    const json& doc = v.value;
    if (!doc.is_object()) return v.error("", "the thresholds file must be a JSON object");
    if (auto st = check_keys(v, doc, "", {"description", "calibration", "metrics", "overrides", "memory_bandwidth", "memory_headroom"},
                              "the thresholds file"); !st)
        return st.error();
    if (auto it = doc.find("calibration"); it != doc.end())
        if (auto st = check_calibration(v, *it, "/calibration", true); !st) return st.error();

    // The probe's setting; its rule lives with the file's reader in core.
    if (auto headroom = memory_headroom_of(v); !headroom) return headroom.error();

    ThresholdFile file;
    file.name = v.origin;
    if (auto it = doc.find("description"); it != doc.end() && !it->is_string())
        return v.error("/description", "\"description\" must be a string");
    if (auto it = doc.find("memory_bandwidth"); it != doc.end()) {
        auto bw = read_memory_bandwidth(v, *it);
        if (!bw) return bw.error();
        file.memory_bandwidth = std::move(*bw);
    }
    if (auto it = doc.find("metrics"); it != doc.end()) {
        auto rules = read_metric_rules(v, *it);
        if (!rules) return rules.error();
        file.rules = std::move(*rules);
    }
    if (auto it = doc.find("overrides"); it != doc.end()) {
        auto rules = read_overrides(v, *it);
        if (!rules) return rules.error();
        for (auto& r : *rules) file.rules.push_back(std::move(r));
    }
    return file;
}

std::string with_memory_bandwidth(std::string_view thresholds_json, const MemoryBandwidth& bandwidth) {
    auto doc = nlohmann::ordered_json::parse(thresholds_json);  // the caller's own, already valid text
    // Whole bytes per second are written as an integer (4290000000000, as the committed files have
    // it), not as nlohmann's 4290000000000.0.
    const double b = bandwidth.bytes_per_s;
    const nlohmann::ordered_json bytes = std::floor(b) == b && b >= 0 && b < 9.2e18
                                             ? nlohmann::ordered_json(static_cast<std::uint64_t>(b))
                                             : nlohmann::ordered_json(b);
    doc["memory_bandwidth"] = {{"bytes_per_s", bytes}, {"source", bandwidth.source}, {"date", bandwidth.date}};
    return doc.dump(2) + "\n";
}

ThresholdFile builtin_default_thresholds() {
    ThresholdFile f;
    f.name = "built-in defaults";
    ThresholdRule any;
    any.fields = {0.05, 0.01, 0.0, 0.05};
    any.where = "built-in";
    ThresholdRule prefill;
    prefill.metric = "prefill_tok_s";
    prefill.fields.max_drop = 0.10;
    prefill.where = "built-in";
    f.rules = {any, prefill};
    return f;
}

Threshold ThresholdSet::lookup(std::string_view metric, std::string_view model, std::string_view runtime) const {
    Threshold t;
    bool run_noise_set = false;
    std::vector<std::string> sources;
    bool run_noise_named = false;  // the value so far came from a rule that names the metric
    for (const auto& layer : layers_) {
        std::optional<double> layer_run_noise;
        bool layer_named = false;
        for (const auto& rule : layer.rules) {
            if (rule.metric != "*" && rule.metric != metric) continue;
            if (!glob_match(rule.model, model) || !glob_match(rule.runtime, runtime)) continue;
            if (rule.fields.max_drop) t.max_drop = *rule.fields.max_drop;
            if (rule.fields.alpha) t.alpha = *rule.fields.alpha;
            if (rule.fields.noise) t.noise = *rule.fields.noise;
            if (rule.fields.ab_max_drop) t.ab_max_drop = *rule.fields.ab_max_drop;
            // Within one file a later rule wins, as for the other fields: default.json's prior for
            // instruction counts (which repeat to 1e-7) replaces its "*" prior for rates.
            if (rule.fields.run_noise) {
                layer_run_noise = *rule.fields.run_noise;
                layer_named = rule.metric != "*";
            }
            sources.push_back(rule.where);
        }
        // Across files run_noise only ever widens: the fallback rule stays at least as conservative
        // as the defaults' prior, and a calibrated pair whose runs spread further raises it. A later
        // file's "*" rule does not widen a prior that a rule naming the metric set: a host's prior
        // for its rates says nothing about instruction counts.
        if (!layer_run_noise || (run_noise_named && !layer_named)) continue;
        t.run_noise = run_noise_set ? std::max(t.run_noise, *layer_run_noise) : *layer_run_noise;
        run_noise_set = true;
        run_noise_named = run_noise_named || layer_named;
    }
    t.source = fmt::format("{}", fmt::join(sources, ", "));
    return t;
}

}  // namespace perfgate::gates
