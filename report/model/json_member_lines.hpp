// A large JSON file as gpunet-bench writes it (a baseline: a million figures at 1,024 hosts), read a
// line at a time: its last member is an object written one member a line,
//   {
//    "created": ...,
//    "figures": {
//     "key": {...},
//     "key2": {...}
//    }
//   }
// and each line goes through the JSON lines parser (json_lines_parser.hpp) instead of the whole text
// through parse_json_text. Any other layout, or a line that does not read, is left to parse_json_text,
// which reads every text and words every error.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/json.hpp"

namespace gpunet::report {

// Hands each member of the root's last member `name` to `member` in the order written, and returns
// the text of the rest with that object empty ("\"name\": {}"), to be read with parse_json_text.
// nullopt where `text` is laid out otherwise, a line does not read as one member, or `member` returns
// false: the caller then reads the whole text as it would without this.
std::optional<std::string> read_member_lines(std::string_view text, std::string_view name,
                                             const std::function<bool(std::string&& key, gpunet::json&& value)>& member);

}  // namespace gpunet::report
