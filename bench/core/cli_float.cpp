#include "bench/core/cli_float.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gpunet::bench {

std::optional<double> parse_finite(const std::string& text) {
  if (text.empty() || text.find_first_of(" \t\n\r\f\v") != std::string::npos) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string float_value_problem(const std::string& text, double lo, double hi) {
  const auto v = parse_finite(text);
  const std::string range = "[" + format_float(lo) + ", " + format_float(hi) + "]";
  if (!v) return "'" + text + "' is not a finite number (give a number in " + range + ")";
  if (*v < lo || *v > hi) return "'" + text + "' is outside " + range;
  return "";
}

std::string format_float(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {  // whole numbers in full: 3600, not 3.6e+03
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

CLI::Option* add_float_option(CLI::App& app, const std::string& names, double& target, double lo, double hi,
                              const std::string& help) {
  return app
      .add_option_function<std::string>(
          names,
          [&target, names, lo, hi](const std::string& text) {
            const std::string why = float_value_problem(text, lo, hi);
            if (!why.empty()) throw CLI::ValidationError(names, why);
            target = *parse_finite(text);
          },
          help)
      ->type_name("FLOAT in [" + format_float(lo) + ", " + format_float(hi) + "]")
      ->default_str(format_float(target));
}

}  // namespace gpunet::bench
