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
      R"({"a": 1, "b": 2, "a": 3})",           // repeated after a later key
      R"({"z": 1, "y": {"c": 1, "b": 2, "a": 3}, "x": 3, "y": 4})",  // out of order, then repeated
      R"({"a": 1, "b": {"a": 1, "b": 2}, "c": 3})",                  // in order, as gpunet-bench writes
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

namespace {

const std::vector<HeldPath> kLinks = {{"extra", "link"}, {"extra", "dst_link"}};

// The tree with what the parser held apart put back where it was.
gpunet::json put_back(const JsonLineParsed& read) {
  gpunet::json tree = read.parsed.value;
  for (std::size_t i = 0; i < read.held.size(); ++i)
    if (read.held[i].value) tree[kLinks[i].parent][kLinks[i].key] = *read.held[i].value;
  return tree;
}

}  // namespace

TEST(JsonLinesParser, HeldObjectsLeaveTheTreeAndEqualTextsShareOneObject) {
  JsonLinesParser lines(kLinks);
  const std::string a = R"({"suite": "tcp", "extra": {"link": {"iface": "eth0", "mtu": 9000}, "dst_link": {"iface": "eth1"}, "n": 1}})";
  const std::string b = R"({"suite": "tcp", "extra": {"n": 2, "link": {"iface": "eth0", "mtu": 9000}, "dst_link": {"iface": "eth2"}}})";
  const JsonLineParsed ra = lines.parse_holding_apart(a);
  const JsonLineParsed rb = lines.parse_holding_apart(b);
  ASSERT_TRUE(ra.parsed.ok());
  ASSERT_EQ(ra.held.size(), 2u);
  EXPECT_FALSE(ra.parsed.value["extra"].contains("link"));
  EXPECT_FALSE(ra.parsed.value["extra"].contains("dst_link"));
  EXPECT_EQ(ra.parsed.value["extra"]["n"], 1);
  EXPECT_EQ(ra.held[0].value.get(), rb.held[0].value.get());  // one object for one text
  EXPECT_NE(ra.held[1].value.get(), rb.held[1].value.get());
  EXPECT_EQ(ra.held[0].text, rb.held[0].text);
  EXPECT_NE(ra.held[1].text, rb.held[1].text);
  EXPECT_EQ(put_back(ra), parse_json_text(a).value);
  EXPECT_EQ(put_back(rb), parse_json_text(b).value);

  // What is no object stays in the tree; a text parse_json_text reads holds nothing apart.
  const std::string plain = R"({"extra": {"link": "eth0"}, "link": {"iface": "eth0"}})";
  const JsonLineParsed rp = lines.parse_holding_apart(plain);
  EXPECT_FALSE(rp.held[0].value);
  EXPECT_EQ(rp.parsed.value, parse_json_text(plain).value);
  const JsonLineParsed escaped = lines.parse_holding_apart(R"({"extra": {"link": {"iface": "\u0065th0"}}})");
  EXPECT_TRUE(escaped.held.empty());
  EXPECT_EQ(escaped.parsed.value["extra"]["link"]["iface"], "eth0");
}

TEST(JsonLinesParser, AHeldKeyRepeatedIsRefusedInTheCarefulParsersWords) {
  JsonLinesParser lines(kLinks);
  for (const std::string text : {R"({"extra": {"link": {"a": 1}, "link": {"a": 1}}})", R"({"extra": {"link": 1, "link": {"a": 1}}})",
                                 R"({"extra": {"link": {"a": 1}, "link": 1}})", R"({"extra": {"link": {}}, "extra": {}})",
                                 R"({"extra": {"link": {"a": 1, "a": 2}}})", R"({"extra": {"link": {"a": 1e999}}})"}) {
    const JsonParsed careful = parse_json_text(text);
    const JsonLineParsed fast = lines.parse_holding_apart(text);
    EXPECT_FALSE(careful.ok()) << text;
    EXPECT_EQ(fast.parsed.error, careful.error) << text;
    EXPECT_EQ(fast.parsed.key_or_number_refused, careful.key_or_number_refused) << text;
  }
}
