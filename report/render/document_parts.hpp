// What report.md, report.html and the tables' CSV files share, built once from an analysed Report and
// its judgement (report/judge/judgement.hpp): the judgement itself, "What is wrong", the summary table, the tables after it (report/document/table_model.hpp), the sections of words and tables and the chart sections
// (chart_sections.hpp). write_analysed_outputs builds them once for the three formats; at 512 hosts
// the flows table alone is 261,632 rows. Pure.
#pragma once

#include <vector>

#include "report/document/document_section.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/culprits.hpp"
#include "report/judge/judgement.hpp"
#include "report/model/record.hpp"
#include "report/render/chart_sections.hpp"

namespace gpunet::report {

struct DocumentParts {
  Judgement judgement;  // the verdict, the contract's verdicts and the baseline comparison, typed
  WhatIsWrong wrong;    // worked out once: the documents' "What is wrong", bad-nodes.txt, what tables colour
  Table summary;
  std::vector<Table> tables;
  ChartSections charts;
  // The sections that are words and tables (report/document/document_section.hpp), each built once
  // for both documents.
  DocSection problems;
  std::vector<DocSection> acceptance;  // Acceptance, then Baseline, where the judgement has them
  DocSection run, networks, training, findings, topology;
};

DocumentParts document_parts(const Report& rep, const Judgement& j);
DocumentParts document_parts(const Report& rep);  // with the judgement the report stored

}  // namespace gpunet::report
