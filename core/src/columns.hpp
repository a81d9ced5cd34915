#pragma once
// One table of perfgate's columns, shared by the reader and the writer, so a column is added
// in one place. Each entry knows how to format a field from a row and parse it back.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "perfgate/core/result_row.hpp"

namespace perfgate::detail {

using StringField = std::string ResultRow::*;
using IntField = std::optional<std::int64_t> ResultRow::*;
using UintField = std::optional<std::uint64_t> ResultRow::*;
using DoubleField = std::optional<double> ResultRow::*;   // written with two decimals (mlxcel)
using PreciseField = struct Precise { std::optional<double> ResultRow::*member; };  // shortest round-trip
using SamplesField = std::vector<double> ResultRow::*;
using OptBoolField = std::optional<bool> ResultRow::*;
using BoolField = bool ResultRow::*;
struct StatusField {};

using FieldRef = std::variant<StringField, IntField, UintField, DoubleField, Precise, SamplesField,
                              OptBoolField, BoolField, StatusField>;

struct Column {
    std::string_view name;
    FieldRef field;
};

// perfgate's schema in order: mlxcel's 17 columns, the two ROCm columns, then perfgate's own.
const std::vector<Column>& schema_columns();

// Columns that older generations name differently but that mean the same field.
const Column* find_column(std::string_view header_name);

// Formats the field (empty string for an unknown value).
std::string format_field(const ResultRow& row, const FieldRef& field);

// Parses `text` into the field; on failure returns a message such as "not a number: 'abc'".
std::optional<std::string> parse_field(ResultRow& row, const FieldRef& field, std::string_view text);

}  // namespace perfgate::detail
