// The parser of many JSON texts in a row: the lines of a results.jsonl, a million at 1,024 hosts.
// simdjson reads each text and the tree is built straight from what it read. A text it does not take
// whole as well formed goes through parse_json_text (json_parse.hpp), which gives the same tree for
// every text both take and is the one that words every error: any error simdjson finds, a key repeated
// in one object, a number outside the range a gpunet-bench file holds, nesting near the limit, and
// any \u escape (the two parsers need not agree on a lone surrogate). One per reader: not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include "report/model/json_parse.hpp"

namespace gpunet::report {

class JsonLinesParser {
 public:
  JsonLinesParser();
  ~JsonLinesParser();
  JsonLinesParser(const JsonLinesParser&) = delete;
  JsonLinesParser& operator=(const JsonLinesParser&) = delete;

  JsonParsed parse(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

 private:
  struct Reader;
  std::unique_ptr<Reader> reader_;
};

}  // namespace gpunet::report
