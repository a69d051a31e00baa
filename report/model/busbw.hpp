// Algorithm and bus bandwidth as nccl-tests defines them (ANCHORS.md §3). Pure functions.
// bytes is the nccl-tests "size" column: allreduce/broadcast/reduce: the buffer; allgather: the
// total output; reduce_scatter: the total input; alltoall: one rank's send buffer; sendrecv: the
// per-rank send buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpunet::report {

enum class Collective { allreduce, allgather, reduce_scatter, broadcast, reduce, alltoall, sendrecv };

std::string to_string(Collective c);
std::optional<Collective> collective_from_string(const std::string& name);

// busbw / algbw.
double busbw_factor(Collective c, int nranks);

// GB/s = 1e9 bytes per second.
double algbw_GBps(int64_t bytes, double seconds);
double busbw_GBps(Collective c, int64_t bytes, double seconds, int nranks);

}  // namespace gpunet::report
