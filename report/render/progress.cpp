#include "report/render/progress.hpp"

#include "report/text/text_format.hpp"

namespace gpunet::report {

std::optional<double> estimate_remaining_s(int done, int total, double elapsed_s) {
  if (done <= 0 || total <= 0 || done > total || elapsed_s < 0) return std::nullopt;
  return elapsed_s / done * (total - done);
}

std::string progress_line(const Progress& p) {
  std::string s = "[" + p.suite + "]";
  if (!p.step.empty()) s += " " + p.step;
  if (p.bytes > 0) s += " " + format_bytes(p.bytes);
  if (p.total > 0) {
    s += "  " + std::to_string(p.done) + "/" + std::to_string(p.total) + " (" +
         format_percent(static_cast<double>(p.done) / p.total) + ")";
  } else if (p.done > 0) {
    s += "  " + std::to_string(p.done) + " done";
  }
  const auto left = p.remaining_s ? p.remaining_s : estimate_remaining_s(p.done, p.total, p.elapsed_s);
  if (left) s += "  about " + format_duration(*left) + " left";
  return s;
}

bool print_progress(std::ostream& err, bool is_terminal, const Progress& p) {
  if (!is_terminal) return false;
  err << '\r' << progress_line(p) << "\x1b[K" << std::flush;
  return true;
}

void end_progress(std::ostream& err, bool is_terminal) {
  if (is_terminal) err << '\n' << std::flush;
}

}  // namespace gpunet::report
