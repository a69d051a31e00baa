// Renders the table model (report/document/table_model.hpp) as Markdown, HTML, console text and CSV. Every
// renderer shows the same columns and cells; only the markup differs. Pure.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/document/table_model.hpp"

namespace gpunet::report {

// "### title", the note, the table (a ceiling cell with its number, Cell::cite, as " [n]"), nccl-tests'
// footer as a code block, the bullets. Empty for a table without rows or bullets. `heading` is the Markdown heading prefix ("###"); an untitled table
// has none (it sits under its section's heading).
std::string table_markdown(const Table& t, const std::string& heading = "###");
// <h3>, the note, a <table> (efficiency cells coloured against `threshold`, a ceiling cell linked to
// its note "#c<n>"), footer and bullets.
std::string table_html(const Table& t, double threshold, const std::string& heading = "h3");
// "# title", then the table padded as in report.md (without citations). Empty without rows.
std::string table_console(const Table& t);
// The CSV files of the tables, in report order: each file's name and the tables whose rows it holds.
// Tables that share a file share its header (the first one's columns). Every file is there even when
// it has no rows.
struct CsvFile {
  std::string name;
  std::vector<const Table*> tables;
};
std::vector<CsvFile> table_csv_files(const std::vector<const Table*>& tables);
// Writes one file's RFC 4180 text, a block of rows at a time (a table's every_row makes rows only as
// written), on this thread and one more.
void write_csv(const CsvFile& f, std::ostream& os);

}  // namespace gpunet::report
