#include "report/render/console.hpp"

#include <cstdio>

#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"

namespace gpunet::report {

std::string console_sweep_header(const std::string& suite, int ranks, int nodes, const std::string& reduction) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "# suite %s: %d rank(s) on %d node(s); time = per-iteration mean, reduced across ranks by %s\n"
                "# %12s %12s %7s %6s | %10s %11s %11s %6s | %9s %9s %6s %6s\n",
                suite.c_str(), ranks, nodes, reduction.c_str(), "size(B)", "count", "type", "redop", "time(us)",
                "algbw(GB/s)", "busbw(GB/s)", "#wrong", "p50(us)", "p99(us)", "cv%", "iters");
  return buf;
}

std::string console_sweep_row(const Record& r) {
  if (r.status == Status::skipped) return console_note(r);
  char buf[512];
  const std::string wrong = r.check == "off" ? "N/A" : std::to_string(r.wrong);
  std::snprintf(buf, sizeof buf, "  %12lld %12lld %7s %6s | %10.2f %11.3f %11.3f %6s | %9.2f %9.2f %6.1f %6lld  %s %s\n",
                static_cast<long long>(r.bytes), static_cast<long long>(r.count), r.dtype.c_str(), r.op.c_str(),
                r.time_us.mean, r.algbw_GBps, r.busbw_GBps, wrong.c_str(), r.time_us.p50, r.time_us.p99,
                r.time_us.cv * 100, static_cast<long long>(r.time_us.samples), r.name.c_str(),
                r.status == Status::passed ? "" : to_string(r.status).c_str());
  return buf;
}

std::string console_note(const Record& r) {
  std::string line = "# " + r.suite + " " + r.name;
  if (!r.variant.empty()) line += " " + r.variant;
  line += ": " + to_string(r.status);
  if (!r.reason.empty()) line += " (" + r.reason + ")";
  return line + "\n";
}

std::string console_summary(const Report& rep) { return table_console(summary_table(rep)); }

}  // namespace gpunet::report
