#include "topology/hostlist.hpp"

#include <cctype>
#include <stdexcept>

namespace gpunet::topo {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

// Splits on the commas that are not inside brackets.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0) bad("']' without '[' in '" + s + "'");
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) bad("unclosed '[' in '" + s + "'");
  out.push_back(cur);
  return out;
}

bool all_digits(const std::string& s) {
  if (s.empty() || s.size() > 9) return false;  // at most 9 digits: no overflow below
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string padded(long v, std::size_t width) {
  std::string s = std::to_string(v);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

// The strings one bracket's content "01-04,7" stands for.
std::vector<std::string> bracket_values(const std::string& body, std::size_t limit) {
  std::vector<std::string> out;
  for (const auto& part : split_top(body)) {
    const auto dash = part.find('-');
    const std::string lo = part.substr(0, dash), hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi))
      bad("'[" + body + "]': each item is a number or a range like 01-16 (up to 9 digits)");
    const long a = std::stol(lo), b = std::stol(hi);
    if (b < a) bad("range " + part + " runs backwards");
    if (static_cast<std::size_t>(b - a) >= limit || out.size() + static_cast<std::size_t>(b - a + 1) > limit)
      bad("'[" + body + "]' expands to more than " + std::to_string(limit) + " names");
    for (long v = a; v <= b; ++v) out.push_back(padded(v, lo.size()));
  }
  return out;
}

// One comma-free item: literal text and brackets, expanded as a cross product.
void expand_item(const std::string& item, std::vector<std::string>& out, std::size_t limit) {
  std::vector<std::string> acc{""};
  std::size_t i = 0;
  while (i < item.size()) {
    if (item[i] == '[') {
      const auto close = item.find(']', i);
      if (close == std::string::npos) bad("unclosed '[' in '" + item + "'");
      const auto vals = bracket_values(item.substr(i + 1, close - i - 1), limit);
      if (vals.empty() || acc.size() * vals.size() > limit)
        bad("'" + item + "' expands to more than " + std::to_string(limit) + " names");
      std::vector<std::string> next;
      next.reserve(acc.size() * vals.size());
      for (const auto& a : acc)
        for (const auto& v : vals) next.push_back(a + v);
      acc = std::move(next);
      i = close + 1;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(item[i]);
    if (item[i] == ']') bad("']' without '[' in '" + item + "'");
    if (!std::isalnum(c) && item[i] != '-' && item[i] != '_' && item[i] != '.')
      bad(std::string("character '") + item[i] + "' in '" + item + "' (host names use letters, digits, '-', '_' and '.')");
    for (auto& a : acc) a += item[i];
    ++i;
  }
  if (out.size() + acc.size() > limit) bad("the list expands to more than " + std::to_string(limit) + " names");
  out.insert(out.end(), acc.begin(), acc.end());
}

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& expr, std::size_t limit) {
  if (expr.empty()) bad("empty host list");
  std::vector<std::string> out;
  for (const auto& item : split_top(expr)) {
    if (item.empty()) bad("empty item in '" + expr + "' (two commas, or one at an end)");
    expand_item(item, out, limit);
  }
  return out;
}

}  // namespace gpunet::topo
