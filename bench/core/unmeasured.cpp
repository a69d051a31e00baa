#include "bench/core/unmeasured.hpp"

#include "report/model/busbw.hpp"

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

std::string collective_unmeasured(const report::Record& r) {
  if (!report::collective_from_string(r.name) || r.time_us.samples > 0) return "";
  return "no timed iteration completed, so there is no figure to report";
}

std::string pingpong_unmeasured(const report::Record& r) {
  if (r.name != "latency" || r.time_us.samples > 0 || latency_samples(r) > 0) return "";
  return "no ping-pong completed in --tcp-lat-time, so there is no latency to report (raise --tcp-lat-time)";
}

report::Record fail_if_unmeasured(report::Record r, std::string (*unmeasured)(const report::Record&)) {
  if (r.status != report::Status::passed || !unmeasured) return r;
  std::string why = unmeasured(r);
  if (why.empty()) return r;
  r.status = report::Status::failed;
  r.reason = std::move(why);
  return r;
}

}  // namespace gpunet::bench
