#include "report/document/ceiling_citations.hpp"

#include <map>
#include <string>

namespace gpunet::report {

namespace {

void cite_in(DocSection& s, std::map<std::string, int>& numbers, std::vector<std::string>& texts) {
  for (auto& t : s.tables)
    for (auto& row : t.rows)
      for (auto& c : row.cells) {
        if (c.derivation.empty()) continue;
        auto [it, fresh] = numbers.try_emplace(c.derivation, static_cast<int>(texts.size()) + 1);
        if (fresh) texts.push_back(c.derivation);
        c.cite = it->second;
      }
  for (auto& sub : s.subsections) cite_in(sub, numbers, texts);
}

}  // namespace

DocSection cite_ceilings(std::vector<DocSection>& sections) {
  std::map<std::string, int> numbers;
  DocSection out;
  out.title = "Ceilings";
  out.cited = true;
  for (auto& s : sections) cite_in(s, numbers, out.items);
  return out;
}

}  // namespace gpunet::report
