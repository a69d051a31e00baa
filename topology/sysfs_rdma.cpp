#include "topology/sysfs_rdma.hpp"

#include <cstdio>
#include <filesystem>
#include <map>

#include "topology/sysfs_util.hpp"

namespace gpunet::topo {

namespace fs = std::filesystem;

namespace {

// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string after_colon(const std::string& s) {
  const auto pos = s.find(':');
  if (pos == std::string::npos) return s;
  const auto start = s.find_first_not_of(' ', pos + 1);
  return start == std::string::npos ? "" : s.substr(start);
}

// Data rate per lane in Gb/s (report/CEILINGS.md §2): the kernel prints the signalling rate up to FDR.
double data_per_lane(const std::string& name) {
  static const std::map<std::string, double> table{
      {"SDR", 2.0},  {"DDR", 4.0},  {"QDR", 8.0},   {"FDR10", 10.0}, {"FDR", 14.0625 * 64.0 / 66.0},
      {"EDR", 25.0}, {"HDR", 50.0}, {"NDR", 100.0}, {"XDR", 200.0}};
  const auto it = table.find(name);
  return it == table.end() ? 0.0 : it->second;
}

bool has_roce_v2_gid(const fs::path& port_dir) {
  for (const auto& idx : fsutil::list_dir(port_dir / "gid_attrs/types")) {
    if (fsutil::read_line(port_dir / "gid_attrs/types" / idx).value_or("") != "RoCE v2") continue;
    const auto gid = fsutil::read_line(port_dir / "gids" / idx).value_or("");
    if (gid.find_first_not_of("0:") != std::string::npos) return true;
  }
  return false;
}

std::string first_ndev(const fs::path& port_dir) {
  for (const auto& idx : fsutil::list_dir(port_dir / "gid_attrs/ndevs"))
    if (auto name = fsutil::read_line(port_dir / "gid_attrs/ndevs" / idx); name && !name->empty()) return *name;
  return "";
}

RdmaPort read_port(const fs::path& dir, int number, const std::vector<NetInterface>& interfaces) {
  RdmaPort p;
  p.port = number;
  p.state = after_colon(fsutil::read_line(dir / "state").value_or(""));
  p.phys_state = after_colon(fsutil::read_line(dir / "phys_state").value_or(""));
  p.link_layer = fsutil::read_line(dir / "link_layer").value_or("");
  if (const auto rate = fsutil::read_line(dir / "rate")) parse_rdma_rate(*rate, p);
  if (p.link_layer == "Ethernet") {
    p.roce_v2_gid = has_roce_v2_gid(dir);
    p.netdev = first_ndev(dir);
    for (const auto& n : interfaces)
      if (n.name == p.netdev && n.mtu > 0) {
        p.active_mtu = roce_mtu_for_netdev_mtu(n.mtu);
        p.active_mtu_source = "derived from netdev MTU";
      }
  }
  return p;
}

}  // namespace

bool parse_rdma_rate(const std::string& text, RdmaPort& port) {
  double rate = 0;
  int lanes = 0;
  char name[16] = {};
  if (std::sscanf(text.c_str(), "%lf Gb/sec (%dX %15[A-Za-z0-9])", &rate, &lanes, name) < 1) return false;
  port.rate_Gbps = rate;
  port.lanes = lanes;
  port.speed_name = name;
  const double per_lane = data_per_lane(port.speed_name);
  port.data_rate_Gbps = (per_lane > 0 && lanes > 0) ? per_lane * lanes : rate;
  return true;
}

int roce_mtu_for_netdev_mtu(int netdev_mtu) {
  const int room = netdev_mtu - (40 + 8 + 12 + 4 + 28 + 4);  // GRH, UDP, BTH, XRC, AtomicETH, ICRC
  for (int mtu = 4096; mtu >= 256; mtu /= 2)
    if (room >= mtu) return mtu;
  return 0;
}

int ib_mtu_bytes(int enum_value) { return (enum_value >= 1 && enum_value <= 5) ? 128 << enum_value : 0; }

std::vector<RdmaDevice> read_rdma_devices(const std::string& sys_root, const std::vector<NetInterface>& interfaces) {
  std::vector<RdmaDevice> out;
  const fs::path base = fs::path(sys_root) / "class/infiniband";
  for (const auto& name : fsutil::list_dir(base)) {
    RdmaDevice d;
    d.name = name;
    d.bus_id = fsutil::pci_function_of(base / name / "device").value_or("");
    for (const auto& port : fsutil::list_dir(base / name / "ports")) {
      try {
        d.ports.push_back(read_port(base / name / "ports" / port, std::stoi(port), interfaces));
      } catch (const std::exception&) {
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace gpunet::topo
