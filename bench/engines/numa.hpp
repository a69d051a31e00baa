// NUMA placement for host buffers and threads (libnuma). Without NUMA support in the kernel every
// call degrades to "one node, 0", so callers need no special case.
#pragma once

#include <cstddef>
#include <vector>

namespace gpunet::bench::node {

bool numa_usable();
std::vector<int> memory_nodes();   // NUMA nodes with memory, ascending; {0} without NUMA
std::vector<int> node_cpus(int node);  // CPUs of a node this process may use; all of them without NUMA

// Binds the calling thread to the CPUs of `node` (no-op for node < 0 or without NUMA).
void run_on_node(int node);

// NUMA node of the page holding `p`; -1 if unknown.
int node_of_address(const void* p);

// Page-aligned host memory bound to a NUMA node (node < 0: the default policy), touched so that
// every page is placed before it is used. Move-only.
class NodeBuffer {
 public:
  NodeBuffer(std::size_t bytes, int node);
  ~NodeBuffer();
  NodeBuffer(NodeBuffer&& o) noexcept;
  NodeBuffer& operator=(NodeBuffer&& o) noexcept;
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;

  unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }
  int requested_node() const { return node_; }

 private:
  unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  int node_ = -1;
};

}  // namespace gpunet::bench::node
