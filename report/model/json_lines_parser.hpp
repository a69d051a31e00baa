// The parser of many JSON texts in a row: the lines of a results.jsonl, a million at 1,024 hosts.
// simdjson reads each text and the tree is built straight from what it read. A text it does not take
// whole as well formed goes through parse_json_text (json_parse.hpp), which gives the same tree for
// every text both take and is the one that words every error: any error simdjson finds, a key repeated
// in one object, a number outside the range a gpunet-bench file holds, nesting near the limit, and
// any \u escape (the two parsers need not agree on a lone surrogate). One per reader: not thread-safe.
//
// Objects a reader holds apart (a record's extra.link and extra.dst_link, the same for every flow of a
// host) can be left out of the tree: each is built once for each distinct text this parser reads and
// shared by every text that carries it.
//
// A result record's text can also be read straight into a Record, without its tree (record_dom.hpp):
// the very record the tree's reading gives, or none, where the tree's reading must decide.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/model/json_parse.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

// An object at `parent`.`key` of a text's top-level object.
struct HeldPath {
  std::string parent, key;
};

// What a text held apart at one path: its object and its text (minified; equal texts, equal objects).
struct HeldObject {
  std::shared_ptr<const gpunet::json> value;  // none: the text has no object there, or it is in the tree
  std::string text;
};

struct JsonLineParsed {
  JsonParsed parsed;
  std::vector<HeldObject> held;  // one per held path; empty where parse_json_text read the text
};

// A result record read from its text, its link facts held apart (hold_links_apart) with their texts.
struct RecordLine {
  Record record;
  std::array<std::string, 2> link_texts;  // by LinkEnd; empty where none is held
};

class JsonLinesParser {
 public:
  explicit JsonLinesParser(std::vector<HeldPath> held = {});
  ~JsonLinesParser();
  JsonLinesParser(const JsonLinesParser&) = delete;
  JsonLinesParser& operator=(const JsonLinesParser&) = delete;

  JsonParsed parse(std::string_view text, std::size_t max_depth = kMaxJsonDepth);
  // The same, with the objects at the held paths out of the tree.
  JsonLineParsed parse_holding_apart(std::string_view text, std::size_t max_depth = kMaxJsonDepth);
  // The result record the text holds, read without its tree, its link facts shared as the held objects
  // are; none where the text must be read as a tree (by parse_holding_apart).
  std::optional<RecordLine> parse_record(std::string_view text, std::size_t max_depth = kMaxJsonDepth);
  // The record of a text's tree as parse_holding_apart read it with the link paths held apart (from_json,
  // then the hold_* functions of record.hpp): what parse_record gives where it gives one. Throws
  // FieldError, or another std::exception, where the tree is no result record.
  static RecordLine record_of_tree(JsonLineParsed& read);

 private:
  struct Reader;
  std::unique_ptr<Reader> reader_;
};

}  // namespace gpunet::report
