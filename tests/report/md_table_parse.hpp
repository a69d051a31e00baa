// report.md's tables parsed back as a reader sees them, for the report tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace gpunet::report::testing {

// One table of report.md as a reader sees it: the heading above it, its header cells and rows.
struct MdTableSeen {
  std::string section, heading;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

inline std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> cells;
  std::string cur;
  for (size_t i = 1; i < line.size(); ++i) {
    if (line[i] == '|' && line[i - 1] != '\\') {
      const auto b = cur.find_first_not_of(' '), e = cur.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
      cur.clear();
    } else {
      cur += line[i];
    }
  }
  return cells;
}

inline std::vector<MdTableSeen> parse_tables(const std::string& md) {
  std::vector<MdTableSeen> out;
  std::istringstream in(md + "\n");
  std::string line, section, heading;
  MdTableSeen cur;
  bool open = false;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] == '|') {
      if (!open) {
        cur = MdTableSeen{section, heading, split_row(line), {}};
        open = true;
      } else if (line.find("---") == std::string::npos || !cur.rows.empty()) {
        cur.rows.push_back(split_row(line));
      }
      continue;
    }
    if (open) out.push_back(cur);
    open = false;
    if (line.rfind("## ", 0) == 0) section = heading = line.substr(3);
    if (line.rfind("### ", 0) == 0) heading = line.substr(4);
  }
  return out;
}

}  // namespace gpunet::report::testing
