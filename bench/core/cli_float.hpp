// Floating-point command-line options. Every float option goes through add_float_option(), so none
// can take nan, inf, an overflowing value (1e400), trailing garbage or a value outside its range:
// each of those is a usage error (exit code 2) with one line that names the option.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace gpunet::bench {

// The whole of `text` as a finite decimal number; nullopt for "", "nan", "inf", "1e400", "2x", ...
std::optional<double> parse_finite(const std::string& text);

// Why `text` is not a value in [lo, hi] ("" when it is); names neither the option nor the range's use.
std::string float_value_problem(const std::string& text, double lo, double hi);

// The shortest text that reads back as `v` (for defaults shown by --help).
std::string format_float(double v);

// A float option on `target`, limited to [lo, hi]; --help shows the current value as the default.
CLI::Option* add_float_option(CLI::App& app, const std::string& names, double& target, double lo, double hi,
                              const std::string& help);

}  // namespace gpunet::bench
