#include "bench/suites/rdma/rails.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace gpunet::bench::rdma {

namespace fs = std::filesystem;

namespace {

// "mlx5_10" -> ("mlx5_", 10); a name without trailing digits -> (name, -1).
std::pair<std::string, long> rail_name_key(const std::string& name) {
  size_t cut = name.size();
  while (cut > 0 && name[cut - 1] >= '0' && name[cut - 1] <= '9') --cut;
  if (cut == name.size()) return {name, -1};
  return {name.substr(0, cut), std::strtol(name.c_str() + cut, nullptr, 10)};
}

// ports/<n>/state holds "4: ACTIVE" on an active port.
bool rail_port_active(const fs::path& state_file) {
  std::ifstream in(state_file);
  std::string line;
  if (!in || !std::getline(in, line)) return false;
  return std::strtol(line.c_str(), nullptr, 10) == 4;
}

std::string rail_item_error(const std::string& item) {
  if (item.empty()) return "--rdma-dev: an empty item in the list; write e.g. mlx5_0,mlx5_1 or mlx5_0:1,mlx5_1:1 or all";
  const auto colon = item.rfind(':');
  if (colon == std::string::npos) return "";
  const std::string dev = item.substr(0, colon), num = item.substr(colon + 1);
  char* end = nullptr;
  const long port = std::strtol(num.c_str(), &end, 10);
  if (dev.empty() || num.empty() || *end != '\0' || port < 1 || port > 255)
    return "--rdma-dev " + item + ": write DEV or DEV:PORT with a port from 1 (e.g. mlx5_0:1)";
  return "";
}

std::string rail_join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

std::string parse_rdma_devs(const std::string& text, RdmaDevRequest& out) {
  out = RdmaDevRequest{};
  if (text.empty()) return "";
  if (text == "all") {
    out.all = true;
    return "";
  }
  std::set<std::string> seen;
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item == "all") return "--rdma-dev: 'all' stands alone (every ACTIVE port); do not list it with devices";
    if (auto e = rail_item_error(item); !e.empty()) return e;
    if (!seen.insert(item).second) return "--rdma-dev: " + item + " is listed twice; each rail needs its own device or port";
    out.names.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return "";
}

std::vector<std::string> active_ports_in_sysfs(const std::string& sys_root) {
  const fs::path base = fs::path(sys_root) / "class/infiniband";
  std::error_code ec;
  std::vector<std::string> devices;
  for (const auto& e : fs::directory_iterator(base, ec)) devices.push_back(e.path().filename().string());
  std::sort(devices.begin(), devices.end(), [](const std::string& a, const std::string& b) { return rail_name_key(a) < rail_name_key(b); });
  std::vector<std::string> out;
  for (const auto& dev : devices) {
    std::vector<long> ports;
    std::error_code pec;
    for (const auto& p : fs::directory_iterator(base / dev / "ports", pec)) {
      const std::string n = p.path().filename().string();
      char* end = nullptr;
      const long port = std::strtol(n.c_str(), &end, 10);
      if (!n.empty() && *end == '\0' && port > 0 && rail_port_active(p.path() / "state")) ports.push_back(port);
    }
    std::sort(ports.begin(), ports.end());
    for (const long port : ports) out.push_back(dev + ":" + std::to_string(port));
  }
  return out;
}

std::vector<PortSelection> select_rails(const Discovery& d, const std::vector<std::string>& names) {
  if (names.empty()) {
    PortSelection none = select_port(d, "");  // says why (no verbs, no devices), else no sysfs ports
    if (none.kind == PortSelection::Kind::use) {
      none = PortSelection{};
      none.reason = "--rdma-dev all: no ACTIVE port under class/infiniband in sysfs";
    }
    return {none};
  }
  std::vector<PortSelection> rails;
  for (const auto& name : names) {
    PortSelection s = select_port(d, name);
    if (s.kind != PortSelection::Kind::use) return {s};
    rails.push_back(s);
  }
  return rails;
}

RailPairing pair_rails(const std::vector<std::vector<std::string>>& per_rank, const std::vector<std::string>& hosts) {
  RailPairing p;
  if (per_rank.empty()) return p;
  size_t most = 0, fewest = 0;
  for (size_t r = 1; r < per_rank.size(); ++r) {
    if (per_rank[r].size() > per_rank[most].size()) most = r;
    if (per_rank[r].size() < per_rank[fewest].size()) fewest = r;
  }
  auto who = [&](size_t r) { return (r < hosts.size() ? hosts[r] : "?") + " (rank " + std::to_string(r) + ")"; };
  auto has = [&](size_t r) {
    const auto& v = per_rank[r];
    return std::to_string(v.size()) + (v.size() == 1 ? " RDMA port" : " RDMA ports") + (v.empty() ? "" : " (" + rail_join(v) + ")");
  };
  if (per_rank[fewest].size() != per_rank[most].size()) {
    p.error = "rdma rails: host " + who(fewest) + " has " + has(fewest) + " where " + who(most) + " has " + has(most) +
              "; rail k pairs the k-th port of every node: bring the missing ports up or name the same number with --rdma-dev";
    return p;
  }
  p.ports.assign(per_rank[0].size(), std::vector<std::string>(per_rank.size()));
  for (size_t r = 0; r < per_rank.size(); ++r)
    for (size_t k = 0; k < per_rank[r].size(); ++k) p.ports[k][r] = per_rank[r][k];
  return p;
}

std::vector<std::string> rail_plan_lines(const RailPairing& p, const std::vector<std::string>& hosts) {
  std::vector<std::string> lines;
  for (size_t k = 0; k < p.ports.size(); ++k) {
    std::string line = "rail " + std::to_string(k) + ":";
    for (size_t r = 0; r < p.ports[k].size(); ++r)
      line += std::string(r ? "," : "") + " " + (r < hosts.size() ? hosts[r] : "?") + "/" + std::to_string(r) + " " + p.ports[k][r];
    lines.push_back(line);
  }
  return lines;
}

}  // namespace gpunet::bench::rdma
