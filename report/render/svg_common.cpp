#include "report/render/svg_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/text/escape.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report::svg {

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

double nice_step(double range, int target) {
  if (!(range > 0)) return 1;
  const double raw = range / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

std::string tick_bytes(double bytes) {
  std::string s = format_bytes(static_cast<int64_t>(std::llround(bytes)));
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  if (s.size() > 3 && s.compare(s.size() - 2, 2, "iB") == 0) s.erase(s.size() - 2);  // 64MiB -> 64M
  return s;
}

std::string tick_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string tick_seconds(double x) { return tick_number(x) + "s"; }

std::string value_text(double v) {
  if (!std::isfinite(v)) return "-";
  if (v == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 2 - magnitude), v);
  return buf;
}

std::vector<std::string> wrap_words(const std::string& text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while (i < text.size()) {
    const size_t end = std::min(text.find(' ', i), text.size());
    const std::string word = text.substr(i, end - i);
    i = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

size_t chars_in(double px) { return static_cast<size_t>(std::max(8.0, px / 6.4)); }

std::string open(double w, double h, const std::vector<std::string>& title_lines, const std::string& css_class) {
  std::string title;
  for (const auto& l : title_lines) title += (title.empty() ? "" : " ") + l;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"" + css_class + "\" viewBox=\"0 0 " + num(w) +
                    " " + num(h) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" role=\"img\"><title>" +
                    html_escape(title) + "</title>";
  double y = 20;
  for (const auto& l : title_lines) {
    out += "<text x=\"" + num(w / 2) + "\" y=\"" + num(y) + "\" text-anchor=\"middle\" class=\"ct\">" + html_escape(l) +
           "</text>";
    y += 17;
  }
  return out;
}

std::string text_lines(double x, double y, double step, const std::vector<std::string>& lines, const char* css_class) {
  std::string out;
  for (const auto& l : lines) {
    out += "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" class=\"" + css_class + "\">" + html_escape(l) + "</text>";
    y += step;
  }
  return out;
}

}  // namespace gpunet::report::svg
