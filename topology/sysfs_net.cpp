#include "topology/sysfs_net.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "topology/sysfs_util.hpp"

namespace gpunet::topo {

namespace fs = std::filesystem;

namespace {

struct VlanEntry {
  int id = -1;
  std::string parent;
};

// /proc/net/vlan/config: two header lines, then "name | id | parent".
std::map<std::string, VlanEntry> read_vlan_config(const std::string& proc_root) {
  std::map<std::string, VlanEntry> out;
  const auto text = fsutil::read_text(fs::path(proc_root) / "net/vlan/config");
  if (!text) return out;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name, bar1, id, bar2, parent;
    if (!(fields >> name >> bar1 >> id >> bar2 >> parent) || bar1 != "|" || bar2 != "|") continue;
    try {
      out[name] = {std::stoi(id), parent};
    } catch (const std::exception&) {
    }
  }
  return out;
}

std::string uevent_value(const fs::path& dir, const std::string& key) {
  const auto text = fsutil::read_text(dir / "uevent");
  if (!text) return "";
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + "=", 0) == 0) return line.substr(key.size() + 1);
  return "";
}

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

NetInterface read_interface(const fs::path& dir, const std::string& name, const std::map<std::string, VlanEntry>& vlans) {
  NetInterface n;
  n.name = name;
  if (const auto s = fsutil::read_line(dir / "speed")) n.speed_Mbps = parse_net_speed(*s);
  n.mtu = static_cast<int>(fsutil::read_int(dir / "mtu").value_or(0));
  n.operstate = fsutil::read_line(dir / "operstate").value_or("");
  n.mac = fsutil::read_line(dir / "address").value_or("");
  n.master = fsutil::link_basename(dir / "master");

  std::vector<std::string> lower;
  for (const auto& entry : fsutil::list_dir(dir))
    if (entry.rfind("lower_", 0) == 0) lower.push_back(entry.substr(6));

  const std::string devtype = uevent_value(dir, "DEVTYPE");
  std::error_code ec;
  if (fs::exists(dir / "device", ec)) {
    n.kind = IfKind::physical;
    n.bus_id = fsutil::pci_function_of(dir / "device").value_or("");
    n.driver = fsutil::link_basename(dir / "device/driver");
  } else if (devtype == "bond" || fs::exists(dir / "bonding", ec)) {
    n.kind = IfKind::bond;
    n.members = split_words(fsutil::read_line(dir / "bonding/slaves").value_or(""));
    if (n.members.empty()) n.members = lower;
    const auto mode = split_words(fsutil::read_line(dir / "bonding/mode").value_or(""));
    if (!mode.empty()) n.bond_mode = mode.front();
  } else if (devtype == "vlan" || vlans.count(name)) {
    n.kind = IfKind::vlan;
    if (const auto it = vlans.find(name); it != vlans.end()) {
      n.vlan_id = it->second.id;
      n.vlan_parent = it->second.parent;
    } else if (!lower.empty()) {
      n.vlan_parent = lower.front();
    }
  } else if (devtype == "bridge" || fs::exists(dir / "bridge", ec)) {
    n.kind = IfKind::bridge;
    n.members = lower;
  } else {
    n.kind = IfKind::virtual_other;
    n.members = lower;  // team and other aggregates show their members as lower_* links
  }
  if (n.driver.empty() && n.kind == IfKind::bond) n.driver = "bonding";
  return n;
}

}  // namespace

std::optional<int64_t> parse_net_speed(const std::string& text) {
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (v <= 0) return std::nullopt;
    return static_cast<int64_t>(v);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<NetInterface> read_net_interfaces(const std::string& sys_root, const std::string& proc_root) {
  const fs::path net = fs::path(sys_root) / "class/net";
  const auto vlans = read_vlan_config(proc_root);
  std::vector<NetInterface> out;
  for (const auto& name : fsutil::list_dir(net)) {
    const fs::path dir = net / name;
    if (name == "lo" || fsutil::read_int(dir / "type").value_or(0) == 772) continue;  // ARPHRD_LOOPBACK
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    out.push_back(read_interface(dir, name, vlans));
  }
  return out;
}

std::vector<std::string> read_default_route_interfaces(const std::string& proc_root) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& name) {
    if (!name.empty() && name != "lo" && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  // IPv4: Iface Destination Gateway Flags RefCnt Use Metric Mask ...; default = destination and mask 0.
  if (const auto text = fsutil::read_text(fs::path(proc_root) / "net/route")) {
    std::istringstream in(*text);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const auto f = split_words(line);
      if (f.size() >= 8 && f[1] == "00000000" && f[7] == "00000000") add(f[0]);
    }
  }
  // IPv6: dest prefixlen src srclen nexthop metric refcnt use flags iface; default = ::/0.
  if (const auto text = fsutil::read_text(fs::path(proc_root) / "net/ipv6_route")) {
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) {
      const auto f = split_words(line);
      if (f.size() >= 10 && f[0] == std::string(32, '0') && f[1] == "00") add(f[9]);
    }
  }
  return out;
}

}  // namespace gpunet::topo
