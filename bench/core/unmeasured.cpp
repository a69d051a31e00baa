#include "bench/core/unmeasured.hpp"

#include "report/busbw.hpp"

namespace gpunet::bench {

namespace {

int64_t latency_samples(const report::Record& r) {
  if (!r.extra.is_object()) return 0;
  const auto it = r.extra.find("latency_us");
  if (it == r.extra.end() || !it->is_object()) return 0;
  const auto s = it->find("samples");
  return s != it->end() && s->is_number_integer() ? s->get<int64_t>() : 0;
}

}  // namespace

bool is_timed_record(const report::Record& r) {
  if (r.suite == "tcp") return r.name == "latency";
  if (r.suite == "mpi" || r.suite == "nccl") return report::collective_from_string(r.name).has_value();
  return false;
}

report::Record fail_if_unmeasured(report::Record r) {
  if (r.status != report::Status::passed || !is_timed_record(r)) return r;
  const bool tcp_latency = r.suite == "tcp";
  const bool none = tcp_latency ? r.time_us.samples == 0 && latency_samples(r) == 0 : r.time_us.samples == 0;
  if (!none) return r;
  r.status = report::Status::failed;
  r.reason = tcp_latency ? "no ping-pong completed in --tcp-lat-time, so there is no latency to report (raise --tcp-lat-time)"
                         : "no timed iteration completed, so there is no figure to report";
  return r;
}

}  // namespace gpunet::bench
