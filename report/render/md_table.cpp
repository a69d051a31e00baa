#include "report/render/md_table.hpp"

#include <algorithm>

namespace gpunet::report {

MdTable::MdTable(std::vector<std::string> headers, std::vector<Align> align)
    : headers_(std::move(headers)), align_(std::move(align)) {
  align_.resize(headers_.size(), Align::left);
}

void MdTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

std::string MdTable::render() const {
  std::vector<size_t> width(headers_.size(), 3);
  for (size_t c = 0; c < headers_.size(); ++c) width[c] = std::max(width[c], headers_[c].size());
  for (const auto& row : rows_)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "|";
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - cells[c].size(), ' ');
      s += ' ' + (align_[c] == Align::right ? pad + cells[c] : cells[c] + pad) + " |";
    }
    return s + "\n";
  };
  std::string out = line(headers_);
  out += "|";
  for (size_t c = 0; c < headers_.size(); ++c)
    out += (align_[c] == Align::right ? " " + std::string(width[c] - 1, '-') + ":" : " " + std::string(width[c], '-')) +
           " |";
  out += "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

}  // namespace gpunet::report
