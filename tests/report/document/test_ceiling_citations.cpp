#include <gtest/gtest.h>

#include "report/document/ceiling_citations.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report {
namespace {

Table cited(std::vector<std::string> derivations) {
  Table t = text_table("", {"ceiling"});
  for (auto& d : derivations) {
    TableRow& row = add_row(t, {"1 Gb/s"});
    row.cells[0].derivation = std::move(d);
  }
  return t;
}

// Numbered in reading order (a section's tables, then its subsections), once per text.
TEST(CeilingCitations, NumberedOnceInReadingOrderAndListedLast) {
  std::vector<DocSection> doc(2);
  doc[0].title = "A";
  doc[0].tables.push_back(cited({"x", "y"}));
  doc[0].subsections.push_back(DocSection{});
  doc[0].subsections[0].title = "A.1";
  doc[0].subsections[0].tables.push_back(cited({"z"}));
  doc[1].title = "B";
  doc[1].tables.push_back(cited({"y", "", "x"}));
  const DocSection notes = cite_ceilings(doc);
  EXPECT_EQ(notes.items, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(doc[0].tables[0].rows[1].cells[0].cite, 2);
  EXPECT_EQ(doc[0].subsections[0].tables[0].rows[0].cells[0].cite, 3);
  EXPECT_EQ(doc[1].tables[0].rows[0].cells[0].cite, 2);
  EXPECT_EQ(doc[1].tables[0].rows[1].cells[0].cite, 0);
  EXPECT_EQ(doc[1].tables[0].rows[2].cells[0].cite, 1);
  // Both formats print the one number and list the notes in its order.
  EXPECT_NE(section_markdown(doc[1]).find("1 Gb/s [2]"), std::string::npos);
  EXPECT_NE(section_html(doc[1], 0.8).find("<a href=\"#c2\">[2]</a>"), std::string::npos);
  EXPECT_EQ(section_markdown(notes), "\n## Ceilings\n\n[1] x  \n[2] y  \n[3] z  \n");
  EXPECT_NE(section_html(notes, 0.8).find("<li id=\"c3\">z</li>"), std::string::npos);
}

TEST(CeilingCitations, NothingCitedIsNoSection) {
  std::vector<DocSection> doc(1);
  doc[0].title = "A";
  doc[0].tables.push_back(cited({""}));
  EXPECT_TRUE(empty(cite_ceilings(doc)));
  EXPECT_EQ(section_markdown(cite_ceilings(doc)), "");
}

// A section of drawings and the verdict banner are laid out by format; a section of tables without
// rows shows nothing.
TEST(DocSectionLayout, DrawingsBannerAndBlankTables) {
  DocSection charts;
  charts.title = "Charts";
  charts.drawings = {2, "<svg class=\"chart\"></svg>"};
  EXPECT_EQ(section_markdown(charts), "\n## Charts\n\n2 drawings in report.html.\n");
  EXPECT_EQ(section_html(charts, 0.8), "<h2>Charts</h2><svg class=\"chart\"></svg>");
  const DocSection banner = verdict_section(RunVerdict{RunOutcome::fail, {"node3 is slow"}});
  EXPECT_EQ(section_markdown(banner), "# gpunet-bench report\n\n**Verdict: FAIL**\n\n- node3 is slow\n");
  EXPECT_EQ(section_html(banner, 0.8), "<header class=\"verdict FAIL\"><h1>gpunet-bench: FAIL</h1><p>node3 is slow</p></header>");
  DocSection blank;
  blank.title = "Tables";
  blank.tables.push_back(text_table("none", {"a"}));
  EXPECT_TRUE(empty(blank));
  EXPECT_EQ(section_html(blank, 0.8), "");
}

// A long text cell wraps in report.html (its class w).
TEST(DocSectionLayout, WrapCellsWrapInHtml) {
  DocSection s;
  s.title = "Checks";
  Table t = text_table("", {"what"});
  t.rows.push_back(TableRow{{wrap_cell("a long reason")}, Status::failed});
  s.tables.push_back(t);
  EXPECT_NE(section_html(s, 0.8).find("<td class=\"w\">a long reason</td>"), std::string::npos);
}

}  // namespace
}  // namespace gpunet::report
