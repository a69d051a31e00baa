// The chart part of the report, one section per kind of chart in page order: report.html draws each
// under its own heading, report.md names the same headings and says the drawings are in report.html,
// so both documents have the same section titles in the same order. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/analysis/link_locate.hpp"
#include "report/judge/culprits.hpp"

namespace gpunet::report {

struct ChartSection {
  std::string id;     // the html anchor ("pair-matrix")
  std::string title;  // "Host pair matrix"
  std::string html;   // the drawings, as HTML (SVG inside)
  size_t drawings = 0;
};

struct ChartSections {
  std::vector<ChartSection> sections;  // only those with something drawn
  std::vector<std::string> omitted;    // one line per chart left out, and why
};

// location: the report's fabric_location (Judgement::fabric), for the fabric picture.
ChartSections chart_sections(const Report& rep, const BlamedPairs& blamed, const LinkLocation& location);

}  // namespace gpunet::report
