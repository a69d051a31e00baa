#include "bench/core/counters/window_load.hpp"

#include <utility>

namespace gpunet::bench::counters {

WindowLoad::WindowLoad(std::string proc_root, double busy_pct)
    : proc_root_(std::move(proc_root)), busy_pct_(busy_pct), before_(take_load_snapshot(proc_root_)) {}

nlohmann::json WindowLoad::finish(const std::string& host, const std::string& what) const {
  const auto load = host_load(before_, take_load_snapshot(proc_root_), load_average(proc_root_));
  if (!load) return nullptr;
  return {{"host", host},
          {"others_pct", load->others_pct},
          {"steal_pct", load->steal_pct},
          {"busy", is_busy(*load, busy_pct_)},
          {"summary", describe_load(*load, what)}};
}

}  // namespace gpunet::bench::counters
