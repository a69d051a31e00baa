// The JSON-lines parser (simdjson, with parse_json_text for what it does not take): the same tree and
// the same refusals as parse_json_text, text by text, across one parser's many texts.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/model/json_lines_parser.hpp"
#include "report/model/json_parse.hpp"

using namespace gpunet::report;

TEST(JsonLinesParser, TheSameTreesAndRefusalsAsTheCarefulParser) {
  const std::vector<std::string> texts = {
      R"({"a": 1, "b": -2, "c": 1.5, "d": "x", "e": [true, false, null], "f": {"g": {}}})",
      R"({"big": 18446744073709551615, "bigger": 18446744073709551616, "neg": -9223372036854775808})",
      R"({"zero": 0, "negzero": -0, "float": -0.0, "exp": 1e5, "small": 2.5e-7, "pi": 3.141592653589793})",
      R"({"tiny": 1e-300})",
      R"({"huge": [1e200]})",
      R"({"overflow": 1e999})",
      R"({"escaped": "tab\there \"quoted\" back\\slash", "unicode": "\u00e9\ud83d\ude00", "lone": "\ud800"})",
      R"({"utf8": "héllo ✓", "key": 1, "key": 2})",
      R"({"nested": {"k": 1, "k": 2}})",
      R"([1, 2, {"x": [1, [2, [3]]]}])",
      R"({"a": 1} trailing)",
      R"({"a": 1)",
      R"({"a": 01})",
      "\"just a string\"",
      "  {\"spaced\" : [ 1 , 2 ] }  ",
      R"({"nan": NaN})",
      "{\"ctl\": \"a\x01b\"}",
      "{\"bad_utf8\": \"\xff\xfe\"}",
  };
  std::string deep;
  for (int i = 0; i < 80; ++i) deep += "[";
  for (int i = 0; i < 80; ++i) deep += "]";
  std::string edge;  // as deep as the limit allows, and one deeper
  for (std::size_t depth : {kMaxJsonDepth, kMaxJsonDepth + 1}) {
    edge.assign(depth, '[');
    edge.append(depth, ']');
    const JsonParsed careful = parse_json_text(edge);
    JsonLinesParser lines;
    const JsonParsed fast = lines.parse(edge);
    EXPECT_EQ(fast.ok(), careful.ok()) << depth;
    EXPECT_EQ(fast.error, careful.error) << depth;
  }
  JsonLinesParser lines;  // one parser for every text, as a reader uses it
  for (const auto& text : texts) {
    const JsonParsed careful = parse_json_text(text);
    const JsonParsed fast = lines.parse(text);
    EXPECT_EQ(fast.ok(), careful.ok()) << text;
    EXPECT_EQ(fast.error, careful.error) << text;
    EXPECT_EQ(fast.key_or_number_refused, careful.key_or_number_refused) << text;
    EXPECT_EQ(fast.value.dump(), careful.value.dump()) << text;
    if (careful.ok()) {
      EXPECT_EQ(fast.value, careful.value) << text;
    }
  }
  EXPECT_FALSE(lines.parse(deep).ok());
}
