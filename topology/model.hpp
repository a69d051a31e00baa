// The typed model of one node's topology: CPUs, GPUs, NICs, their PCIe links, network interfaces and
// RDMA ports. Filled by the hwloc loader, the NCCL topology XML reader and the sysfs readers; consumed
// by the path classifier, the findings, the summary, the renderers and the JSON writer.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpunet::topo {

// A missing, unreadable or malformed topology input. what() is one line meant for the user.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class DeviceKind { gpu, nic };

// Where the topology came from, and so which path rules apply (see paths.hpp).
enum class SourceFormat { live, hwloc_xml, nccl_xml };

// One PCIe link state: generation (1..6) and lane count; 0 means unknown.
struct LinkState {
  int gen = 0;
  int width = 0;
  bool known() const { return gen > 0 && width > 0; }
  friend bool operator==(const LinkState&, const LinkState&) = default;
};

// The PCIe link of one device, as Linux reports it for the device and for the port above it.
struct PcieLink {
  LinkState current;           // device: negotiated now (idle GPUs drop their speed)
  LinkState max;               // device: what the device can do
  LinkState upstream_current;  // the bridge port above the device
  LinkState upstream_max;
  std::string upstream_bus_id;        // empty when the device sits directly on a root bus
  std::optional<double> hwloc_GBps;   // hwloc's linkspeed attribute (current link), from XML exports

  // The link the device can use: per field, the minimum of the device's and the upstream port's max,
  // ignoring values that are unknown (as NCCL computes it).
  LinkState usable() const;
};

// One step on the way from a device up to its CPU side; only I/O objects (bridges) appear here.
struct Ancestor {
  enum class Kind { pci_bridge, host_bridge };
  Kind kind = Kind::pci_bridge;
  std::string id;      // unique within the node (used to find the lowest common ancestor)
  std::string bus_id;  // PCI-to-PCI bridges: the bridge's own bus id
  std::string label;   // for people: "0000:5c:00.0 10b5:8764" or "host bridge 0000:[5a-5f]"
};

struct Device {
  DeviceKind kind = DeviceKind::gpu;
  std::string bus_id;         // dddd:bb:dd.f, lower case
  uint16_t vendor_id = 0;     // 0 = unknown (NCCL files often omit it)
  uint16_t device_id = 0;
  uint16_t class_id = 0;      // base class << 8 | subclass, e.g. 0x0302
  std::string name;           // model name when the source has one
  std::vector<int> numa_nodes;  // OS indexes of the NUMA node(s) local to the device; empty = unknown
  int package = -1;             // logical package index; -1 = unknown or several
  std::string cpus;             // local CPUs as a list, e.g. "0-23,48-71"
  std::vector<std::string> netdevs;   // OS network interfaces of this PCI function
  std::vector<std::string> rdma_devs; // RDMA devices (mlx5_0, rdmap197s0, ...)
  std::vector<std::string> gpu_devs;  // cudaN, nvmlN, rsmiN, cardN, ... as the source names them
  int cuda_ordinal = -1;              // from a cudaN OS device or the CUDA runtime; -1 = unknown
  std::vector<Ancestor> ancestors;    // nearest first
  PcieLink link;

  int numa() const { return numa_nodes.size() == 1 ? numa_nodes.front() : -1; }
  // An RDMA device below it, or an InfiniBand class (0x0207, 0x0c06), which is RDMA by definition.
  bool rdma_capable() const { return !rdma_devs.empty() || class_id == 0x0207 || class_id == 0x0c06; }
};

enum class IfKind { physical, bond, vlan, bridge, virtual_other };

struct NetInterface {
  std::string name;
  IfKind kind = IfKind::virtual_other;
  std::string bus_id;                 // PCI function behind it; empty for virtual interfaces
  std::optional<int64_t> speed_Mbps;  // none when the kernel reports -1, 0 or nothing
  int mtu = 0;
  double shaped_rate_bps = 0;         // a tc tbf qdisc at the root shapes it to this (live only); 0 = none
  std::string operstate;              // up, down, unknown, ...
  std::string driver;
  std::string mac;
  std::vector<std::string> addresses; // live discovery only
  std::string port_type;              // twisted pair, direct-attach copper, fibre, other; "" = not reported
  std::vector<std::string> members;   // bond members, or the lower devices of another aggregate
  std::string bond_mode;
  std::string master;                 // the bond this interface belongs to
  std::string vlan_parent;
  int vlan_id = -1;
};

struct RdmaPort {
  int port = 0;
  std::string state;        // ACTIVE, DOWN, INIT, ...
  std::string phys_state;   // LinkUp, Polling, Disabled, ...
  std::string link_layer;   // InfiniBand or Ethernet (RoCE)
  int active_mtu = 0;       // bytes; 0 = unknown
  std::string active_mtu_source;  // "verbs", or "derived from netdev MTU"
  double rate_Gbps = 0;     // as the kernel prints it (signalling rate for SDR..FDR)
  double data_rate_Gbps = 0;  // payload rate after line coding (CEILINGS §2)
  int lanes = 0;
  std::string speed_name;   // SDR, QDR, EDR, HDR, NDR, ...
  bool roce_v2_gid = false;
  std::string netdev;       // the netdev a RoCE port runs on
};

struct RdmaDevice {
  std::string name;
  std::string bus_id;
  std::vector<RdmaPort> ports;
};

struct NumaNode {
  int os_index = 0;
  int package = -1;  // logical index; -1 = unknown
  std::string cpus;
};

struct CpuInfo {
  int packages = 0;  // 0 = unknown (NCCL files do not say)
  int cores = 0;
  int pus = 0;
  std::vector<NumaNode> numa_nodes;
};

struct NodeTopology {
  std::string hostname;
  std::string source;   // "live" or the file path
  SourceFormat format = SourceFormat::live;
  CpuInfo cpu;
  std::vector<Device> devices;          // GPUs, then NICs; each group ordered by bus id
  std::vector<NetInterface> interfaces; // every non-loopback interface (live discovery)
  std::vector<RdmaDevice> rdma;         // every RDMA device (live discovery)
  std::vector<std::string> default_route_interfaces;
  std::vector<std::string> notes;       // what could not be read, in one line each
  std::vector<std::string> unread;      // objects of the source left out because they could not be read (findings)
  std::string hwloc_xml;  // a live discovery's hwloc XML export (as `lstopo --of xml`), for the evidence bundle; empty from files

  std::vector<const Device*> gpus() const;
  std::vector<const Device*> nics() const;
  const Device* find_device(const std::string& bus_id) const;
  const NetInterface* find_interface(const std::string& name) const;
  const RdmaDevice* find_rdma(const std::string& name) const;
};

std::string to_string(DeviceKind k);
std::string to_string(SourceFormat f);
std::string to_string(IfKind k);

// "dddd:bb:dd.f" from its parts; parse_bus_id accepts "bb:dd.f" (domain 0) and any case.
std::string format_bus_id(unsigned domain, unsigned bus, unsigned dev, unsigned fn);
std::optional<std::string> parse_bus_id(const std::string& text);

// "0-3,8-11" from sorted or unsorted indexes.
std::string cpu_list(std::vector<int> indexes);

}  // namespace gpunet::topo
