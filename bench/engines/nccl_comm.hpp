// (CUDA builds only.) An NCCL communicator on an MPI communicator's ranks, one GPU per rank, with
// every wait bounded: initialisation is non-blocking and polled, and a wait for the stream polls
// cudaStreamQuery and ncclCommGetAsyncError. On an error or when the time is up the communicator is
// aborted (ncclCommAbort) and NcclError says what happened.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

namespace gpunet::bench::gpu {

struct NcclError : std::runtime_error {
  enum class Kind { failed, timed_out };
  NcclError(Kind k, const std::string& what) : std::runtime_error(what), kind(k) {}
  Kind kind;
};

class NcclComm {
 public:
  // Collective over mpi_comm: its rank 0 makes the unique id and broadcasts it over MPI.
  NcclComm(MPI_Comm mpi_comm, int device, double timeout_s);
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;

  ncclComm_t get() const { return comm_; }
  cudaStream_t stream() const { return stream_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  int device() const { return device_; }

  // The result of an NCCL call: ncclInProgress is awaited (non-blocking communicator); an error
  // aborts the communicator and throws.
  void check(ncclResult_t r, const std::string& what, double timeout_s);
  // Waits until the stream has drained, or throws (after aborting) on error or timeout.
  void wait(const std::string& what, double timeout_s);
  void abort();

 private:
  [[noreturn]] void fail(NcclError::Kind kind, const std::string& what);

  int device_ = 0, rank_ = 0, size_ = 1;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  bool aborted_ = false;
};

// The CUDA error string of a call, or throws NcclError(failed).
void cuda_check(cudaError_t e, const std::string& what);

}  // namespace gpunet::bench::gpu
