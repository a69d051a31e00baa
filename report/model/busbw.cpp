#include "report/model/busbw.hpp"

#include <array>
#include <utility>

namespace gpunet::report {

namespace {
constexpr std::array<std::pair<Collective, const char*>, 7> kNames{{
    {Collective::allreduce, "allreduce"},
    {Collective::allgather, "allgather"},
    {Collective::reduce_scatter, "reduce_scatter"},
    {Collective::broadcast, "broadcast"},
    {Collective::reduce, "reduce"},
    {Collective::alltoall, "alltoall"},
    {Collective::sendrecv, "sendrecv"},
}};
}  // namespace

std::string to_string(Collective c) {
  for (const auto& [k, n] : kNames)
    if (k == c) return n;
  return "unknown";
}

std::optional<Collective> collective_from_string(const std::string& name) {
  for (const auto& [k, n] : kNames)
    if (name == n) return k;
  return std::nullopt;
}

double busbw_factor(Collective c, int nranks) {
  const double n = nranks;
  if (nranks <= 0) return 0.0;
  switch (c) {
    case Collective::allreduce: return 2.0 * (n - 1) / n;
    case Collective::allgather:
    case Collective::reduce_scatter:
    case Collective::alltoall: return (n - 1) / n;
    case Collective::broadcast:
    case Collective::reduce:
    case Collective::sendrecv: return 1.0;
  }
  return 0.0;
}

double algbw_GBps(int64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / 1e9 / seconds : 0.0;
}

double busbw_GBps(Collective c, int64_t bytes, double seconds, int nranks) {
  return algbw_GBps(bytes, seconds) * busbw_factor(c, nranks);
}

}  // namespace gpunet::report
