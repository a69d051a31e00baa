// A document section (report/document/document_section.hpp) laid out in Markdown and in HTML: the
// heading, the paragraphs, the list, the drawings, the tables (table_render.hpp), the closing lines,
// the code and the subsections, in that order in both. Every string is escaped here.
#pragma once

#include <string>
#include <vector>

#include "report/document/document_section.hpp"
#include "report/render/table_render.hpp"

namespace gpunet::report {

// "" for an empty section. `level`: its heading's (2: "##", <h2>); its tables and subsections are one
// down. The banner is the page's title ("# gpunet-bench report" and the verdict in bold; in HTML a
// <header> coloured by the verdict); cited notes are a numbered list ("[n] text"; <ol>, item n "#c<n>").
std::string section_markdown(const DocSection& s, int level = 2);
// Efficiency cells are coloured against `threshold`.
std::string section_html(const DocSection& s, double threshold, int level = 2);
// Several sections in turn, each at level 2.
std::string section_markdown(const std::vector<DocSection>& all);
std::string section_html(const std::vector<DocSection>& all, double threshold);
// "# Title:\n#   paragraph\n#   item\n" and the tables (table_console); "" for an empty section.
std::string section_console(const DocSection& s);

}  // namespace gpunet::report
