// The judgement's sections as report.md lays them out, with the Markdown tables' padding squeezed to
// one space, so that a test can look for "| a | **FAIL** | ... |" whatever the column widths.
#pragma once

#include <algorithm>
#include <string>

#include "report/document/acceptance_section.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::test_support {

inline std::string squeezed(std::string text) {
  text.erase(std::unique(text.begin(), text.end(), [](char a, char b) { return a == ' ' && b == ' '; }), text.end());
  return text;
}

inline std::string judged_markdown(const report::Report& rep, const report::Judgement& j) {
  std::string md;
  for (const auto& s : report::acceptance_sections(rep, j)) md += report::section_markdown(s);
  return squeezed(md);
}

}  // namespace gpunet::test_support
