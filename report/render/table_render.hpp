// Renders the table model (report/document/table_model.hpp) as Markdown, HTML, console text and CSV. Every
// renderer shows the same columns and cells; only the markup differs. Pure.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/document/table_model.hpp"

namespace gpunet::report {

// Ceiling derivations are long: tables cite them as [n], and the list follows the tables.
class CeilingNotes {
 public:
  int cite(const std::string& derivation);  // 1-based, the same number for the same text
  const std::vector<std::string>& all() const { return order_; }
  bool empty() const { return order_.empty(); }

 private:
  std::map<std::string, int> index_;
  std::vector<std::string> order_;
};

// "### title", the note, the table, nccl-tests' footer as a code block, the bullets. Empty for a
// table without rows or bullets. `heading` is the Markdown heading prefix ("###"); an untitled table
// has none (it sits under its section's heading).
std::string table_markdown(const Table& t, CeilingNotes& notes, const std::string& heading = "###");
// <h3>, the note, a <table> (efficiency cells coloured against `threshold`), footer and bullets.
std::string table_html(const Table& t, CeilingNotes& notes, double threshold, const std::string& heading = "h3");
// "# title", then the table padded as in report.md (without citations). Empty without rows.
std::string table_console(const Table& t);
// The CSV files of the tables, in report order: each file's name and the tables whose rows it holds.
// Tables that share a file share its header (the first one's columns). Every file is there even when
// it has no rows.
struct CsvFile {
  std::string name;
  std::vector<const Table*> tables;
};
std::vector<CsvFile> table_csv_files(const std::vector<Table>& tables);
// Writes one file's RFC 4180 text, one row at a time (a table's every_row makes rows only as written).
void write_csv(const CsvFile& f, std::ostream& os);

}  // namespace gpunet::report
