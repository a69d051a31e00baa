#include "bench/suites/train/step.hpp"

#include <chrono>

namespace gpunet::bench {

std::vector<int64_t> bucket_sizes(int64_t grad_bytes, int64_t bucket_bytes) {
  std::vector<int64_t> out;
  if (grad_bytes <= 0 || bucket_bytes <= 0) return out;
  for (int64_t done = 0; done < grad_bytes; done += bucket_bytes) out.push_back(std::min(bucket_bytes, grad_bytes - done));
  return out;
}

std::vector<double> bucket_ready_s(const StepPlan& p) {
  std::vector<double> out;
  int64_t done = 0;
  for (int64_t b : bucket_sizes(p.grad_bytes, p.bucket_bytes)) {
    done += b;
    out.push_back((1 - p.overlappable) * p.compute_s +
                  p.overlappable * p.compute_s * static_cast<double>(done) / static_cast<double>(p.grad_bytes));
  }
  return out;
}

double host_compute(double seconds, const std::function<void(double)>& poll, double poll_every_s) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  double x = 1.0, elapsed = 0, next_poll = 0;
  while (elapsed < seconds) {
    for (int i = 0; i < 256; ++i) x = x * 0.999999 + 1e-7;  // a dependent multiply-add chain
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (elapsed < seconds && elapsed >= next_poll) {
      poll(elapsed);
      next_poll = elapsed + poll_every_s;
    }
  }
  return x;
}

void bucketed_allreduce(const StepPlan& p, const float* send, float* recv, MPI_Comm comm) {
  int64_t offset = 0;
  for (int64_t b : bucket_sizes(p.grad_bytes, p.bucket_bytes)) {
    const int64_t count = b / static_cast<int64_t>(sizeof(float));
    MPI_Allreduce(send + offset, recv + offset, static_cast<int>(count), MPI_FLOAT, MPI_SUM, comm);
    offset += count;
  }
}

double overlapped_step(const StepPlan& p, const float* send, float* recv, MPI_Comm comm) {
  const auto sizes = bucket_sizes(p.grad_bytes, p.bucket_bytes);
  const auto ready = bucket_ready_s(p);
  std::vector<MPI_Request> reqs(sizes.size(), MPI_REQUEST_NULL);
  size_t posted = 0;
  int64_t offset = 0;
  auto poll = [&](double elapsed) {
    while (posted < sizes.size() && ready[posted] <= elapsed) {
      const int64_t count = sizes[posted] / static_cast<int64_t>(sizeof(float));
      MPI_Iallreduce(send + offset, recv + offset, static_cast<int>(count), MPI_FLOAT, MPI_SUM, comm, &reqs[posted]);
      offset += count;
      ++posted;
    }
    for (size_t i = 0; i < posted; ++i) {
      if (reqs[i] == MPI_REQUEST_NULL) continue;
      int done = 0;
      MPI_Test(&reqs[i], &done, MPI_STATUS_IGNORE);
    }
  };
  const double x = host_compute(p.compute_s, poll);
  poll(p.compute_s);  // the last bucket is ready when compute ends
  MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  return x;
}

}  // namespace gpunet::bench
