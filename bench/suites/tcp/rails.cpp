#include "bench/suites/tcp/rails.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <sstream>

namespace gpunet::bench::tcp {

namespace {

std::string trimmed_entry(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::variant<std::vector<std::string>, std::string> parse_iface_list(const std::string& text) {
  std::vector<std::string> out;
  if (text.empty()) return out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    item = trimmed_entry(item);
    if (item.empty()) return std::string("--tcp-if: empty entry in '" + text + "' (give one interface or CIDR per rail, e.g. eth0,eth1)");
    if (std::find(out.begin(), out.end(), item) != out.end())
      return std::string("--tcp-if: '" + item + "' is given twice (one interface or CIDR per rail)");
    out.push_back(item);
  }
  if (text.back() == ',') return std::string("--tcp-if: empty entry in '" + text + "' (give one interface or CIDR per rail, e.g. eth0,eth1)");
  if (out.size() > 1 && std::find(out.begin(), out.end(), "rails") != out.end())
    return std::string("--tcp-if: 'rails' stands alone (it means every data interface)");
  return out;
}

std::vector<std::string> rail_interfaces(const std::vector<net::IfAddress>& all, const std::string& control_iface,
                                         const std::vector<std::string>& gpu_paired) {
  std::vector<std::string> data, paired;
  for (const auto& a : all)
    if (a.up && !a.loopback && a.ip.family == AF_INET && a.iface != control_iface &&
        std::find(data.begin(), data.end(), a.iface) == data.end())
      data.push_back(a.iface);
  std::sort(data.begin(), data.end());
  for (const auto& name : data)
    if (std::find(gpu_paired.begin(), gpu_paired.end(), name) != gpu_paired.end()) paired.push_back(name);
  return paired.empty() ? data : paired;
}

std::string control_interface(const std::vector<net::IfAddress>& all, const std::string& control_if) {
  if (!control_if.empty()) {
    const auto chosen = net::select_address(all, control_if);
    if (const auto* a = std::get_if<net::IfAddress>(&chosen)) return a->iface;
    return "";
  }
  for (const auto& a : all)
    if (a.up && !a.loopback && a.ip.family == AF_INET) return a.iface;
  return "";
}

std::vector<RailBlame> localise(const std::vector<std::set<std::string>>& slow_hosts, const std::vector<bool>& all_slow) {
  std::vector<RailBlame> out;
  const size_t rails = slow_hosts.size();
  std::vector<size_t> healthy_rails;  // the rails not slow everywhere
  for (size_t k = 0; k < rails; ++k) {
    if (k < all_slow.size() && all_slow[k]) out.push_back({RailBlame::Kind::rail, "", static_cast<int>(k)});
    else healthy_rails.push_back(k);
  }
  std::set<std::string> hosts;
  for (const size_t k : healthy_rails) hosts.insert(slow_hosts[k].begin(), slow_hosts[k].end());
  for (const auto& h : hosts) {
    std::vector<int> on;
    for (const size_t k : healthy_rails)
      if (slow_hosts[k].count(h)) on.push_back(static_cast<int>(k));
    if (rails < 2 || on.size() == healthy_rails.size())
      out.push_back({RailBlame::Kind::node, h, -1});
    else
      for (const int k : on) out.push_back({RailBlame::Kind::nic, h, k});
  }
  return out;
}

}  // namespace gpunet::bench::tcp
