// Yardstick for the node suite's memory kernels (bench/perf/membw_vs_plain.sh): plain OpenMP loops
// over three arrays of BYTES each, as a user would write them, at THREADS threads, with STREAM's byte
// counts (read 1x, write 1x, copy 2x, triad 3x the array).
// - The arrays are first touched by the threads that use them (the same static schedule).
// - The read sums into eight independent partial sums (the compiler makes them four two-lane
//   vectors), so that the adds' latency does not set the pace; its sum is printed.
// - Stores are ordinary stores the compiler cannot drop (the arrays are read back and printed).
// - Timed the way the node suite times a figure: one untimed pass, one pass to estimate, then REPS
//   batches of ceil(MIN_TIME / estimate) passes; each batch gives its mean time per pass. Prints the
//   bandwidth of the mean of the batch means (the node record's algbw) and of their median.
// Pin the threads with OMP_PLACES / OMP_PROC_BIND (the script does).
// Usage: membw_plain BYTES THREADS [MIN_TIME_S] [REPS]
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct Result {
  double mean_s = 0, median_s = 0;
};

template <typename F> Result time_kernel(double min_time_s, int reps, F pass) {
  pass();
  double t0 = omp_get_wtime();
  pass();
  const double estimate = omp_get_wtime() - t0;
  const int per_batch = std::max(1, static_cast<int>(std::ceil(min_time_s / std::max(estimate, 1e-9))));
  std::vector<double> means;
  for (int r = 0; r < reps; ++r) {
    t0 = omp_get_wtime();
    for (int p = 0; p < per_batch; ++p) pass();
    means.push_back((omp_get_wtime() - t0) / per_batch);
  }
  Result out;
  for (double m : means) out.mean_s += m / reps;
  std::sort(means.begin(), means.end());
  const size_t h = means.size() / 2;
  out.median_s = means.size() % 2 ? means[h] : (means[h - 1] + means[h]) / 2;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const long bytes = argc > 1 ? std::atol(argv[1]) : 128L << 20;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 1;
  const double min_time_s = argc > 3 ? std::atof(argv[3]) : 0.1;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 3;
  const long n = bytes / 64 * 8;  // whole cache lines of doubles
  omp_set_num_threads(threads);
  double* pa = static_cast<double*>(std::aligned_alloc(64, static_cast<size_t>(n) * 8));
  double* pb = static_cast<double*>(std::aligned_alloc(64, static_cast<size_t>(n) * 8));
  double* pc = static_cast<double*>(std::aligned_alloc(64, static_cast<size_t>(n) * 8));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) pa[i] = 0, pb[i] = 1, pc[i] = 2;
  double sum = 0;
  const Result read = time_kernel(min_time_s, reps, [&] {
    double s = 0;
#pragma omp parallel reduction(+ : s)
    {
      double p[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma omp for schedule(static)
      for (long i = 0; i < n; i += 8)
        for (int l = 0; l < 8; ++l) p[l] += pb[i + l];
      s += ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
    }
    sum = s;
  });
  const Result write = time_kernel(min_time_s, reps, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = 3.0;
  });
  const double written = pa[n - 1];
  const Result copy = time_kernel(min_time_s, reps, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = pb[i];
  });
  const double copied = pa[n - 1];
  const Result triad = time_kernel(min_time_s, reps, [&] {
#pragma omp parallel for simd schedule(static)
    for (long i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
  });
  const double gb = static_cast<double>(n) * 8 / 1e9;
  std::printf("membw_plain threads=%d bytes=%ld read=%.3f write=%.3f copy=%.3f triad=%.3f "
              "median_read=%.3f median_write=%.3f median_copy=%.3f median_triad=%.3f check=%.1f,%.1f,%.1f,%.1f\n",
              threads, n * 8, gb / read.mean_s, gb / write.mean_s, 2 * gb / copy.mean_s, 3 * gb / triad.mean_s,
              gb / read.median_s, gb / write.median_s, 2 * gb / copy.median_s, 3 * gb / triad.median_s, sum / static_cast<double>(n), written,
              copied, pa[n - 1]);
  std::free(pa);
  std::free(pb);
  std::free(pc);
  return 0;
}
