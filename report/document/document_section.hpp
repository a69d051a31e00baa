// A section of the documents as words and tables, with no layout: its title, paragraphs, a list,
// tables of the one table type (report/document/table_model.hpp) and closing lines. report.md,
// report.html and the console lay the same DocSection out (report/render/section_render.hpp), so a
// section says the same thing in every format and is written once. The console shows the heading, the
// paragraphs, the list and the tables; the closing lines and the code are in report.md and report.html.
// Pure.
#pragma once

#include <string>
#include <vector>

#include "report/document/table_model.hpp"
#include "report/document/topology_tables.hpp"
#include "report/judge/culprits.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

struct DocSection {
  std::string title;                    // its heading
  std::vector<std::string> paragraphs;  // first: what the section answers
  std::vector<std::string> items;       // a list after them
  std::vector<Table> tables;            // then tables (kind text, titled: a sub-heading; untitled: under the heading)
  std::vector<std::string> closing;     // lines after the tables: units, what was left out
  std::string code;                     // shell lines to copy (a code block)
  std::vector<DocSection> subsections;  // after everything else, one heading level down
  bool prominent = false;               // set apart from the page (report.html: a box under the verdict)
  std::string id;                       // report.html's anchor for the section ("" = none)
};

// Nothing to show: the documents leave the section out.
bool empty(const DocSection& s);

// A table of words (kind text) with these headers and no rows yet; untitled, it sits under its
// section's heading.
Table text_table(std::string title, const std::vector<std::string>& headers);
// Appends a row of these texts; returns it, for marking cells.
TableRow& add_row(Table& t, std::vector<std::string> texts, Status status = Status::passed);

DocSection problems_section(const WhatIsWrong& w);  // "What is wrong": one item per problem, the scheduler's lines
DocSection run_section(const Report& rep);       // "Run": version, command, ranks, hosts, time, libraries, ...
DocSection networks_section(const Report& rep);  // "Networks measured": one row per interface
DocSection findings_section(const Report& rep);  // "Why figures are below their ceiling": one item per record
DocSection training_doc_section(const Report& rep);  // "Training impact": the answer, its notes, its tables
// "Topology" (id "topology", always there: it says why when empty): one subsection per kind of node
// with its summary, tables and findings, then the findings across nodes.
DocSection topology_section(const TopoSectionText& text);
DocSection topology_section(const Report& rep);

}  // namespace gpunet::report
