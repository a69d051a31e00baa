// Reads a user-supplied JSON file (spec, baseline) through the bounded reader (common/input_file.hpp:
// regular files only, at most kind.max_bytes) and the bounded parser (json_parse.hpp: at most
// kMaxJsonDepth levels). Every problem becomes one Error whose message starts with the path:
// "PATH: no such file (check the path)", "PATH: not valid JSON: parse error at line 1, column 9: ...",
// "PATH: not valid JSON: spec_version: the number 1e999 is too large (...) at line 1, column 20",
// "PATH: duplicate key "bandwidth" at bandwidth (a key may appear once per object; ...)".
#pragma once

#include <string>
#include <string_view>

#include "common/json.hpp"

#include "common/input_file.hpp"
#include "common/strings.hpp"
#include "report/model/json_parse.hpp"

namespace gpunet::report {

// The tree of `text`, the contents of the file `path` (read_input_file). With `streamed`, the members
// of one object under the root are handed to it as they are read (json_parse.hpp) and the tree
// returned holds that object empty.
template <class Error>
gpunet::json json_file_text(const std::string& path, const InputKind& kind, std::string_view text,
                            const StreamedMembers* streamed = nullptr) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(path + ": the " + kind.what + " is empty (give a JSON " + kind.what + ")");
  JsonParsed parsed = streamed ? parse_json_text(text, *streamed) : parse_json_text(text);
  if (parsed.key_or_number_refused) throw Error(printable(path + ": " + parsed.error));
  if (!parsed.ok()) throw Error(printable(path + ": not valid JSON: " + parsed.error));
  return std::move(parsed.value);
}

template <class Error>
gpunet::json read_json_file(const std::string& path, const InputKind& kind, const StreamedMembers* streamed = nullptr) {
  return json_file_text<Error>(path, kind, read_input_file<Error>(path, kind), streamed);
}

}  // namespace gpunet::report
