// The RDMA engine as the suite sees it, with no verbs types: device discovery, the choice of a port,
// and an Endpoint (one RC queue pair with its buffer) that connects to a peer and runs operations.
// verbs_*.cpp implement it with libibverbs; verbs_none.cpp (built without libibverbs) reports why not.
//
// Errors never hang: every wait polls with a deadline, and an endpoint that failed once stays failed
// (every later operation returns false at once), keeping the first error: the verbs call or
// completion status (ibv_wc_status_str) that went wrong.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/suites/rdma/buffer.hpp"
#include "bench/suites/rdma/gid.hpp"
#include "bench/suites/rdma/nic_sysfs.hpp"
#include "bench/suites/rdma/port_attr.hpp"
#include "bench/suites/rdma/qp_info.hpp"
#include "topology/model.hpp"

namespace gpunet::bench::rdma {

struct PortEntry {
  int port = 0;
  PortInfo info;
};

struct DeviceEntry {
  std::string name;
  NicPci pci;
  std::vector<PortEntry> ports;
  std::string error;  // the device could not be opened or queried
};

struct Discovery {
  bool built_with_verbs = false;
  std::string error;  // ibv_get_device_list failed (other than "none there")
  std::vector<DeviceEntry> devices;
};

Discovery discover_devices(const std::string& sys_root);

// Which port this rank uses: `wanted` is "" (first ACTIVE port), "dev" (its first ACTIVE port) or
// "dev:port". A skip means nothing here can run (no devices, none active); a failure means the user
// asked for something that is not there or not active.
struct PortSelection {
  enum class Kind { use, skip, fail } kind = Kind::skip;
  std::string device;
  int port = 0;
  const PortInfo* info = nullptr;
  const DeviceEntry* entry = nullptr;
  std::string reason;  // skip/fail: why; use: how it was chosen
  int gpu_index = -1;         // the rank's GPU (CUDA ordinal) when the choice followed it
  std::string gpu_nic_path;   // X, PIX, PXB, PHB, NODE or SYS between that GPU and the NIC
};
PortSelection select_port(const Discovery& d, const std::string& wanted);

// The port of the RDMA NIC nearest to GPU `cuda_ordinal` in the topology model (path classes as
// nvidia-smi topo -m names them). Several NICs equally near: the GPUs take turns (ordinal modulo
// their count). A nearest NIC without an ACTIVE port, or a GPU the model does not know: the first
// ACTIVE port, and the reason says why.
PortSelection select_port_near_gpu(const Discovery& d, const topo::NodeTopology& t, int cuda_ordinal);

enum class MemoryKind { host, cuda };

struct EndpointConfig {
  std::string sys_root = "/sys";
  std::string device;
  int port = 1;
  GidPolicy gid;
  size_t half_bytes = 0;      // size of each half of the buffer (the largest message, page aligned)
  MemoryKind memory = MemoryKind::host;
  int numa_node = -1;         // host memory: where to place it
  int cuda_device = -1;       // cuda memory: which GPU
  int tx_depth = 128;         // WRITEs in flight
  int rx_depth = 256;         // receive requests kept posted (for WRITE with immediate)
  double deadline_s = 10;     // the longest any wait lasts
  uint32_t psn_seed = 0;      // start PSN is derived from this (the rank)
};

// What the endpoint ended up with, for the records.
struct EndpointFacts {
  PortInfo port;
  GidChoice gid;          // gid.ok false on InfiniBand without --gid-index (LID routing)
  std::string memory;     // Buffer::describe()
  std::string registration;  // "ibv_reg_mr", "ibv_reg_dmabuf_mr (dma-buf)", "ibv_reg_mr on GPU memory (peer memory)"
  std::string registration_notes;  // why the preferred path did not work, when it did not
  int max_inline = 0;
};

class Endpoint {
 public:
  virtual ~Endpoint() = default;
  virtual QpInfo local_info() const = 0;
  virtual const EndpointFacts& facts() const = 0;
  // INIT -> RTR -> RTS towards `remote`. false with error() set when a transition fails.
  virtual bool connect(const QpInfo& remote) = 0;

  // `count` WRITEs of `bytes` from this end's source half to the peer's target half, at most
  // tx_depth in flight; the last carries an immediate so the peer sees the end. Returns once all
  // completed. Bidirectional mode is both ends calling it and then wait_immediate().
  virtual bool write_burst(int64_t bytes, int count) = 0;
  // Waits for one WRITE with immediate from the peer (the end of its burst, or a ping).
  virtual bool wait_immediate() = 0;
  // One WRITE with immediate of `bytes` (a ping or a pong); does not wait for its completion.
  virtual bool ping(int64_t bytes) = 0;

  virtual Buffer& buffer() = 0;
  virtual size_t half_bytes() const = 0;  // where the target half starts (the buffer may be larger)
  virtual const std::string& error() const = 0;
  bool failed() const { return !error().empty(); }
};

// Opens the device, allocates and registers the buffer, creates the queue pair (to INIT) and posts
// receives. nullptr with `error` set on failure.
std::unique_ptr<Endpoint> open_endpoint(const EndpointConfig& cfg, std::string& error);

}  // namespace gpunet::bench::rdma
