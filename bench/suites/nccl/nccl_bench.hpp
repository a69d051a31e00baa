// (CUDA builds only.) One NCCL collective at one size: device buffers filled from host-built
// patterns (cudaMemcpy, no kernels), the call itself on the communicator's stream, verification of
// the result, and the GPU-side timer of the measurement layer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/engines/nccl_comm.hpp"
#include "bench/core/measure/measurement.hpp"
#include "bench/core/suite.hpp"
#include "bench/engines/patterns.hpp"
#include "report/model/busbw.hpp"

namespace gpunet::bench::gpu {

class NcclCase {
 public:
  NcclCase(report::Collective c, const std::string& dtype, const std::string& op, int64_t bytes, bool in_place,
           const NcclComm& comm);
  ~NcclCase();
  NcclCase(const NcclCase&) = delete;
  NcclCase& operator=(const NcclCase&) = delete;

  const patterns::Shape& shape() const { return shape_; }
  bool moves_no_data() const { return patterns::moves_no_data(c_, n_, in_place_); }
  void init();                       // (re)writes the input patterns
  void enqueue(NcclComm& comm, double timeout_s);  // one collective on the communicator's stream
  int64_t wrong() const;             // wrong elements of the result on this rank (synchronous)

 private:
  unsigned char* result() const;

  report::Collective c_;
  std::string dtype_, op_;
  bool in_place_;
  int rank_, n_;
  int64_t es_;
  patterns::Shape shape_;
  unsigned char* send_ = nullptr;  // device; in place: the one buffer
  unsigned char* recv_ = nullptr;  // device; null in place
};

// cudaEventElapsedTime resolves about half a microsecond.
inline constexpr double kNcclEventResolution_s = 5e-7;

// Batch samples of enqueue-able `op` by the measurement layer (bench/core/measure) with a CUDA event
// pair around each batch on the communicator's stream (with -G/--cudagraph, around the launches of
// the batch captured as a CUDA graph), as step `step`: the samples reduced across mpi_comm as
// --reduce says. Every wait is bounded by the step's remaining --timeout.
measure::Timing time_on_gpu(const SuiteContext& ctx, const std::string& step, MPI_Comm mpi_comm, NcclComm& comm,
                                const std::function<void(double timeout_s)>& op);

}  // namespace gpunet::bench::gpu
