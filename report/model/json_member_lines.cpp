#include "report/model/json_member_lines.hpp"

#include "report/model/json_lines_parser.hpp"
#include "report/model/json_parse.hpp"

namespace gpunet::report {

using gpunet::json;

std::optional<std::string> read_member_lines(std::string_view text, std::string_view name,
                                             const std::function<bool(std::string&& key, json&& value)>& member) {
  // A JSON string holds no raw line break, so the first line that opens `name` at the root's indent is
  // the root's member, and each line below it is one member of it.
  const std::string open = ",\n \"" + std::string(name) + "\": {";
  const auto at = text.find(open);
  if (at == std::string_view::npos || text.substr(0, 2) != "{\n") return std::nullopt;
  std::string_view body = text.substr(at + open.size());
  constexpr std::string_view kEmptyEnd = "}\n}\n", kEnd = "\n }\n}\n";
  if (body == kEmptyEnd) return std::string(text.substr(0, at + open.size())) + std::string(kEmptyEnd);
  if (body.size() < kEnd.size() || body.substr(body.size() - kEnd.size()) != kEnd) return std::nullopt;
  body.remove_suffix(kEnd.size());
  JsonLinesParser parser;
  std::string wrapped;
  while (!body.empty()) {
    if (body.substr(0, 3) != "\n  ") return std::nullopt;
    body.remove_prefix(3);
    const auto end = body.find('\n');
    std::string_view line = body.substr(0, end);
    body.remove_prefix(line.size());
    if (!body.empty()) {
      if (line.empty() || line.back() != ',') return std::nullopt;
      line.remove_suffix(1);
    }
    wrapped.assign("{").append(line).append("}");
    JsonParsed parsed = parser.parse(wrapped, kMaxJsonDepth - 1);  // one level less than under the root
    if (!parsed.ok() || !parsed.value.is_object() || parsed.value.size() != 1) return std::nullopt;
    auto& fields = parsed.value.get_ref<json::object_t&>();
    auto node = fields.extract(fields.begin());
    if (!member(std::move(node.key()), std::move(node.mapped()))) return std::nullopt;
  }
  return std::string(text.substr(0, at + open.size())) + std::string(kEmptyEnd);
}

}  // namespace gpunet::report
