#include "bench/core/console_lines.hpp"

#include <cstdio>

#include "report/busbw.hpp"
#include "report/console.hpp"

namespace gpunet::bench {

namespace {

std::string findings(const report::Record& r) {
  std::string out;
  if (r.extra.is_object() && r.extra.contains("findings") && r.extra["findings"].is_array())
    for (const auto& f : r.extra["findings"])
      out += "# finding (" + f.value("severity", "note") + "): " + f.value("message", "") + "\n";
  return out;
}

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
  int64_t wrong = 0, rows = 0;
  double busbw = 0;
  bool checked_wrong = false;
  for (const auto& r : records) {
    if (r.suite != suite || !report::collective_from_string(r.name) || r.time_us.samples <= 0 ||
        r.status == report::Status::skipped)
      continue;
    wrong += r.wrong;
    checked_wrong = checked_wrong || r.check == "wrong";
    busbw += r.busbw_GBps;
    ++rows;
  }
  if (rows == 0) return "";
  char buf[160];
  std::snprintf(buf, sizeof buf, "# Out of bounds values : %lld %s\n# Avg bus bandwidth    : %.4f GB/s\n#\n",
                static_cast<long long>(wrong), wrong > 0 || checked_wrong ? "FAILED" : "OK", busbw / static_cast<double>(rows));
  return buf;
}

bool prints_sweep_header(const std::string& suite) { return suite == "mpi" || suite == "nccl"; }

std::string console_line(const report::Record& r) {
  std::string line;
  const bool measured = r.status != report::Status::skipped && r.time_us.samples > 0;
  if (prints_sweep_header(r.suite) && report::collective_from_string(r.name) && measured) {
    report::Record row = r;
    if (!r.variant.empty() && r.variant != "out-of-place") row.name += " " + r.variant;
    line = report::console_sweep_row(row);
  } else if (r.suite == "counters") {
    line = "# counters " + r.name + " on " + r.host + ": " + r.extra.value("summary", std::string("?")) + "\n";
  } else if ((r.suite == "pcie" || r.suite == "node") && measured) {
    line = bandwidth_line(r);
  } else if (r.name == "scaling" && r.extra.contains("scaling")) {
    line = "# " + r.suite + " scaling " + r.variant + ": " + r.extra["scaling"].value("summary", std::string()) + "\n";
  } else if (r.suite == "nccl" && r.name == "transport" && r.extra.contains("nccl")) {
    const auto& n = r.extra["nccl"];
    line = "# nccl transport " + r.variant + " (" + r.host + "): " + n.value("transport", std::string("?")) +
           (n.contains("gdr") ? std::string(n["gdr"].get<bool>() ? " with" : " without") + " GPUDirect RDMA" : "") +
           (n.value("nic", std::string()).empty() ? "" : ", NIC " + n.value("nic", std::string())) +
           (n.value("version", std::string()).empty() ? "" : ", NCCL " + n.value("version", std::string())) + "\n";
  } else {
    line = report::console_note(r);
  }
  return line + findings(r);
}

}  // namespace gpunet::bench
