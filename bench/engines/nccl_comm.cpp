#include "bench/engines/nccl_comm.hpp"

#include "bench/engines/wait.hpp"

namespace gpunet::bench::gpu {

namespace {
// A grouped call (ncclSend/ncclRecv, as alltoall and sendrecv use) on a nonblocking communicator
// returns ncclInProgress and is enqueued by NCCL's own thread within tens of microseconds. Sleeping
// 200 us before the first look kept the stream idle that long and timed one GPU's alltoall at
// ~300 us at every size (seen on an H200); so the first milliseconds are polled without sleeping.
constexpr std::chrono::microseconds kEnqueueSpin{2000};

std::string nccl_text(ncclResult_t r, ncclComm_t comm) {
  std::string s = ncclGetErrorString(r);
  const char* last = comm ? ncclGetLastError(comm) : ncclGetLastError(nullptr);
  if (last && *last) s += " (" + std::string(last) + ")";
  return s;
}
}  // namespace

void cuda_check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw NcclError(NcclError::Kind::failed, what + ": " + cudaGetErrorString(e));
}

NcclComm::NcclComm(MPI_Comm mpi_comm, int device, double timeout_s) : device_(device) {
  MPI_Comm_rank(mpi_comm, &rank_);
  MPI_Comm_size(mpi_comm, &size_);
  struct {
    int status;
    ncclUniqueId id;
  } hello{};
  if (rank_ == 0) hello.status = static_cast<int>(ncclGetUniqueId(&hello.id));
  MPI_Bcast(&hello, sizeof hello, MPI_BYTE, 0, mpi_comm);
  if (hello.status != ncclSuccess)
    throw NcclError(NcclError::Kind::failed, "ncclGetUniqueId on the first rank failed: " +
                                                 std::string(ncclGetErrorString(static_cast<ncclResult_t>(hello.status))));
  cuda_check(cudaSetDevice(device_), "cudaSetDevice(" + std::to_string(device_) + ")");
  cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  check(ncclCommInitRankConfig(&comm_, size_, hello.id, rank_, &config), "ncclCommInitRank", timeout_s);
}

NcclComm::~NcclComm() {
  if (comm_ && !aborted_) {
    if (ncclCommFinalize(comm_) == ncclInProgress) {
      ncclResult_t state = ncclInProgress;
      wait_until([&](std::string&) {
        ncclCommGetAsyncError(comm_, &state);
        return state == ncclInProgress ? Poll::pending : Poll::done;
      }, 10.0);
    }
    ncclCommDestroy(comm_);
  }
  if (stream_) cudaStreamDestroy(stream_);
}

void NcclComm::abort() {
  if (comm_ && !aborted_) ncclCommAbort(comm_);
  aborted_ = true;
}

void NcclComm::fail(NcclError::Kind kind, const std::string& what) {
  abort();
  throw NcclError(kind, what + "; communicator aborted");
}

void NcclComm::check(ncclResult_t r, const std::string& what, double timeout_s) {
  if (r == ncclInProgress) {
    const auto out = wait_until([&](std::string& err) {
      ncclResult_t state = ncclSuccess;
      ncclCommGetAsyncError(comm_, &state);
      if (state == ncclInProgress) return Poll::pending;
      if (state == ncclSuccess) return Poll::done;
      err = nccl_text(state, comm_);
      return Poll::failed;
    }, timeout_s, std::chrono::microseconds(200), kEnqueueSpin);
    if (out.kind == WaitOutcome::Kind::timed_out) fail(NcclError::Kind::timed_out, what + " did not complete within " + std::to_string(timeout_s) + " s");
    if (out.kind == WaitOutcome::Kind::failed) fail(NcclError::Kind::failed, what + " failed: " + out.error);
    return;
  }
  if (r != ncclSuccess) fail(NcclError::Kind::failed, what + " failed: " + nccl_text(r, comm_));
}

void NcclComm::wait(const std::string& what, double timeout_s) {
  const auto out = wait_until([&](std::string& err) {
    ncclResult_t state = ncclSuccess;
    ncclCommGetAsyncError(comm_, &state);
    if (state != ncclSuccess && state != ncclInProgress) {
      err = nccl_text(state, comm_);
      return Poll::failed;
    }
    const cudaError_t q = cudaStreamQuery(stream_);
    if (q == cudaSuccess) return Poll::done;
    if (q == cudaErrorNotReady) return Poll::pending;
    err = cudaGetErrorString(q);
    return Poll::failed;
  }, timeout_s);
  if (out.kind == WaitOutcome::Kind::timed_out)
    fail(NcclError::Kind::timed_out, what + " did not complete within " + std::to_string(static_cast<int>(timeout_s + 0.5)) + " s");
  if (out.kind == WaitOutcome::Kind::failed) fail(NcclError::Kind::failed, what + " failed: " + out.error);
}

}  // namespace gpunet::bench::gpu
