// JSON text from a user-supplied file into a tree, with bounds: nesting deeper than kMaxJsonDepth is
// refused (the renderers and nlohmann's serializer recurse once per level), a key repeated in one
// object is refused (json_unique_keys.hpp), and every problem (syntax, a number out of range, too deep,
// a duplicate key) is one line naming the line, column and field.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "common/json.hpp"

namespace gpunet::report {

// No file this program reads or writes nests more than a dozen levels.
inline constexpr std::size_t kMaxJsonDepth = 64;

struct JsonParsed {
  gpunet::json value;
  std::string error;  // empty when the text parsed; else one line, e.g. "line 3, column 9: nic.count: ..."
  bool key_or_number_refused = false;  // a key repeated in one object or a number out of range (json_unique_keys.hpp)
  bool ok() const { return error.empty(); }
};

JsonParsed parse_json_text(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

// The members of one object under the root ("figures" of a baseline: a million at 1,024 hosts), handed
// over one at a time as each is read and never kept in the tree: the tree holds that object empty.
// Only members that are objects or arrays are handed over; a scalar member stays in the tree.
struct StreamedMembers {
  std::string under;  // the root's key whose object's members are streamed
  std::function<void(const std::string& key, gpunet::json value)> take;
};
JsonParsed parse_json_text(std::string_view text, const StreamedMembers& streamed, std::size_t max_depth = kMaxJsonDepth);

// One line for a parse error reported by nlohmann's SAX interface at byte `position` of `text`;
// `field` (may be empty) names where in the document it happened.
std::string describe_json_error(std::string_view text, std::size_t position, const nlohmann::detail::exception& e,
                                const std::string& field);

// The message for a container opened past max_depth at `field`.
std::string too_deep_message(const std::string& field, std::size_t max_depth);

}  // namespace gpunet::report
