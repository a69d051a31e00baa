// A figure's named parameters (report/model/figure.hpp): a sorted map of texts that reads like a const
// std::map, shared by copies until one of them is changed. A results.jsonl's reader gives equal sets one
// map (a matrix's million flows carry a handful of distinct sets).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>

#include "common/json.hpp"

namespace gpunet::report {

class FigureParameters {
 public:
  using Map = std::map<std::string, std::string>;
  using value_type = Map::value_type;
  using const_iterator = Map::const_iterator;

  FigureParameters() = default;
  FigureParameters(Map m);  // implicit: a map of texts is a set of parameters
  FigureParameters(std::initializer_list<value_type> values) : FigureParameters(Map(values)) {}

  const Map& map() const;
  const_iterator begin() const { return map().begin(); }
  const_iterator end() const { return map().end(); }
  const_iterator find(const std::string& key) const { return map().find(key); }
  std::size_t count(const std::string& key) const { return map().count(key); }
  const std::string& at(const std::string& key) const { return map().at(key); }
  bool empty() const { return map().empty(); }
  std::size_t size() const { return map().size(); }

  // Changing it first gives this figure a map of its own: no other figure sees the change.
  std::string& operator[](const std::string& key) { return own()[key]; }
  std::size_t erase(const std::string& key) { return own().erase(key); }

  // Whether it holds the very map of `other` (not only an equal one).
  bool shares(const FigureParameters& other) const { return map_ == other.map_; }

  friend bool operator==(const FigureParameters& a, const FigureParameters& b) { return a.map() == b.map(); }

 private:
  Map& own();
  std::shared_ptr<Map> map_;  // null: none
};

void to_json(gpunet::json& j, const FigureParameters& p);

}  // namespace gpunet::report
