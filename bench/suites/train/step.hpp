// One emulated data-parallel training step: a host compute phase of a chosen length, during whose
// backward part the gradient buckets become ready one by one and are all-reduced with
// MPI_Iallreduce, progressed by MPI_Test from inside the compute loop (as DDP overlaps its bucket
// all-reduces with the backward pass). The schedule is pure; the step itself is collective.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <mpi.h>

namespace gpunet::bench {

struct StepPlan {
  double compute_s = 0.5;
  double overlappable = 2.0 / 3.0;  // the backward pass's share of compute (report/training/training_model.hpp)
  int64_t grad_bytes = 32LL << 20;
  int64_t bucket_bytes = 25LL << 20;
};

// Sizes of the buckets: floor(G/B) of B, then G mod B when not 0.
std::vector<int64_t> bucket_sizes(int64_t grad_bytes, int64_t bucket_bytes);
// When bucket i is ready, in seconds from the start of compute: the forward part (1-f)·C runs first,
// then bucket i is ready after the share of the backward part f·C of the bytes up to its end:
//   t_i = (1-f)·C + f·C · (bytes of buckets 0..i) / G
std::vector<double> bucket_ready_s(const StepPlan& p);

// Spins on a floating-point loop for `seconds` of wall time, calling `poll(elapsed)` about every
// `poll_every_s`; returns a value of the arithmetic so the loop is not optimised away.
double host_compute(double seconds, const std::function<void(double)>& poll, double poll_every_s = 20e-6);

// The bucketed all-reduce alone, blocking: one MPI_Allreduce per bucket (float sum).
void bucketed_allreduce(const StepPlan& p, const float* send, float* recv, MPI_Comm comm);
// One overlapped step: compute with the buckets posted as they become ready and progressed during the
// compute loop, then MPI_Waitall for what is left. Collective over comm.
double overlapped_step(const StepPlan& p, const float* send, float* recv, MPI_Comm comm);

}  // namespace gpunet::bench
