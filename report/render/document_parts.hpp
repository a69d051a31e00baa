// The document report.md, report.html and the tables' CSV files are laid out from, built once from an
// analysed report (report/analysed/analyse.hpp: the records, the judgement, the training answer): the
// judgement itself, "What is wrong", and the sections in reading order (report/document/document_section.hpp), the ceilings they
// cite numbered once (report/document/ceiling_citations.hpp). The order is section_order.hpp's; each
// renderer lays out the same list, so no format can add, drop or reorder a section. write_analysed_outputs
// builds it once for every format; at 512 hosts the flows table alone is 261,632 rows. Pure.
#pragma once

#include <memory>
#include <vector>

#include "report/analysed/analyse.hpp"
#include "report/document/document_section.hpp"
#include "report/document/table_model.hpp"
#include "report/judge/culprits.hpp"
#include "report/judge/judgement.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

struct DocumentParts {
  // The verdict, the contract's verdicts and the baseline comparison, typed: the caller's, not copied
  // (a comparison at 1,024 hosts is a million rows), or one read back from a stored report, held here.
  std::shared_ptr<const Judgement> judgement;
  WhatIsWrong wrong;    // worked out once: the documents' "What is wrong", bad-nodes.txt, what tables colour
  double threshold = 0.8;        // the efficiency below which a figure is low (the analysis's)
  BlamedPairs blamed;            // the pairs `wrong` blames: coloured in the tables, kept whole in report.json
  std::vector<DocSection> head;  // the verdict and what is wrong, before the page (report.html: outside <main>)
  std::vector<DocSection> body;  // everything after them, the Ceilings last
};

// The tables read the report's records as the CSVs are written (Table::every_row): `rep` and `j` must
// outlive the parts.
DocumentParts document_parts(const Report& rep, const Judgement& j, const std::optional<training::TrainingResult>& training);
DocumentParts document_parts(const Analysed& a);
DocumentParts document_parts(const Report& rep);  // as the report stored its analysis (stored_judgement, training_result_of)

// Every table of the document with a CSV file (Table::csv), in reading order.
std::vector<const Table*> csv_tables(const DocumentParts& parts);

}  // namespace gpunet::report
