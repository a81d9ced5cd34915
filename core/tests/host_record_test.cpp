// One type of host facts from the probe to the row (host_record.hpp): every member in the field
// table is a column of the results file, so a fact the probe finds reaches every row and back.
#include <catch2/catch.hpp>

#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <string_view>
#include <variant>

#include "perfgate/core/csv.hpp"
#include "perfgate/core/host_record.hpp"
#include "perfgate/test/files.hpp"

using namespace perfgate;

TEST_CASE("every host fact has one key and one column of the results file", "[core][host]") {
    // The header perfgate writes, split into its column names.
    std::set<std::string> columns;
    std::string line = perfgate_header_line();
    for (std::size_t start = 0, end; start <= line.size(); start = end + 1) {
        end = line.find(',', start);
        if (end == std::string::npos) end = line.size();
        columns.insert(line.substr(start, end - start));
    }
    std::set<std::string_view> keys;
    for (const auto& field : host_record_fields()) {
        INFO(field.key);
        CHECK(keys.insert(field.key).second);
        // The tag's column is "host"; every other fact keeps its name in both places.
        CHECK(columns.count(field.key == "host_tag" ? std::string("host") : std::string(field.key)) == 1);
    }
}

TEST_CASE("host facts set through the table survive a results file", "[core][host]") {
    ResultRow row;
    row.model = "m";
    row.decode_tok_s = 10.0;
    std::size_t n = 0;
    for (const auto& field : host_record_fields())
        std::visit(
            [&](auto member) {
                using Value = std::remove_reference_t<decltype(row.*member)>;
                ++n;
                if constexpr (std::is_same_v<Value, std::string>) row.*member = "fact-" + std::to_string(n);
                else if constexpr (std::is_same_v<Value, std::optional<bool>>) row.*member = true;
                else row.*member = 1000 + n;
            },
            field.member);
    test::TempDir dir("host-record");
    const auto path = dir.file("cpu_fact-3_2026-12-02.csv");
    row.date = "2026-12-02";
    REQUIRE(append_results_locked(path, {row}));
    auto file = read_results_csv(path);
    REQUIRE(file);
    REQUIRE(file->rows.size() == 1);
    const HostRecord& back = file->rows.front();
    for (const auto& field : host_record_fields())
        std::visit([&](auto member) { CHECK(back.*member == static_cast<const HostRecord&>(row).*member); },
                   field.member);
}
