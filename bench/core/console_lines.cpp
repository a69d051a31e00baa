#include "bench/core/console_lines.hpp"

#include <cstdio>

#include "report/model/busbw.hpp"
#include "report/render/console.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::bench {

std::string console_line_findings(const report::Record& r) {
  std::string out;
  if (r.extra.is_object() && r.extra.contains("findings") && r.extra["findings"].is_array())
    for (const auto& f : r.extra["findings"])
      out += "# finding (" + f.value("severity", "note") + "): " + f.value("message", "") + "\n";
  return out;
}

namespace {

std::string bandwidth_line(const report::Record& r) {
  char buf[256];
  const std::string wrong = r.check == "off" ? "" : " check " + r.check;
  std::snprintf(buf, sizeof buf, "# %s %s %s: %.2f GB/s (%lld B, p50 %.1f us, cv %.1f%%, %lld samples)%s\n", r.suite.c_str(),
                r.name.c_str(), r.variant.c_str(), r.algbw_GBps, static_cast<long long>(r.bytes), r.time_us.p50,
                r.time_us.cv * 100, static_cast<long long>(r.time_us.samples), wrong.c_str());
  return buf;
}

}  // namespace

std::string sweep_footer(const std::vector<report::Record>& records, const std::string& suite) {
  std::vector<const report::Record*> rows;
  for (const auto& r : records)
    if (r.suite == suite && report::collective_from_string(r.name) && r.time_us.samples > 0 &&
        r.status != report::Status::skipped)
      rows.push_back(&r);
  if (rows.empty()) return "";
  std::string out;
  for (const auto& line : report::collective_footer(rows)) out += line + "\n";
  return out + "#\n";
}

std::string copy_console_line(const report::Record& r) {
  const bool measured = r.status != report::Status::skipped && r.time_us.samples > 0;
  return measured ? bandwidth_line(r) + console_line_findings(r) : console_line(r);
}

std::string sweep_console_line(const report::Record& r) {
  const bool measured = r.status != report::Status::skipped && r.time_us.samples > 0;
  if (!report::collective_from_string(r.name) || !measured) return console_line(r);
  report::Record row = r;
  if (!r.variant.empty() && r.variant != "out-of-place") row.name += " " + r.variant;
  return report::console_sweep_row(row) + console_line_findings(r);
}

std::string console_line(const report::Record& r) {
  std::string line;
  if (r.suite == "counters") {
    line = "# counters " + r.name + " on " + r.host + ": " + r.extra.value("summary", std::string("?")) + "\n";
  } else if (r.name == "scaling" && r.extra.contains("scaling")) {
    line = "# " + r.suite + " scaling " + r.variant + ": " + r.extra["scaling"].value("summary", std::string()) + "\n";
  } else {
    line = report::console_note(r);
  }
  return line + console_line_findings(r);
}

}  // namespace gpunet::bench
