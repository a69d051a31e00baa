// The JSON-lines parser (simdjson, with parse_json_text for what it does not take): the same tree and
// the same refusals as parse_json_text, text by text, across one parser's many texts.
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/model/json_lines_parser.hpp"
#include "report/model/json_parse.hpp"
#include "tests/support/record_lines.hpp"

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

namespace {

// Written by `mpirun -np 2 gpunet-bench --suites tcp --tcp-time 0.2` on one host, over loopback: a
// provenance line, five flows, a matrix summary and a latency record, as this version writes them.
std::vector<std::string> loopback_lines() {
  std::ifstream in(std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/loopback_tcp.jsonl");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The record a reader takes from the line's tree; none where that reading refuses it.
std::optional<RecordLine> record_from_tree(JsonLinesParser& parser, const std::string& line) {
  JsonLineParsed read = parser.parse_holding_apart(line);
  if (!read.parsed.ok() || !read.parsed.value.is_object() || !read.parsed.value.contains("suite")) return std::nullopt;
  try {
    return JsonLinesParser::record_of_tree(read);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Every path to a value in `j`, containers included.
void paths_of(const gpunet::json& j, const gpunet::json::json_pointer& at, std::vector<gpunet::json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (j.is_object())
    for (const auto& [key, value] : j.items()) paths_of(value, at / key, out);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) paths_of(j[i], at / i, out);
}

}  // namespace

TEST(JsonLinesParser, ARecordAsThisVersionWritesItIsReadWithoutItsTreeAsItsTreeReadsIt) {
  JsonLinesParser direct(kLinks), tree(kLinks);
  std::size_t records = 0, flows_held_apart = 0;
  for (const std::string& line : loopback_lines()) {
    const auto want = record_from_tree(tree, line);
    const auto got = direct.parse_record(line);
    ASSERT_EQ(got.has_value(), want.has_value()) << line.substr(0, 200);
    if (!want) continue;
    ++records;
    EXPECT_TRUE(gpunet::test_support::same_record_line(*got, *want)) << line.substr(0, 200);
    const Record& r = got->record;
    flows_held_apart += r.link && r.dst_link && r.cpu && r.timeline_in_samples && !r.flow.empty();
  }
  EXPECT_EQ(records, 8u);
  EXPECT_EQ(flows_held_apart, 3u);  // the three flows that moved bytes (two more were skipped)
}

// Each value of a flow's line replaced by one of another type or range, dropped, or its key repeated:
// read without its tree, the line gives the record its tree gives, or none (then the tree's reading
// decides and words any error), never another record.
TEST(JsonLinesParser, AChangedRecordIsReadWithoutItsTreeAsItsTreeReadsItOrLeftToTheTree) {
  const auto lines = loopback_lines();
  const auto flow_line = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.find("\"kind\":\"tcp_flow\"") != std::string::npos;
  });
  ASSERT_NE(flow_line, lines.end());
  const gpunet::json flow = gpunet::json::parse(*flow_line);
  std::vector<gpunet::json::json_pointer> paths;
  paths_of(flow, gpunet::json::json_pointer(), paths);
  JsonLinesParser direct(kLinks), tree(kLinks);
  std::size_t read_directly = 0, left = 0;
  const auto check = [&](const std::string& line) {
    const auto got = direct.parse_record(line);
    if (!got) return ++left, void();
    ++read_directly;
    const auto want = record_from_tree(tree, line);
    ASSERT_TRUE(want.has_value()) << "read without its tree, refused by it: " << line.substr(0, 400);
    EXPECT_TRUE(gpunet::test_support::same_record_line(*got, *want)) << line.substr(0, 400);
  };
  const std::vector<std::string> values = {"null", R"("x")", R"("passed")", R"("tcp_flow")", R"("pair")", "0", "-1", "7",
                                           "2.5", "3.0", "1e300", "1e-300", "18446744073709551615", "2147483648",
                                           "true", "[]", "{}", "[1.5]", R"({"a": 1})", R"({"dips": []})"};
  for (const auto& path : paths) {
    for (const std::string& v : values) {
      gpunet::json changed = flow;
      changed[path] = gpunet::json::parse(v);
      check(changed.dump());
    }
    gpunet::json dropped = flow;
    if (dropped.at(path.parent_pointer()).is_object()) {
      dropped.at(path.parent_pointer()).erase(path.back());
      check(dropped.dump());
    }
  }
  for (const std::string v : {"3", "3.0", "-0.0", "0"}) {  // a timeline that is the samples in value, not in type
    gpunet::json changed = flow;
    changed["figure"]["samples"][0] = 3.0;
    changed["extra"]["timeline_Gbps"][0] = gpunet::json::parse(v);
    check(changed.dump());
  }
  for (const std::string at : {R"({)", R"("extra":{)", R"("figure":{)", R"("subject":{)", R"("parameters":{)",
                               R"("time_us":{)", R"("stability":{)", R"("tcp_info":[{)", R"("sender":{)", R"("link":{)"}) {
    const std::size_t place = flow_line->find(at);
    ASSERT_NE(place, std::string::npos) << at;
    const std::size_t after = place + at.size();
    const std::size_t key_end = flow_line->find('"', after + 1);
    const std::size_t value_end = flow_line->find_first_of(",}", flow_line->find(':', key_end));
    std::string repeated = *flow_line;  // the object's first key and value, once more at its start
    repeated.insert(after, flow_line->substr(after, value_end - after) + ",");
    check(repeated);
  }
  EXPECT_GT(read_directly, 500u);
  EXPECT_GT(left, 500u);
}
