// Host memory for RDMA, placed on the NIC's NUMA node with libnuma when it is available.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bench/suites/rdma/buffer.hpp"

#if GPUNET_RDMA_HAVE_NUMA
#include <numa.h>
#include <numaif.h>
#endif

namespace gpunet::bench::rdma {

uint8_t pattern_byte(uint32_t seed, size_t i) {
  return static_cast<uint8_t>((seed * 2654435761u) >> 24 ^ (i * 31u) ^ (i >> 9));
}

namespace {

class HostBuffer final : public Buffer {
 public:
  HostBuffer(size_t bytes, int numa_node) : size_(round_up(bytes)) {
#if GPUNET_RDMA_HAVE_NUMA
    if (numa_node >= 0 && numa_available() >= 0 && numa_node <= numa_max_node()) {
      data_ = numa_alloc_onnode(size_, numa_node);
      on_numa_ = data_ != nullptr;
    }
#endif
    if (!data_) data_ = std::aligned_alloc(4096, size_);
    if (!data_) throw std::bad_alloc();
    std::memset(data_, 0, size_);  // touch every page, so it is placed now
    describe_ = "host memory";
    const int node = node_of(data_);
    if (node >= 0) describe_ += " on NUMA node " + std::to_string(node);
    if (numa_node >= 0 && node != numa_node)
      describe_ += on_numa_ ? " (asked for node " + std::to_string(numa_node) + ")" : " (could not place it on node " + std::to_string(numa_node) + ")";
  }
  ~HostBuffer() override {
#if GPUNET_RDMA_HAVE_NUMA
    if (on_numa_) {
      numa_free(data_, size_);
      return;
    }
#endif
    std::free(data_);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  void* data() const override { return data_; }
  size_t size() const override { return size_; }
  bool device_memory() const override { return false; }
  std::string describe() const override { return describe_; }
  int export_dmabuf(std::string& why) const override {
    why = "host memory has no dma-buf";
    return -1;
  }
  void fill(uint32_t seed, size_t offset, size_t len) override {
    auto* p = static_cast<uint8_t*>(data_) + offset;
    for (size_t i = 0; i < len; ++i) p[i] = pattern_byte(seed, i);
  }
  void clear(size_t offset, size_t len) override { std::memset(static_cast<uint8_t*>(data_) + offset, 0, len); }
  int64_t count_wrong(uint32_t seed, size_t offset, size_t len) const override {
    const auto* p = static_cast<const volatile uint8_t*>(data_) + offset;  // written by the NIC
    int64_t wrong = 0;
    for (size_t i = 0; i < len; ++i) wrong += p[i] != pattern_byte(seed, i);
    return wrong;
  }

 private:
  static size_t round_up(size_t b) { return (std::max<size_t>(b, 1) + 4095) / 4096 * 4096; }
  // The NUMA node holding the page at p; -1 when unknown.
  static int node_of([[maybe_unused]] void* p) {
#if GPUNET_RDMA_HAVE_NUMA
    int node = -1;
    if (numa_available() >= 0 && get_mempolicy(&node, nullptr, 0, p, MPOL_F_NODE | MPOL_F_ADDR) == 0) return node;
#endif
    return -1;
  }

  size_t size_;
  void* data_ = nullptr;
  bool on_numa_ = false;
  std::string describe_;
};

}  // namespace

std::unique_ptr<Buffer> make_host_buffer(size_t bytes, int numa_node) { return std::make_unique<HostBuffer>(bytes, numa_node); }

}  // namespace gpunet::bench::rdma
