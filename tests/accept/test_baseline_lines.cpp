// A baseline file laid out as write_baseline writes it is read a figure a line (json_member_lines.hpp):
// what such a reading hands over, the layouts it leaves to the whole-text parser, and a baseline read
// either way: the same figures and, for a broken file, the same error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "tests/support/baseline_runs.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/json_member_lines.hpp"

using namespace gpunet::report;
using gpunet::json;
using namespace gpunet::test_support;

namespace {

using Members = std::vector<std::pair<std::string, json>>;

std::optional<std::string> read_lines(const std::string& text, Members& got, bool accept = true) {
  got.clear();
  return read_member_lines(text, "m", [&](std::string&& key, json&& value) {
    got.emplace_back(std::move(key), std::move(value));
    return accept;
  });
}

// The same text in a layout the line reader leaves to the whole-text parser: a space after the first
// brace moves nothing but line 1's columns.
std::string whole_text_layout(const std::string& written) { return "{ " + written.substr(1); }

}  // namespace

TEST(BaselineLines, EachMemberOfTheLastObjectIsHandedOverInTheOrderWritten) {
  Members got;
  const std::string text = "{\n \"a\": 1,\n \"m\": {\n  \"x\": {\"v\": 1},\n  \"y\\\"q\\u00e9\": [2, \"\\n\"]\n }\n}\n";
  EXPECT_EQ(read_lines(text, got), std::optional<std::string>("{\n \"a\": 1,\n \"m\": {}\n}\n"));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].first, "x");
  EXPECT_EQ(got[0].second, json::parse(R"({"v": 1})"));
  EXPECT_EQ(got[1].first, "y\"q\xc3\xa9");
  EXPECT_EQ(got[1].second, json::parse(R"([2, "\n"])"));
  EXPECT_EQ(read_lines("{\n \"a\": 1,\n \"m\": {}\n}\n", got), std::optional<std::string>("{\n \"a\": 1,\n \"m\": {}\n}\n"));
  EXPECT_TRUE(got.empty());
}

TEST(BaselineLines, AnyOtherLayoutIsLeftToTheWholeTextParser) {
  Members got;
  for (const std::string& text : std::vector<std::string>{
           "{ \n \"a\": 1,\n \"m\": {\n  \"x\": 1\n }\n}\n",          // not "{\n"
           "{\n \"a\": 1,\n  \"m\": {\n  \"x\": 1\n }\n}\n",          // not at the root's indent
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": 1\n }\n}",              // no last line break
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": 1\n }\n}\n ",           // something after it
           "{\r\n \"a\": 1,\r\n \"m\": {\r\n  \"x\": 1\r\n }\r\n}\r\n",  // CRLF
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": 1\n  \"y\": 2\n }\n}\n",  // a comma missing
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": 1,\n  \"y\": 2,\n }\n}\n",  // one too many
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": 1, \"y\": 2\n }\n}\n",   // two on one line
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": [1,\n 2]\n }\n}\n",      // a member over two lines
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": tru\n }\n}\n",           // not JSON
           "{\n \"a\": 1,\n \"m\": {\n  \"x\": {\"k\": 1, \"k\": 2}\n }\n}\n",  // a key repeated inside
           "{\n \"a\": 1\n}\n",                                        // no such member
       })
    EXPECT_EQ(read_lines(text, got), std::nullopt) << text;
  EXPECT_EQ(read_lines("{\n \"a\": 1,\n \"m\": {\n  \"x\": 1\n }\n}\n", got, false), std::nullopt);
}

// A baseline with keys that need escapes reads the same a line at a time as through the whole text.
TEST(BaselineLines, ABaselineReadsTheSameEitherWay) {
  Baseline base = make_base(run(1));
  BaselineFigure odd = base.figures.begin()->second;
  odd.subject = "a \"quoted\" \\ host\tname";
  base.figures["tcp/x \"quoted\" \\ \xc3\xa9 \x01 end"] = odd;
  base.figures["tcp/\u2192 arrow"] = odd;
  const std::string text = baseline_text(base);
  Members got;
  ASSERT_TRUE(read_member_lines(text, "figures", [](std::string&&, json&&) { return true; }));
  ASSERT_FALSE(read_member_lines(whole_text_layout(text), "figures", [](std::string&&, json&&) { return true; }));
  EXPECT_EQ(baseline_to_json(baseline_from_text(text, "r")), baseline_to_json(base));
  EXPECT_EQ(baseline_to_json(baseline_from_text(whole_text_layout(text), "r")), baseline_to_json(base));
  EXPECT_EQ(baseline_text(baseline_from_text(text, "r")), text);
  EXPECT_TRUE(baseline_from_text(baseline_text(Baseline{}), "r").figures.empty());
}

// A broken file laid out as written says what the whole-text parser says of it, line and column too.
TEST(BaselineLines, ABrokenFileSaysWhatTheWholeTextParserSays) {
  const auto dir = std::filesystem::temp_directory_path() / ("gpunet_lines_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "base.json").string();
  const auto file_error = [&](const std::string& text) {
    std::ofstream(path, std::ios::trunc) << text;
    try {
      load_baseline(path);
    } catch (const BaselineError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string text = baseline_text(make_base(run(1)));
  const auto first = text.find("\n  \"", text.find("\"figures\": {"));
  const auto line_end = text.find('\n', first + 1);
  const std::string line = text.substr(first, line_end - first);  // "\n  "key": {...},"
  const auto replaced = [&](const std::string& from, const std::string& to) {  // the first figure's, or the header's
    std::string t = text;
    const auto at = t.find(from, from.find("gpunet_baseline") == std::string::npos ? first : 0);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? t : t.replace(at, from.size(), to);
  };
  for (const std::string& broken : std::vector<std::string>{
           replaced("\"value\":", "\"value\":\"fast\",\"v\":"),        // a figure that does not read
           replaced("\"higher_is_better\"", "\"colour\":1,\"higher_is_better\""),  // an unknown key
           text.substr(0, line_end) + line + text.substr(line_end),    // a figure twice
           replaced("\"samples\":[", "\"samples\":[tru,"),              // not JSON
           replaced("\"gpunet_baseline\": 2", "\"gpunet_baseline\": 1"),  // an older version
           replaced("\"gpunet_baseline\": 2", "\"gpunet_baseline\": 2, \"gpunet_baseline\": 2"),  // a key twice
           replaced("\"value\":", "\"value\":1e999,\"v\":"),           // a number out of range
       }) {
    const std::string said = file_error(broken);
    EXPECT_NE(said, "(no error)") << broken.substr(0, 2000);
    EXPECT_EQ(said, file_error(whole_text_layout(broken))) << broken.substr(0, 2000);
  }
  EXPECT_EQ(file_error(text), "(no error)");
  std::filesystem::remove_all(dir);
}
