#include "report/render/document_parts.hpp"

namespace gpunet::report {

DocumentParts document_parts(const Report& rep) {
  return {summary_table(rep), report_tables(rep, false), chart_sections(rep)};
}

}  // namespace gpunet::report
