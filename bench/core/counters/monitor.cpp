#include "bench/core/counters/monitor.hpp"

namespace gpunet::bench::counters {

TrafficMonitor::TrafficMonitor(const SuiteContext& ctx, std::string sys_root, std::string proc_root)
    : ctx_(ctx), sys_root_(std::move(sys_root)), proc_root_(std::move(proc_root)) {
  on_ = ctx_.mpi.local_rank == 0 && ctx_.cfg.counters_interval_s > 0;
  if (on_) nvml_ = Nvml::open(nvml_note_);
}

TrafficMonitor::~TrafficMonitor() = default;

void TrafficMonitor::begin(const std::string& suite) {
  if (!on_) return;
  suite_ = suite;
  load_before_ = take_load_snapshot(proc_root_);
  sampler_ = std::make_unique<Sampler>(sys_root_, ctx_.cfg.counters_interval_s, nvml_.get());
  sampler_->start();
}

void TrafficMonitor::end() {
  if (!on_ || !sampler_) return;
  const TrafficSummary s = sampler_->stop();
  sampler_.reset();
  Expectation e;
  e.expected = ctx_.cfg.expect_ifaces;
  e.default_route = default_route_interfaces(proc_root_);
  e.up = up_interfaces(sys_root_);
  auto rec = ctx_.record("counters", suite_);
  rec.ranks = ctx_.mpi.local_size;
  rec.extra["traffic"] = to_json(s, e);
  rec.extra["summary"] = describe_traffic(s, e);
  rec.extra["nvml"] = nvml_ ? "GPUs: " + std::to_string(nvml_->devices()) : nvml_note_;
  auto findings = traffic_findings(s, e, suite_, ctx_.mpi.host);
  if (const auto load = host_load(load_before_, take_load_snapshot(proc_root_), load_average(proc_root_))) {
    const bool busy = is_busy(*load, ctx_.cfg.host_busy_pct);
    rec.extra["host_load"] = to_json(*load);
    rec.extra["host_load"]["busy"] = busy;
    rec.extra["host_load"]["summary"] = describe_load(*load, suite_);
    if (busy)
      findings.push_back({{"severity", "warning"}, {"kind", "host_busy"}, {"node", ctx_.mpi.host}, {"suite", suite_},
                          {"message", ctx_.mpi.host + ": " + describe_load(*load, suite_) +
                                          "; its figures there tell about the host more than about the network."}});
  }
  if (!findings.empty()) rec.extra["findings"] = findings;
  ctx_.emit(rec);
}

}  // namespace gpunet::bench::counters
