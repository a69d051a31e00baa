// The memory an RDMA endpoint registers: host memory placed on a NUMA node (the NIC's), or GPU memory
// for GPUDirect RDMA. Two halves: [0, half) is the source of this end's WRITEs, [half, 2*half) the
// target of the peer's. fill/count_wrong write and check a pattern for data verification.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace gpunet::bench::rdma {

class Buffer {
 public:
  virtual ~Buffer() = default;
  virtual void* data() const = 0;
  virtual size_t size() const = 0;
  virtual bool device_memory() const = 0;
  virtual std::string describe() const = 0;  // "host memory on NUMA node 1" / "cuda:0 memory"
  // GPU memory: a dma-buf file descriptor for the whole buffer (the caller closes it), or -1 with why.
  virtual int export_dmabuf(std::string& why) const = 0;
  // Pattern byte i of region [offset, offset+len) is a function of seed and i.
  virtual void fill(uint32_t seed, size_t offset, size_t len) = 0;
  virtual void clear(size_t offset, size_t len) = 0;
  virtual int64_t count_wrong(uint32_t seed, size_t offset, size_t len) const = 0;
};

uint8_t pattern_byte(uint32_t seed, size_t i);

// Page-aligned host memory, placed on `numa_node` when >= 0 and libnuma works. `note` says where
// the pages are (checked after touching them), or why placement was not possible.
std::unique_ptr<Buffer> make_host_buffer(size_t bytes, int numa_node);

// GPU memory on CUDA device `device` (the rank's GPU). nullptr with `error` set when there is no CUDA
// (not built with it, no driver, no device) or the allocation fails.
std::unique_ptr<Buffer> make_cuda_buffer(size_t bytes, int device, std::string& error);

// The CUDA device a rank uses: local rank modulo the visible device count; -1 with `why` when none.
int cuda_device_for_local_rank(int local_rank, std::string& why);

}  // namespace gpunet::bench::rdma
