// Reads a user-supplied JSON file (spec, baseline). Every problem becomes one Error whose message
// starts with the path: "PATH: cannot read ... (HINT)" or "PATH: not valid JSON: parse error at ...".
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace gpunet::report {

template <class Error>
nlohmann::json read_json_file(const std::string& path, const std::string& what, const std::string& hint) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read the " + what + " (" + hint + ")");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    const std::string text = e.what();
    const auto pos = text.find("parse error");
    throw Error(path + ": not valid JSON: " + (pos == std::string::npos ? text : text.substr(pos)));
  }
}

}  // namespace gpunet::report
