#include "bench/engines/numa.hpp"

#include <numa.h>
#include <numaif.h>
#include <sched.h>
#include <sys/mman.h>

#include <cstring>
#include <new>
#include <utility>

namespace gpunet::bench::node {

bool numa_usable() { return numa_available() >= 0; }

std::vector<int> memory_nodes() {
  if (!numa_usable()) return {0};
  std::vector<int> out;
  for (int n = 0; n <= numa_max_node(); ++n) {
    long long free_bytes = 0;
    if (numa_bitmask_isbitset(numa_all_nodes_ptr, static_cast<unsigned>(n)) && numa_node_size64(n, &free_bytes) > 0)
      out.push_back(n);
  }
  return out.empty() ? std::vector<int>{0} : out;
}

std::vector<int> node_cpus(int node) {
  std::vector<int> out;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  sched_getaffinity(0, sizeof allowed, &allowed);
  bitmask* cpus = numa_usable() ? numa_allocate_cpumask() : nullptr;
  if (cpus && numa_node_to_cpus(node, cpus) != 0) {
    numa_free_cpumask(cpus);
    cpus = nullptr;
  }
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed) && (!cpus || numa_bitmask_isbitset(cpus, static_cast<unsigned>(c)))) out.push_back(c);
  if (cpus) numa_free_cpumask(cpus);
  return out;
}

void run_on_node(int node) {
  if (node >= 0 && numa_usable()) numa_run_on_node(node);
}

int node_of_address(const void* p) {
  int node = -1;
  if (get_mempolicy(&node, nullptr, 0, const_cast<void*>(p), MPOL_F_NODE | MPOL_F_ADDR) != 0) return -1;
  return node;
}

NodeBuffer::NodeBuffer(std::size_t bytes, int node) : size_(bytes), node_(node) {
  if (bytes == 0) return;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<unsigned char*>(p);
  if (node >= 0 && numa_usable()) numa_tonode_memory(data_, bytes, node);
  std::memset(data_, 0, bytes);
}

NodeBuffer::~NodeBuffer() {
  if (data_) munmap(data_, size_);
}

NodeBuffer::NodeBuffer(NodeBuffer&& o) noexcept : data_(o.data_), size_(o.size_), node_(o.node_) {
  o.data_ = nullptr;
  o.size_ = 0;
}

NodeBuffer& NodeBuffer::operator=(NodeBuffer&& o) noexcept {
  std::swap(data_, o.data_);
  std::swap(size_, o.size_);
  std::swap(node_, o.node_);
  return *this;
}

}  // namespace gpunet::bench::node
