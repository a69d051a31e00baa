// A Markdown table whose columns are padded to equal width, so it reads as well in a terminal as on a
// code host. Cells must already be escaped (md_escape).
#pragma once

#include <string>
#include <vector>

namespace gpunet::report {

class MdTable {
 public:
  enum class Align { left, right };
  MdTable(std::vector<std::string> headers, std::vector<Align> align);
  void add_row(std::vector<std::string> cells);  // missing cells are blank, extra ones dropped
  std::string render() const;
  size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpunet::report
