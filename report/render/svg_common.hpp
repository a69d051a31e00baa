// What the SVG drawers of report.html share: number text for coordinates, axis steps and labels,
// word wrapping for legends, and the opening of a chart element. Internal to svg_*.cpp. Pure.
#pragma once

#include <string>
#include <vector>

namespace gpunet::report::svg {

std::string num(double x);                        // a coordinate: one decimal ("12.5")
double nice_step(double range, int target);       // 1, 2, 2.5 or 5 x 10^k, about range / target
std::string tick_bytes(double bytes);             // 64M, 4K, 512B
std::string tick_number(double x);                // %g
std::string tick_seconds(double x);               // 1.5s
std::string value_text(double v);                 // three significant digits, never an exponent
// Splits text at spaces into lines of at most `width` characters (a longer word gets a line of its own).
std::vector<std::string> wrap_words(const std::string& text, size_t width);
// About how many characters of 11 px text fit in `px` pixels.
size_t chars_in(double px);
// <svg ...><title>..</title> with the title drawn centred on top, in `lines` (wrapped to the width).
std::string open(double w, double h, const std::vector<std::string>& title_lines, const std::string& css_class);
// Lines of text at (x, y) going down by `step`, with a class; each line escaped.
std::string text_lines(double x, double y, double step, const std::vector<std::string>& lines, const char* css_class);

}  // namespace gpunet::report::svg
