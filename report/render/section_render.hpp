// A document section (report/document/document_section.hpp) laid out in Markdown and in HTML: the
// heading, the paragraphs, the list, the tables (table_render.hpp) and the closing lines, in that
// order in both. Every string is escaped here.
#pragma once

#include <string>
#include <vector>

#include "report/document/document_section.hpp"
#include "report/render/table_render.hpp"

namespace gpunet::report {

// "" for an empty section. `level`: its heading's (2: "##", <h2>); its tables and subsections are one down.
std::string section_markdown(const DocSection& s, CeilingNotes& notes, int level = 2);
// `drawn`: the section's charts (inline SVG), placed after the list.
std::string section_html(const DocSection& s, CeilingNotes& notes, double threshold, const std::string& drawn = "",
                         int level = 2);
// Several sections in turn, each at level 2.
std::string section_markdown(const std::vector<DocSection>& all, CeilingNotes& notes);
std::string section_html(const std::vector<DocSection>& all, CeilingNotes& notes, double threshold);
// "# Title:\n#   paragraph\n#   item\n" and the tables (table_console); "" for an empty section.
std::string section_console(const DocSection& s);

}  // namespace gpunet::report
