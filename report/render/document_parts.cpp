#include "report/render/document_parts.hpp"

#include "report/document/acceptance_section.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

DocumentParts document_parts(const Report& rep, const Judgement& j) {
  WhatIsWrong wrong = what_is_wrong(rep, j);
  const BlamedPairs blamed(rep, wrong.bad_nodes);
  DocSection problems = problems_section(wrong);
  return {j,
          std::move(wrong),
          summary_table(rep, blamed),
          report_tables(rep, blamed),
          chart_sections(rep, blamed),
          std::move(problems),
          acceptance_sections(rep, j),
          run_section(rep),
          networks_section(rep),
          training_doc_section(rep),
          findings_section(rep),
          topology_section(rep)};
}

DocumentParts document_parts(const Report& rep) { return document_parts(rep, stored_judgement(rep)); }

}  // namespace gpunet::report
