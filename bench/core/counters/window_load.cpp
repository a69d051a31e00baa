#include "bench/core/counters/window_load.hpp"

#include <utility>

namespace gpunet::bench::counters {

WindowLoad::WindowLoad(std::string proc_root, double busy_pct)
    : proc_root_(std::move(proc_root)), busy_pct_(busy_pct), before_(take_load_snapshot(proc_root_)) {}

gpunet::json WindowLoad::finish(const std::string& host, const std::string& what) const {
  const auto load = host_load(before_, take_load_snapshot(proc_root_), load_average(proc_root_));
  if (!load) return nullptr;
  return {{"host", host},
          {"others_pct", load->others_pct},
          {"steal_pct", load->steal_pct},
          {"busy", is_busy(*load, busy_pct_)},
          {"summary", describe_load(*load, what)}};
}

std::map<std::string, gpunet::json> busy_windows(const std::vector<gpunet::json>& loads) {
  std::map<std::string, gpunet::json> out;
  for (const auto& l : loads)
    if (l.is_object() && l.value("busy", false) && l.contains("host") && l["host"].is_string())
      out.emplace(l["host"].get<std::string>(), l);
  return out;
}

void attach_busy_windows(std::vector<report::Record>& recs, const std::map<std::string, gpunet::json>& busy) {
  if (busy.empty()) return;
  for (auto& r : recs) {
    if (!r.figure) continue;
    const report::Subject& s = r.figure->subject;
    gpunet::json window = gpunet::json::array();
    if (s.kind == report::SubjectKind::cluster || s.kind == report::SubjectKind::group) {
      for (const auto& [host, load] : busy) window.push_back(load);
    } else {
      for (const std::string* host : {&s.host, &s.dst_host}) {
        if (host->empty() || (host == &s.dst_host && s.dst_host == s.host)) continue;
        if (const auto it = busy.find(*host); it != busy.end()) window.push_back(it->second);
      }
    }
    if (!window.empty() && (r.extra.is_object() || r.extra.is_null())) r.extra["host_load_window"] = std::move(window);
  }
}

}  // namespace gpunet::bench::counters
