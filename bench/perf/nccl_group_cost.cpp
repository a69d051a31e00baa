// What a grouped NCCL call (ncclSend + ncclRecv, as alltoall and sendrecv issue) costs per call on
// one GPU with a blocking and with a nonblocking communicator: the nccl suite uses a nonblocking one
// (so that --timeout can bound its initialisation and every wait); a blocking one split off it is
// the candidate to measure on. On a nonblocking one ncclGroupEnd returns ncclInProgress and must be
// polled before the next call. Times 200 calls after 20 warm-ups with CUDA events, for two sizes,
// on a blocking, a nonblocking and a split-off blocking communicator.
//
// A CUDA build makes it (build/nccl_group_cost); by hand on a GPU machine with ci/gpu-check.sh's NCCL:
//   g++ -O2 -std=c++17 bench/perf/nccl_group_cost.cpp -I$CUDA/include -I$NCCL/include
//       -L$CUDA/lib64 -L$NCCL/lib -lcudart -l:libnccl.so.2 -o /tmp/nccl_group_cost   (one line)
//   LD_LIBRARY_PATH=$NCCL/lib /tmp/nccl_group_cost
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void ok(bool good, const char* what) {
  if (!good) {
    std::fprintf(stderr, "nccl_group_cost: %s failed\n", what);
    std::exit(1);
  }
}

// Waits until the nonblocking communicator has finished its last call (spinning, no sleep).
void settle(ncclComm_t comm, ncclResult_t r) {
  while (r == ncclInProgress) ncclCommGetAsyncError(comm, &r);
  ok(r == ncclSuccess, "NCCL call");
}

double per_call_us(ncclComm_t comm, cudaStream_t s, void* in, void* out, size_t count) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto call = [&] {
    settle(comm, ncclGroupStart());
    settle(comm, ncclSend(in, count, ncclFloat, 0, comm, s));
    settle(comm, ncclRecv(out, count, ncclFloat, 0, comm, s));
    settle(comm, ncclGroupEnd());
  };
  for (int i = 0; i < 20; ++i) call();
  cudaEventRecord(a, s);
  for (int i = 0; i < 200; ++i) call();
  cudaEventRecord(b, s);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms * 1e3 / 200;
}

}  // namespace

int main() {
  ok(cudaSetDevice(0) == cudaSuccess, "cudaSetDevice");
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const size_t max_bytes = 128u << 20;
  void *in = nullptr, *out = nullptr;
  ok(cudaMalloc(&in, max_bytes) == cudaSuccess && cudaMalloc(&out, max_bytes) == cudaSuccess, "cudaMalloc");
  // blocking, nonblocking, and blocking split off a nonblocking one (what the nccl suite measures on)
  for (const char* mode : {"blocking", "nonblocking", "split"}) {
    ncclUniqueId id;
    ok(ncclGetUniqueId(&id) == ncclSuccess, "ncclGetUniqueId");
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = std::string(mode) == "blocking" ? 1 : 0;
    ncclComm_t parent = nullptr, comm = nullptr;
    const ncclResult_t r = ncclCommInitRankConfig(&parent, 1, id, 0, &config);
    if (r == ncclInProgress) settle(parent, r); else ok(r == ncclSuccess, "ncclCommInitRankConfig");
    comm = parent;
    if (std::string(mode) == "split") {
      ncclConfig_t child = NCCL_CONFIG_INITIALIZER;
      child.blocking = 1;
      // Split off a nonblocking parent, the child's initialisation may still run when the call
      // returns, even ncclSuccess: the first form of this program (and of the suite) used it at
      // once and NCCL refused ("Attempt to use communicator before the previous operation returned
      // ncclSuccess"). So the child's state is awaited either way. (Not yet run in this form.)
      const ncclResult_t sr = ncclCommSplit(parent, 0, 0, &comm, &child);
      ok(sr == ncclSuccess || sr == ncclInProgress, "ncclCommSplit");
      settle(comm, ncclInProgress);
    }
    for (size_t bytes : {size_t{8192}, max_bytes})
      std::printf("nccl_group_cost: %s communicator, send+recv to self of %zu B: %.1f us per call\n", mode, bytes,
                  per_call_us(comm, s, in, out, bytes / 4));
    if (comm != parent) ncclCommDestroy(comm);
    ncclCommDestroy(parent);
  }
  cudaFree(in);
  cudaFree(out);
  return 0;
}
