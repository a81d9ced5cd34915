#pragma once
// Acknowledged changes of a pair's level (docs/gate.md, "Reference"). The gate judges a run against
// a reference level that does not follow the latest runs, so a slowdown merged in small steps adds
// up instead of passing step by step. The reference moves when a change is accepted on purpose: an
// entry of thresholds/acknowledgements.json, a reviewed commit that names the pair, the metric, from
// when the new level holds, the change and why. (It also moves up by itself on a sustained
// improvement; see reference.hpp.)
//
//   {"acknowledgements": [
//     {"host": "h200", "runtime": "llama-bench", "model": "llama-3.1-8b", "metric": "decode_tok_s",
//      "from": "2026-12-02T10:15:00Z", "level": 331.2, "commit": "4f2a9c1",
//      "why": "KV cache in fp8: 4% slower decode for half the memory (PR 212)"}]}
//
// "machine" (a machine_id) narrows an entry to one machine; without it the entry holds on every
// machine of the host tag. "from" is a date (YYYY-MM-DD) or an ISO 8601 UTC time
// (YYYY-MM-DDTHH:MM:SSZ): runs recorded at or after it are at the new level. "level" and "commit"
// are optional and informational (what the level was when accepted); "why" is required.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perfgate/core/expected.hpp"

namespace perfgate::gates {

struct Acknowledgement {
    std::string host;
    std::string machine;  // empty: every machine of the host
    std::string runtime;
    std::string model;    // as written in the result rows
    std::string metric;   // a registered metric key (core/metric.hpp)
    std::string from;     // runs whose timestamp (or date) sorts at or after this are at the new level
    std::optional<double> level;
    std::string commit;
    std::string why;
    std::string source;   // "<file>:<line>" of the entry, for the reports
};

// The pair a run level belongs to, as the lookups below match it.
struct AcknowledgedPair {
    std::string host, machine, runtime, model, metric;
};

class Acknowledgements {
public:
    Acknowledgements() = default;
    explicit Acknowledgements(std::vector<Acknowledgement> entries) : entries_(std::move(entries)) {}

    // The entries that apply to `pair`, by "from", oldest first. An entry applies when host, runtime,
    // model and metric are equal and its machine is empty or equal.
    std::vector<const Acknowledgement*> of(const AcknowledgedPair& pair) const;
    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    const std::vector<Acknowledgement>& entries() const { return entries_; }

private:
    std::vector<Acknowledgement> entries_;
};

// Parses the acknowledgements file. Every problem names "<origin>:<line>": unknown keys, a missing
// field, an unregistered metric, a "from" that is neither form, a non-positive level.
Expected<Acknowledgements> parse_acknowledgements(std::string_view text, const std::string& origin);

// The file's name inside the thresholds folder (read from the same place as the thresholds: the
// base ref's tree in a pull request, so a change cannot acknowledge its own slowdown unreviewed).
inline constexpr std::string_view acknowledgements_file_name = "acknowledgements.json";

}  // namespace perfgate::gates
