// Built without CUDA: no GPU memory, so no GPUDirect RDMA.
#include "bench/suites/rdma/buffer.hpp"

namespace gpunet::bench::rdma {

int cuda_device_for_local_rank(int, std::string& why) {
  why = "built without CUDA";
  return -1;
}

std::unique_ptr<Buffer> make_cuda_buffer(size_t, int, std::string& error) {
  error = "built without CUDA";
  return nullptr;
}

}  // namespace gpunet::bench::rdma
