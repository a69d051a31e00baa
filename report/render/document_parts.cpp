#include "report/render/document_parts.hpp"

namespace gpunet::report {

DocumentParts document_parts(const Report& rep) {
  WhatIsWrong wrong = what_is_wrong(rep);
  const BlamedPairs blamed(rep, wrong.bad_nodes);
  return {std::move(wrong), summary_table(rep, blamed), report_tables(rep, blamed), chart_sections(rep, blamed)};
}

}  // namespace gpunet::report
