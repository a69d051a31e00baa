// A section of the documents as words, tables and drawings, with no layout: its title, paragraphs,
// a list, tables of the one table type (report/document/table_model.hpp), closing lines and
// subsections. The documents are a list of them in order (report/render/document_parts.hpp); report.md,
// report.html and the console lay the same DocSection out (report/render/section_render.hpp), so a
// section says the same thing in every format and is written once. The console shows the heading, the
// paragraphs, the list and the tables; the closing lines and the code are in report.md and report.html.
// Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/document/table_model.hpp"
#include "report/document/topology_tables.hpp"
#include "report/judge/culprits.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/model/record.hpp"
#include "report/training/training_result.hpp"

namespace gpunet::report {

// Charts drawn for a section: report.html places them (inline SVG), report.md says how many there are.
struct Drawings {
  size_t count = 0;
  std::string html;
};

struct DocSection {
  std::string title;                    // its heading
  std::vector<std::string> paragraphs;  // first: what the section answers
  std::vector<std::string> items;       // a list after them
  std::vector<Table> tables;            // then tables (titled: a sub-heading; untitled: under the heading)
  std::vector<std::string> closing;     // lines after the tables: units, what was left out
  std::string code;                     // shell lines to copy (a code block)
  std::vector<DocSection> subsections;  // after everything else, one heading level down
  bool prominent = false;               // set apart from the page (report.html: a box under the verdict)
  std::string id;                       // report.html's anchor for the section ("" = none)
  Drawings drawings;                    // after the list, before the tables
  std::string banner;                   // the run's verdict heading the page, coloured by it (PASS, FAIL, ...)
  bool cited = false;                   // the items are notes that cells cite as [n] (Cell::cite): numbered
};

// Nothing to show (a table without rows or bullets shows nothing): the documents leave the section out.
bool empty(const DocSection& s);

// A table of words (kind text) with these headers and no rows yet; untitled, it sits under its
// section's heading.
Table text_table(std::string title, const std::vector<std::string>& headers);
// Appends a row of these texts; returns it, for marking cells.
TableRow& add_row(Table& t, std::vector<std::string> texts, Status status = Status::passed);

DocSection verdict_section(const RunVerdict& v);  // the banner: "Verdict: FAIL" and one item per reason
DocSection problems_section(const WhatIsWrong& w);  // "What is wrong": one item per problem, the scheduler's lines
DocSection run_section(const Report& rep);       // "Run": version, command, ranks, hosts, time, libraries, ...
// Where report.json at scale summarises the flows it does not keep whole (report/render/json_flows_kept.hpp).
inline constexpr const char* kFlowsInPartKey = "flows_in_part";
// For a report read back from such a report.json: how many flows it kept whole, of how many, and where
// every flow is ("report.json kept 948 of 25440 TCP flows whole ..."); empty for a whole one. The Run
// section and the re-render's warning say it.
std::string flows_in_part_text(const Report& rep);
DocSection networks_section(const Report& rep);  // "Networks measured": one row per interface
DocSection findings_section(const Report& rep);  // "Why figures are below their ceiling": one item per record
// "Training impact": the answer, its notes, its tables (empty without an answer).
DocSection training_doc_section(const std::optional<training::TrainingResult>& answer);
// "Topology" (id "topology", always there: it says why when empty): one subsection per kind of node
// with its summary, tables and findings, then the findings across nodes.
DocSection topology_section(const TopoSectionText& text);
DocSection topology_section(const Report& rep);
// The table model's tables after the summary (report_tables), a section per section_title in turn.
std::vector<DocSection> record_table_sections(std::vector<Table> tables);
// The summary table as a section under its own title.
DocSection summary_section(Table summary);

}  // namespace gpunet::report
