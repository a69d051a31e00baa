// The ceilings the documents cite. A ceiling cell carries how its ceiling is derived (Cell::derivation),
// a long text: the tables cite it as [n] and the "Ceilings" section lists the texts, n-th item the n-th.
// The numbers are given once, on the document, so report.md and report.html cite the same ones. Pure.
#pragma once

#include <vector>

#include "report/document/document_section.hpp"

namespace gpunet::report {

// Numbers every derivation the shown cells of `sections` carry, in reading order (a section's tables,
// then its subsections): the first cell with a text gives it the next number, and every cell with
// that text gets it (Cell::cite). Returns the "Ceilings" section listing the texts (empty: none cited).
DocSection cite_ceilings(std::vector<DocSection>& sections);

}  // namespace gpunet::report
