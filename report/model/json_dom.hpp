// simdjson's DOM into gpunet::json: what the JSON-lines parser (json_lines_parser.hpp) and the record
// reader beside it (record_dom.hpp) build their values with. Internal to report/model: it is the one
// place besides them that sees simdjson.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include <simdjson.h>

#include "common/json.hpp"

namespace gpunet::report {

// Whether a number is one a gpunet-bench file may hold (kSmallestFileNumber, kLargestFileNumber).
bool in_file_range(double v);

// Adds key: value to an object's fields, at the end in one comparison where the keys come sorted (as
// gpunet-bench writes them), else where it sorts. False for a repeated key: parse_json_text words it.
bool add_json_field(gpunet::json::object_t& fields, std::string_view key, gpunet::json&& value);

// The tree of a well-formed element at `depth`, as nlohmann's parser builds it (a non-negative integer
// is unsigned); nullopt where parse_json_text must decide: a repeated key, a number out of range, too deep.
std::optional<gpunet::json> json_tree_of(simdjson::dom::element e, std::size_t depth, std::size_t max_depth);

}  // namespace gpunet::report
