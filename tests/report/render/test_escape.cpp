// Hostile strings (host names, interfaces, reasons) stay text in every output format.
#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "common/json.hpp"
#include "gpunet/build_config.h"
#include "report/analysis/analysis.hpp"
#include "report/text/escape.hpp"
#include "report/render/outputs.hpp"
#include "report/render/renderers.hpp"

using namespace gpunet::report;

namespace {

Report hostile_report() {
  auto loaded = load_results(std::string(GPUNET_SOURCE_DIR) + "/tests/data/report/hostile.json");
  EXPECT_TRUE(loaded.report.has_value()) << loaded.error;
  Report rep = loaded.report.value_or(Report{});
  analyze(rep);
  return rep;
}

// Pipes in a Markdown line that are not escaped with a backslash.
size_t bare_pipes(const std::string& line) {
  size_t n = 0;
  for (size_t i = 0; i < line.size(); ++i)
    if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
  return n;
}

}  // namespace

TEST(Escape, Html) {
  EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape("a&b\"c'd"), "a&amp;b&quot;c&#39;d");
}

TEST(Escape, Markdown) {
  EXPECT_EQ(md_escape("a|b`c`"), "a\\|b\\`c\\`");
  EXPECT_EQ(md_escape("<script>"), "\\<script>");
  EXPECT_EQ(md_escape("reduce_scatter _x_ *y* [l](u)"), "reduce_scatter \\_x\\_ \\*y\\* \\[l\\](u)");
  EXPECT_EQ(md_escape("two\nlines\r\tend"), "two lines  end");
  EXPECT_EQ(md_escape("a\\|b"), "a\\\\\\|b");  // a backslash cannot un-escape the pipe
}

TEST(Escape, XmlAndCsv) {
  EXPECT_EQ(xml_escape("<a b=\"c\" d='e'>&\x01"), "&lt;a b=&quot;c&quot; d=&apos;e&apos;&gt;&amp;?");
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\"\n"), "\"say \"\"hi\"\"\n\"");
  EXPECT_EQ(csv_field("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
}

TEST(Escape, HtmlReportCarriesNoHostileMarkup) {
  const std::string html = render_html(hostile_report());
  std::string lower = html;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_EQ(lower.find("<img"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&lt;/td&gt;&lt;/tr&gt;&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
  // Every tag in the page is one the renderer writes.
  const std::set<std::string> allowed{"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4",
                                      "p", "main", "table", "tr", "th", "td", "ul", "li", "b", "div", "svg", "rect",
                                      "line", "text", "polyline", "polygon", "circle", "details", "summary", "a", "ol", "section"};
  for (size_t i = html.find('<'); i != std::string::npos; i = html.find('<', i + 1)) {
    size_t j = i + 1;
    while (j < html.size() && std::isalnum(static_cast<unsigned char>(html[j]))) ++j;
    const std::string name = html.substr(i + 1, j - i - 1);
    if (!name.empty()) {
      EXPECT_TRUE(allowed.count(name)) << "unexpected tag <" << name;
    }
  }
}

TEST(Escape, MarkdownTablesKeepTheirColumns) {
  const std::string md = render_markdown(hostile_report());
  for (size_t i = md.find('<'); i != std::string::npos; i = md.find('<', i + 1)) {
    EXPECT_TRUE(i > 0 && md[i - 1] == '\\') << "a '<' not escaped at: " << md.substr(i, 40);
  }
  EXPECT_NE(md.find("\\<script>alert(1)\\</script>"), std::string::npos);
  std::istringstream in(md);
  std::string line;
  size_t header_pipes = 0, tables = 0;
  for (bool in_table = false; std::getline(in, line);) {
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '`') {
        EXPECT_TRUE(i > 0 && line[i - 1] == '\\') << "bare backtick in: " << line;
      }
    if (line.rfind("|", 0) != 0) {
      in_table = false;
      continue;
    }
    if (!in_table) {
      header_pipes = bare_pipes(line);
      in_table = true;
      ++tables;
    }
    EXPECT_EQ(bare_pipes(line), header_pipes) << "a cell broke out of its column: " << line;
  }
  EXPECT_GE(tables, 4u);
}

TEST(Escape, JunitAndCsvAndJson) {
  Report rep = hostile_report();
  const std::string xml = render_junit(rep);
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
  EXPECT_NE(xml.find("&lt;script&gt;"), std::string::npos);
  const std::string csv = render_csv(rep);
  EXPECT_NE(csv.find("float|`f`"), std::string::npos);  // CSV needs no quoting for these
  rep.results[0].host = std::string("bad\xff\xfe utf8");
  const std::string js = render_json(rep);  // invalid UTF-8 is replaced, not fatal
  EXPECT_NE(js.find("bad\xef\xbf\xbd"), std::string::npos);
}

// A JSON string is the text json(s).dump() writes, whether it takes the plain-ASCII path or the escaper;
// invalid UTF-8 is refused as a strict dump refuses it, or replaced as a replacing one replaces it.
TEST(Escape, JsonStringIsWhatTheTreeWrites) {
  for (const std::string& s : {std::string(""), std::string("gpu-0001 -> gpu-0002"), std::string("a\"b\\c"),
                              std::string("tab\there"), std::string("h\xc3\xa9te \xe2\x86\x92"), std::string("del\x7f"),
                              std::string("nul\0byte", 8)}) {
    for (const auto invalid : {InvalidUtf8::refuse, InvalidUtf8::replace}) {
      std::string out = "x";
      append_json_string(out, s, invalid);
      EXPECT_EQ(out, "x" + gpunet::json(s).dump()) << s;
    }
  }
  std::string out;
  EXPECT_THROW(append_json_string(out, "bad \xff", InvalidUtf8::refuse), gpunet::json::type_error);
  out.clear();
  append_json_string(out, "bad \xff", InvalidUtf8::replace);
  EXPECT_EQ(out, "\"bad \xef\xbf\xbd\"");
}
