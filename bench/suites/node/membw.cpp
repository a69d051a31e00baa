#include "bench/suites/node/membw.hpp"

#include <algorithm>
#include <cstring>

namespace gpunet::bench::node {

std::string to_string(MemKernel k) {
  switch (k) {
    case MemKernel::read: return "read";
    case MemKernel::write: return "write";
    case MemKernel::copy: return "copy";
    case MemKernel::triad: return "triad";
  }
  return "?";
}

const std::vector<MemKernel>& all_mem_kernels() {
  static const std::vector<MemKernel> k{MemKernel::read, MemKernel::write, MemKernel::copy, MemKernel::triad};
  return k;
}

int64_t kernel_bytes(MemKernel k, int64_t elems) {
  const int64_t b = elems * static_cast<int64_t>(sizeof(double));
  switch (k) {
    case MemKernel::read:
    case MemKernel::write: return b;
    case MemKernel::copy: return 2 * b;
    case MemKernel::triad: return 3 * b;
  }
  return 0;
}

namespace {

// Two lanes of 64 bits: SSE2 on x86-64, NEON on arm64, plain pairs elsewhere (GCC and Clang vector
// extensions). Four of them in flight per step keep the loads and the adds ahead of memory.
using f64x2 = double __attribute__((vector_size(16)));
constexpr std::size_t kLanes = 2, kVectors = 4, kStep = kLanes * kVectors;  // doubles per step

template <typename V> V load_lanes(const void* p) {
  V v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename V> void store_lanes(void* p, V v) { std::memcpy(p, &v, sizeof v); }

// Eight independent partial sums (four two-lane vectors), so that the adds' latency never limits the
// loads; the result depends on every element read.
double read_pass(const double* b, std::size_t begin, std::size_t end) {
  f64x2 s0{}, s1{}, s2{}, s3{};
  std::size_t i = begin;
  for (; i + kStep <= end; i += kStep) {
    s0 += load_lanes<f64x2>(b + i);
    s1 += load_lanes<f64x2>(b + i + 2);
    s2 += load_lanes<f64x2>(b + i + 4);
    s3 += load_lanes<f64x2>(b + i + 6);
  }
  const f64x2 s = (s0 + s1) + (s2 + s3);
  double sum = s[0] + s[1];
  for (; i < end; ++i) sum += b[i];
  return sum;
}

void write_pass(double* a, std::size_t begin, std::size_t end, double scalar) {
  const f64x2 v{scalar, scalar};
  std::size_t i = begin;
  for (; i + kStep <= end; i += kStep) {
    store_lanes(a + i, v);
    store_lanes(a + i + 2, v);
    store_lanes(a + i + 4, v);
    store_lanes(a + i + 6, v);
  }
  for (; i < end; ++i) a[i] = scalar;
}

// Ordinary stores, as the write and triad kernels make and as a plain loop compiles to (memcpy would
// switch to non-temporal stores on large copies, which skip the read-for-ownership that every other
// kernel here and STREAM's loop pay: a different thing from the one the yardstick measures).
void copy_pass(double* a, const double* b, std::size_t begin, std::size_t end) {
  std::size_t i = begin;
  for (; i + kStep <= end; i += kStep)
    for (std::size_t v = 0; v < kStep; v += kLanes) store_lanes(a + i + v, load_lanes<f64x2>(b + i + v));
  for (; i < end; ++i) a[i] = b[i];
}

void triad_pass(double* a, const double* b, const double* c, std::size_t begin, std::size_t end, double scalar) {
  const f64x2 k{scalar, scalar};
  std::size_t i = begin;
  for (; i + kStep <= end; i += kStep)
    for (std::size_t v = 0; v < kStep; v += kLanes)
      store_lanes(a + i + v, load_lanes<f64x2>(b + i + v) + k * load_lanes<f64x2>(c + i + v));
  for (; i < end; ++i) a[i] = b[i] + scalar * c[i];
}

}  // namespace

double run_kernel(MemKernel k, double* a, const double* b, const double* c, std::size_t begin, std::size_t end, double scalar) {
  if (begin >= end) return 0;
  switch (k) {
    case MemKernel::read: return read_pass(b, begin, end);
    case MemKernel::write: write_pass(a, begin, end, scalar); return a[begin];
    case MemKernel::copy: copy_pass(a, b, begin, end); return a[begin];
    case MemKernel::triad: triad_pass(a, b, c, begin, end, scalar); return a[begin];
  }
  return 0;
}

int64_t slice_bytes(MemKernel k, std::size_t elems, int t, int n) {
  const auto [lo, hi] = slice(elems, t, n);
  return kernel_bytes(k, static_cast<int64_t>(hi - lo));
}

std::pair<std::size_t, std::size_t> slice(std::size_t elems, int t, int n) {
  constexpr std::size_t line = 8;  // doubles per 64-byte cache line
  const std::size_t lines = (elems + line - 1) / line;
  const auto un = static_cast<std::size_t>(n), ut = static_cast<std::size_t>(t);
  const std::size_t first = lines * ut / un * line, last = lines * (ut + 1) / un * line;
  return {std::min(first, elems), std::min(last, elems)};
}

}  // namespace gpunet::bench::node
