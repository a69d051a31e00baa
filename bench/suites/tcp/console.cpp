#include "bench/suites/tcp/console.hpp"

#include <cstdio>

#include "bench/suites/tcp/live.hpp"

namespace gpunet::bench::tcp {

namespace {

double num(const gpunet::json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1.0;
}

std::string str(const gpunet::json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// "host" or, when both ends share a host, "host:rank".
std::string end(const gpunet::json& x, const char* side) {
  const std::string h = str(x, (std::string(side) + "_host").c_str());
  if (str(x, "src_host") != str(x, "dst_host")) return h;
  const auto key = std::string(side) + "_rank";
  return h + ":" + std::to_string(x.contains(key) ? x[key].get<int>() : -1);
}

std::string status_tail(const report::Record& r) {
  if (r.status == report::Status::passed) return "";
  return "  " + report::to_string(r.status) + (r.reason.empty() ? "" : " (" + r.reason + ")");
}

}  // namespace

std::string console_line(const report::Record& r) {
  const auto& x = r.extra;
  char buf[512];
  if (r.status == report::Status::skipped)
    return "# tcp " + r.name + (r.variant.empty() ? "" : " " + r.variant) + ": skipped (" + r.reason + ")\n";
  if ((r.name == "bandwidth" || r.name == "aggregate") && r.figure) {
    const report::Figure& f = *r.figure;
    char ceiling[96] = "ceiling unknown";
    if (f.ceiling && f.ceiling->known && f.efficiency)
      std::snprintf(ceiling, sizeof ceiling, "%5.1f%% of %.3f Gb/s", *f.efficiency * 100, f.ceiling->value);
    const std::string who = r.name == "aggregate" ? "at " + str(x, "root_host")
                                                  : end(x, "src") + " -> " + end(x, "dst");
    long retr = 0;
    if (x.contains("tcp_info"))
      for (const auto& t : x["tcp_info"]) retr += t.value("retransmits", 0L);
    std::snprintf(buf, sizeof buf, "# tcp %-9s %-12s %-30s %8.3f Gb/s  %-26s %2lld stream(s)  retr %ld",
                  r.name.c_str(), r.variant.c_str(), who.c_str(), f.value, ceiling,
                  static_cast<long long>(r.count), retr);
    const bool live = r.name == "bandwidth" && x.contains("live_interval_s") && r.status == report::Status::passed;
    return buf + status_tail(r) + "\n" + (live ? final_lines(r) : "");
  }
  if (r.name == "latency" && x.contains("latency_us")) {
    const auto& l = x["latency_us"];
    std::snprintf(buf, sizeof buf,
                  "# tcp latency   %-30s %lld B  p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f  jitter %.1f us",
                  (end(x, "src") + " <-> " + end(x, "dst")).c_str(), static_cast<long long>(r.bytes),
                  num(l, "p50"), num(l, "p90"), num(l, "p99"), num(l, "p99_9"), num(l, "max"), num(l, "jitter"));
    return buf + status_tail(r) + "\n";
  }
  if (r.name == "matrix") {
    std::snprintf(buf, sizeof buf, "# tcp matrix: %zu hosts, %d rounds, best pair %.3f Gb/s, %zu suspect(s), %zu re-tested",
                  x.contains("hosts") ? x["hosts"].size() : 0, static_cast<int>(num(x, "rounds")), num(x, "best_Gbps"),
                  x.contains("suspects") ? x["suspects"].size() : 0, x.contains("retests") ? x["retests"].size() : 0);
    return buf + status_tail(r) + "\n";
  }
  if (r.name == "fabric" && r.figure && x.contains("summary")) return "# tcp fabric " + str(x, "summary") + "\n";
  if (r.name == "congestion") {  // "# tcp congestion a -> b  bandwidth  CIF 2.41 (isolated 0.0952, congested 0.0395 Gb/s)"
    std::snprintf(buf, sizeof buf, "# tcp congestion  %-30s %-12s CIF %5.2f (isolated %.4g, congested %.4g %s)",
                  str(x, "victim").c_str(), r.variant.c_str(), r.figure ? r.figure->value : 0.0, num(x, "isolated"),
                  num(x, "congested"), str(x, "unit").c_str());
    return buf + status_tail(r) + "\n";
  }
  if (r.name == "finding") return "# tcp FINDING: " + r.reason + "\n";
  return "# tcp " + r.name + (r.variant.empty() ? "" : " " + r.variant) + ": " + report::to_string(r.status) +
         (r.reason.empty() ? "" : " (" + r.reason + ")") + "\n";
}

}  // namespace gpunet::bench::tcp
