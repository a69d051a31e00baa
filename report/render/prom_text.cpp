#include "report/render/prom_text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace gpunet::report::prom {

namespace {

// Length of the UTF-8 sequence that starts at s[i], or 0 when it is not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
  return n;
}

}  // namespace

Unit unit_of(const std::string& unit) {
  if (unit == "Gb/s") return {"gbps", 1, 1};
  if (unit == "GB/s") return {"bytes_per_second", 1e9, 1};
  if (unit == "MB/s") return {"bytes_per_second", 1e6, 1};
  if (unit == "us") return {"seconds", 1, 1e6};
  if (unit == "ms") return {"seconds", 1, 1e3};
  if (unit == "s") return {"seconds", 1, 1};
  if (unit.empty()) return {"", 1, 1};
  return {name_part(unit), 1, 1};
}

std::string name_part(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) && u < 0x80)
      out += static_cast<char>(std::tolower(u));
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) return "_";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out.insert(out.begin(), '_');
  return out;
}

std::string metric_name(const std::string& metric, const std::string& unit) {
  const Unit u = unit_of(unit);
  return "gpunet_" + name_part(metric) + (u.suffix.empty() ? "" : "_" + u.suffix);
}

std::string ceiling_name(const std::string& metric, const std::string& unit) {
  const Unit u = unit_of(unit);
  return "gpunet_" + name_part(metric) + "_ceiling" + (u.suffix.empty() ? "" : "_" + u.suffix);
}

std::string efficiency_name(const std::string& metric) { return "gpunet_" + name_part(metric) + "_efficiency_ratio"; }

std::string label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size();) {
    const char c = v[i];
    const size_t n = utf8_length(v, i);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (n == 1 && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)) out += '?';
    else out.append(v.substr(i, n));
    i += n;
  }
  return out;
}

std::string help_text(std::string_view v) {
  std::string out;
  for (const char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += ' ';
    else out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string label_set(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i)
    out += (i ? "," : "") + labels[i].first + "=\"" + label_value(labels[i].second) + "\"";
  return out + "}";
}

}  // namespace gpunet::report::prom
