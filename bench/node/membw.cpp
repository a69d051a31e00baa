#include "bench/node/membw.hpp"

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

double run_kernel(MemKernel k, double* a, const double* b, const double* c, std::size_t begin, std::size_t end, double scalar) {
  switch (k) {
    case MemKernel::read: {
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      std::size_t i = begin;
      for (; i + 4 <= end; i += 4) {
        s0 += b[i];
        s1 += b[i + 1];
        s2 += b[i + 2];
        s3 += b[i + 3];
      }
      for (; i < end; ++i) s0 += b[i];
      return s0 + s1 + s2 + s3;
    }
    case MemKernel::write:
      for (std::size_t i = begin; i < end; ++i) a[i] = scalar;
      return a[begin];
    case MemKernel::copy:
      std::memcpy(a + begin, b + begin, (end - begin) * sizeof(double));
      return a[begin];
    case MemKernel::triad:
      for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + scalar * c[i];
      return a[begin];
  }
  return 0;
}

std::pair<std::size_t, std::size_t> slice(std::size_t elems, int t, int n) {
  constexpr std::size_t line = 8;  // doubles per 64-byte cache line
  const std::size_t lines = (elems + line - 1) / line;
  const auto un = static_cast<std::size_t>(n), ut = static_cast<std::size_t>(t);
  const std::size_t first = lines * ut / un * line, last = lines * (ut + 1) / un * line;
  return {std::min(first, elems), std::min(last, elems)};
}

}  // namespace gpunet::bench::node
