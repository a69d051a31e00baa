// Yardstick for the node suite's memory kernels (bench/perf/membw_vs_plain.sh): plain OpenMP loops
// over three arrays of BYTES each, as a user would write them (STREAM's byte counts: read 1x, write
// 1x, copy 2x, triad 3x the array), at THREADS threads. Every kernel runs PASSES timed passes after one
// untimed pass; prints the mean bandwidth over the passes (GB/s = 1e9 B/s), as the node suite does.
// Usage: membw_plain BYTES THREADS PASSES
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

template <typename F> double mean_pass_s(int passes, F pass) {
  pass();
  const double t0 = omp_get_wtime();
  for (int p = 0; p < passes; ++p) pass();
  return (omp_get_wtime() - t0) / passes;
}

}  // namespace

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? std::atol(argv[1]) : 128L << 20;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const int passes = argc > 3 ? std::atoi(argv[3]) : 20;
  const long n = bytes / 8;
  omp_set_num_threads(threads);
  std::vector<double> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  double* pa = a.data();
  const double* pb = b.data();
  const double* pc = c.data();
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) a[i] = 0, b[i] = 1, c[i] = 2;  // first touch by the threads that use them
  double sink = 0;
  const double read = mean_pass_s(passes, [&] {
    double s = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : s)
    for (long i = 0; i < n; ++i) s += pb[i];
    sink += s;
  });
  const double write = mean_pass_s(passes, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = 3.0;
  });
  const double copy = mean_pass_s(passes, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = pb[i];
  });
  const double triad = mean_pass_s(passes, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
  });
  const double gb = static_cast<double>(n) * 8 / 1e9;
  std::printf("membw_plain threads=%d bytes=%ld read=%.3f write=%.3f copy=%.3f triad=%.3f check=%.1f\n", threads, bytes,
              gb / read, gb / write, 2 * gb / copy, 3 * gb / triad, sink + a[static_cast<size_t>(n - 1)]);
  return 0;
}
