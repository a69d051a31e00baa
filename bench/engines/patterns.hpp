// Verifiable data for collectives: what each rank sends, what each rank must receive, and the
// buffer shapes nccl-tests uses. Values are small integers, so every sum, max and min is exact in
// every element type. Pure functions, shared by the nccl suite and the scaling sweeps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/core/sizes.hpp"
#include "report/model/busbw.hpp"

namespace gpunet::bench::patterns {

// Input element i of rank r (all_reduce, reduce_scatter, reduce, broadcast root, sendrecv).
double input(int r, int64_t i);
// Element i of the reduction (sum, max, min) of input(*, i) over ranks 0..n-1.
double reduced(const std::string& op, int n, int64_t i);
// alltoall: what rank src sends to rank dst at offset i of its chunk.
double a2a(int src, int dst, int64_t i);

// Buffer shapes, as nccl-tests defines them for a size of `bytes` (ANCHORS.md §3).
struct Shape {
  int64_t count = 0;       // the count argument of the call (per rank or per peer where nccl-tests says so)
  int64_t send_elems = 0;  // elements in the send buffer
  int64_t recv_elems = 0;  // elements in the receive buffer
  int64_t size_bytes = 0;  // nccl-tests' size column, the S of algbw = S / t
  // In place: allgather sends from recv + inplace_offset; reduce_scatter receives at send + inplace_offset.
  int64_t inplace_offset = 0;
};
Shape shape(report::Collective c, int64_t bytes, int64_t elem_size, int nranks, int rank);
bool supports_in_place(report::Collective c);  // not alltoall and sendrecv
// Whether the collective has nothing to move: in place on one rank its output is its input, and
// NCCL enqueues no GPU work (seen on an H200: ~0.22 us a call at every size). Such a figure has a
// time (the call's host cost) but no rate.
bool moves_no_data(report::Collective c, int nranks, bool in_place);

// Send-buffer element i of rank r for collective c (count as in Shape).
double send_value(report::Collective c, int n, int r, int64_t count, int64_t i);
// Whether receive-buffer element i of rank r is defined after the collective (reduce: root only).
bool checked(report::Collective c, int r);
// Receive-buffer element i of rank r after collective c over n ranks (root 0; sendrecv: from r-1).
double expected(report::Collective c, const std::string& op, int n, int r, int64_t count, int64_t i);

// Element types: float, double, int32, int64 (their sizes: dtype_size, bench/core/sizes.hpp).
// A buffer of n elements of dtype with element i = value(i).
template <typename Fn>
std::vector<unsigned char> encode_buffer(const std::string& dtype, int64_t n, Fn value);
void encode(const std::string& dtype, double v, unsigned char* dst);
double decode(const std::string& dtype, const unsigned char* src);

template <typename Fn>
std::vector<unsigned char> encode_buffer(const std::string& dtype, int64_t n, Fn value) {
  const int64_t es = dtype_size(dtype);
  std::vector<unsigned char> out(static_cast<size_t>(n * es));
  for (int64_t i = 0; i < n; ++i) encode(dtype, value(i), out.data() + i * es);
  return out;
}

}  // namespace gpunet::bench::patterns
