// GPU memory for GPUDirect RDMA (built only with CUDA). The runtime allocates; the driver's
// cuMemGetHandleForAddressRange, reached through the runtime's entry-point query so that the binary
// still starts on machines without the GPU driver, exports the allocation as a dma-buf.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <vector>

#include "bench/suites/rdma/buffer.hpp"

namespace gpunet::bench::rdma {

namespace {

constexpr size_t kGranule = 2u << 20;  // device allocations come in 2 MiB pages

using GetHandleFn = CUresult (*)(void*, CUdeviceptr, size_t, CUmemRangeHandleType, unsigned long long);
using ErrorStringFn = CUresult (*)(CUresult, const char**);

template <typename Fn>
Fn driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return nullptr;
  return reinterpret_cast<Fn>(fn);
}

std::string driver_error(CUresult r) {
  const char* text = nullptr;
  if (auto fn = driver_entry<ErrorStringFn>("cuGetErrorString"); fn && fn(r, &text) == CUDA_SUCCESS && text) return text;
  return "CUresult " + std::to_string(static_cast<int>(r));
}

class CudaBuffer final : public Buffer {
 public:
  CudaBuffer(void* p, size_t size, int device) : data_(p), size_(size), device_(device) {}
  ~CudaBuffer() override {
    cudaSetDevice(device_);
    cudaFree(data_);
  }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  void* data() const override { return data_; }
  size_t size() const override { return size_; }
  bool device_memory() const override { return true; }
  std::string describe() const override { return "cuda:" + std::to_string(device_) + " memory"; }

  int export_dmabuf(std::string& why) const override {
    const auto get_handle = driver_entry<GetHandleFn>("cuMemGetHandleForAddressRange");
    if (!get_handle) {
      why = "the CUDA driver has no cuMemGetHandleForAddressRange (driver older than CUDA 11.7)";
      return -1;
    }
    int fd = -1;
    const CUresult r = get_handle(&fd, reinterpret_cast<CUdeviceptr>(data_), size_, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
    if (r != CUDA_SUCCESS) {
      why = "cuMemGetHandleForAddressRange: " + driver_error(r);
      return -1;
    }
    return fd;
  }
  void fill(uint32_t seed, size_t offset, size_t len) override {
    std::vector<uint8_t> host(len);
    for (size_t i = 0; i < len; ++i) host[i] = pattern_byte(seed, i);
    cudaMemcpy(static_cast<uint8_t*>(data_) + offset, host.data(), len, cudaMemcpyHostToDevice);
  }
  void clear(size_t offset, size_t len) override { cudaMemset(static_cast<uint8_t*>(data_) + offset, 0, len); }
  int64_t count_wrong(uint32_t seed, size_t offset, size_t len) const override {
    std::vector<uint8_t> host(len);
    if (cudaMemcpy(host.data(), static_cast<uint8_t*>(data_) + offset, len, cudaMemcpyDeviceToHost) != cudaSuccess)
      return static_cast<int64_t>(len);
    int64_t wrong = 0;
    for (size_t i = 0; i < len; ++i) wrong += host[i] != pattern_byte(seed, i);
    return wrong;
  }

 private:
  void* data_;
  size_t size_;
  int device_;
};

}  // namespace

int cuda_device_for_local_rank(int local_rank, std::string& why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    why = std::string("no CUDA device (") + cudaGetErrorString(e) + ")";
    return -1;
  }
  if (n <= 0) {
    why = "no CUDA device";
    return -1;
  }
  return local_rank % n;
}

std::unique_ptr<Buffer> make_cuda_buffer(size_t bytes, int device, std::string& error) {
  const size_t size = (std::max<size_t>(bytes, 1) + kGranule - 1) / kGranule * kGranule;
  void* p = nullptr;
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaMalloc(&p, size);
  if (e != cudaSuccess) {
    error = "cuda:" + std::to_string(device) + ": cannot allocate " + std::to_string(size) + " B: " + cudaGetErrorString(e);
    return nullptr;
  }
  cudaMemset(p, 0, size);
  return std::make_unique<CudaBuffer>(p, size, device);
}

}  // namespace gpunet::bench::rdma
