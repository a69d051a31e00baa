#include "bench/suites/tcp/live.hpp"

#include <algorithm>
#include <cstdio>

namespace gpunet::bench::tcp {

namespace {

std::string live_transfer_text(double bytes) {
  char buf[32];
  if (bytes >= 1e9) std::snprintf(buf, sizeof buf, "%.3f GB", bytes / 1e9);
  else if (bytes >= 1e6) std::snprintf(buf, sizeof buf, "%.3f MB", bytes / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f kB", bytes / 1e3);
  return buf;
}

double live_gbps(double bytes, double seconds) { return seconds > 0 ? bytes * 8 / seconds / 1e9 : 0.0; }

std::string live_row(const std::string& label, double start_s, double end_s, double bytes, double gbps, const std::string& retr,
                const std::string& cwnd, const std::string& tail) {
  char buf[320];
  std::snprintf(buf, sizeof buf, "# tcp [%s] %9.2f-%-9.2f s %15s %7.3f Gb/s %7s %11s%s\n", label.c_str(), start_s, end_s,
                live_transfer_text(bytes).c_str(), gbps, retr.c_str(), cwnd.c_str(), tail.c_str());
  return buf;
}

const gpunet::json* live_find(const gpunet::json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

double live_number(const gpunet::json& j, const char* key) {
  const auto* v = live_find(j, key);
  return v && v->is_number() ? v->get<double>() : 0.0;
}

std::string live_text(const gpunet::json& j, const char* key) {
  const auto* v = live_find(j, key);
  return v && v->is_string() ? v->get<std::string>() : "";
}

}  // namespace

std::string flow_label(const std::string& src_host, int src_rank, const std::string& dst_host, int dst_rank) {
  if (src_host != dst_host) return src_host + " -> " + dst_host;
  return src_host + ":" + std::to_string(src_rank) + " -> " + dst_host + ":" + std::to_string(dst_rank);
}

std::string interval_header() {
  char buf[200];
  std::snprintf(buf, sizeof buf, "# tcp [ ID] %21s %17s %12s %7s %11s\n", "Interval", "Transfer", "Bitrate", "Retr", "Cwnd");
  return buf;
}

std::string interval_line(const std::string& label, const IntervalReport& r, bool dip) {
  char cwnd[32];
  std::snprintf(cwnd, sizeof cwnd, "%.1f KB", static_cast<double>(r.cwnd_bytes) / 1e3);
  return live_row(label, r.start_s, r.end_s, static_cast<double>(r.bytes), live_gbps(static_cast<double>(r.bytes), r.end_s - r.start_s),
             std::to_string(r.retransmits), cwnd, dip ? "  dip" : "");
}

std::string final_lines(const report::Record& r) {
  if (r.name != "bandwidth" || !r.extra.is_object()) return "";
  const auto& x = r.extra;
  const std::string label = flow_label(live_text(x, "src_host"), static_cast<int>(live_number(x, "src_rank")), live_text(x, "dst_host"),
                                       static_cast<int>(live_number(x, "dst_rank")));
  const double sent = live_number(x, "bytes_sent"), sender_s = live_number(x, "sender_seconds");
  long retr = 0;
  if (const auto* info = live_find(x, "tcp_info"); info && info->is_array())
    for (const auto& t : *info) retr += t.value("retransmits", 0L);
  return live_row(label, 0, sender_s, sent, live_gbps(sent, sender_s), std::to_string(retr), "", "  sender") +
         live_row(label, 0, live_number(x, "seconds"), static_cast<double>(r.bytes), live_number(x, "goodput_Gbps"), "", "", "  receiver");
}

bool LiveDips::add(double gbps) {
  bool dip = false;
  if (!so_far_.empty()) {
    std::vector<double> v = so_far_;
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    dip = gbps < dip_ * *mid;
  }
  so_far_.push_back(gbps);
  return dip;
}

}  // namespace gpunet::bench::tcp
