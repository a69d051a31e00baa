// Number text written by std::to_chars (report/text/text_format.hpp): the very text printf's "%.*f"
// and "%.*g" give, which every report, CSV and golden file was written with before.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "report/text/text_format.hpp"

using namespace gpunet::report;

namespace {

std::string printf_text(const char* format, int precision, double x) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, precision, x);
  return buf;
}

}  // namespace

TEST(TextFormat, FixedAndGeneralAreWhatPrintfWrites) {
  std::vector<double> values = {0.0, -0.0, NAN, -NAN, INFINITY, -INFINITY, DBL_MAX, -DBL_MAX, DBL_MIN, 5e-324,
                                0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 99.95, 9999.5, 1e16, 123456789.125, 93.93303939777203};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(-1e6, 1e6);
  std::uniform_int_distribution<int> exponent(-30, 30);
  for (int i = 0; i < 20000; ++i) {
    values.push_back(mantissa(rng) * std::pow(10.0, exponent(rng)));
    values.push_back(std::round(mantissa(rng)) / (1 << (i % 12)));  // ties at every decimal place
  }
  for (const double x : values) {
    for (const int decimals : {0, 1, 2, 4}) ASSERT_EQ(format_fixed(x, decimals), printf_text("%.*f", decimals, x)) << x;
    for (const int digits : {4, 9}) ASSERT_EQ(format_general(x, digits), printf_text("%.*g", digits, x)) << x;
  }
}
