// Host memory bandwidth kernels, STREAM-like, each over one thread's slice of buffers placed on one
// NUMA node. Bytes counted as STREAM counts them: read 1x, write 1x, copy 2x, triad 3x the slice.
// With t threads one pass of the whole array is t slices, one per thread, run at the same time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpunet::bench::node {

enum class MemKernel { read, write, copy, triad };
std::string to_string(MemKernel k);
const std::vector<MemKernel>& all_mem_kernels();

// Bytes one pass over `elems` doubles moves.
int64_t kernel_bytes(MemKernel k, int64_t elems);

// One pass of kernel k over elements [begin, end) of a, b, c (doubles), vectorised (two-lane vectors,
// four in flight) so that memory, not the core, sets the pace. Returns a value that depends on the
// data (feed it to benchmark::DoNotOptimize); read returns the sum.
double run_kernel(MemKernel k, double* a, const double* b, const double* c, std::size_t begin, std::size_t end, double scalar);

// Thread t of n gets elements [first, last) of `elems`, in whole cache lines.
std::pair<std::size_t, std::size_t> slice(std::size_t elems, int t, int n);

// Bytes one pass of thread t of n moves over its slice of `elems`.
int64_t slice_bytes(MemKernel k, std::size_t elems, int t, int n);

}  // namespace gpunet::bench::node
