#include "report/judge/networks.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// The --tcp-if value of the run, or "" when it was not given.
std::string tcp_if_of(const Provenance& p) {
  for (std::size_t i = 0; i < p.argv.size(); ++i) {
    if (p.argv[i] == "--tcp-if" && i + 1 < p.argv.size()) return p.argv[i + 1];
    if (p.argv[i].rfind("--tcp-if=", 0) == 0) return p.argv[i].substr(9);
  }
  return "";
}

// The per-node topology section of `host` ({HOST: NODE} or {"nodes": [NODE, ...]}), or null.
const json* node_of(const json& topology, const std::string& host) {
  if (!topology.is_object()) return nullptr;
  if (const auto it = topology.find(host); it != topology.end() && it->is_object()) return &*it;
  const auto* nodes = jsonx::array_at(topology, "nodes");
  if (!nodes) return nullptr;
  for (const auto& n : *nodes)
    if (jsonx::string(n, "hostname").value_or(jsonx::string(n, "host").value_or("")) == host) return &n;
  return nullptr;
}

bool default_route(const Report& rep, const std::string& host, const std::string& iface) {
  const json* node = node_of(rep.topology, host);
  const auto* routes = node ? jsonx::array_at(*node, "default_route_interfaces") : nullptr;
  return routes && std::any_of(routes->begin(), routes->end(), [&](const json& r) { return r.is_string() && r.get<std::string>() == iface; });
}

void add_role(InterfaceUse& u, const std::string& role) {
  if (std::find(u.roles.begin(), u.roles.end(), role) == u.roles.end()) u.roles.push_back(role);
}

}  // namespace

std::vector<InterfaceUse> interfaces_used(const Report& rep) {
  std::vector<InterfaceUse> out;
  std::map<std::pair<std::string, std::string>, size_t> index;  // (host, interface) -> out; a million flows at 1,024 hosts
  const std::string tcp_if = tcp_if_of(rep.provenance);
  const std::string tcp_role = tcp_if.empty() ? "tcp: chosen by default (the first IPv4 interface that is up; no --tcp-if)"
                                              : "tcp: the chosen data network (--tcp-if " + tcp_if + ")";
  // Counts one more figure on (host, interface); true for its first, when its roles are set.
  const auto count = [&](const std::string& host, const std::string& iface) -> std::pair<InterfaceUse&, bool> {
    const auto [it, added] = index.try_emplace({host, iface}, out.size());
    if (added) out.push_back(InterfaceUse{host, iface, {}, 0});
    InterfaceUse& u = out[it->second];
    return {u, u.figures++ == 0};
  };
  for (const auto& r : rep.results) {
    if (r.status == Status::skipped) continue;
    const Transport transport = transport_of(record_kind(r));
    if (transport == Transport::tcp)
      if (const auto iface = jsonx::string(link_facts(r, LinkEnd::own), "iface")) {
        const std::string host = extra_string(r, "src_host").value_or(r.host);
        if (auto [u, first] = count(host, *iface); first) {
          add_role(u, tcp_role);
          if (default_route(rep, host, *iface)) add_role(u, "default route");
        }
      }
    if (transport == Transport::rdma)
      if (const auto dev = jsonx::string(jsonx::section(r.extra, "rdma"), "device"))
        if (auto [u, first] = count(r.host, *dev); first) add_role(u, "RDMA");
  }
  return out;
}

std::optional<Verdict> network_warning(const Report& rep) {
  if (!tcp_if_of(rep.provenance).empty()) return std::nullopt;
  std::set<std::string> hosts, ifaces;
  std::set<std::pair<std::string, std::string>> carried;  // (sending host, interface), as interfaces_used counts them
  for (const auto& r : rep.results) {
    if (r.status == Status::skipped || transport_of(record_kind(r)) != Transport::tcp) continue;
    const auto iface = jsonx::string(link_facts(r, LinkEnd::own), "iface");
    const auto src = extra_string(r, "src_host"), dst = extra_string(r, "dst_host");
    if (iface) carried.emplace(src.value_or(r.host), *iface);
    if (r.status != Status::passed || !src || !dst) continue;
    hosts.insert(*src);
    hosts.insert(*dst);
    if (iface) ifaces.insert(*iface);
  }
  if (hosts.size() < 2 || ifaces.empty()) return std::nullopt;
  std::string list;
  for (const auto& i : ifaces) list += (list.empty() ? "" : ", ") + i;
  const bool routed = std::any_of(carried.begin(), carried.end(), [&](const auto& c) { return default_route(rep, c.first, c.second); });
  return Verdict{"network", VerdictStatus::warn, list, "the data network, chosen with --tcp-if",
                 "the tcp suite measured " + list + ", chosen by default (no --tcp-if): the first IPv4 interface that is up, " +
                     (routed ? "here the default route, " : "") +
                     "usually the management or MPI control network, not the data network; choose it with --tcp-if NAME or CIDR",
                 {}, {}};
}

std::string roles_text(const InterfaceUse& u) {
  std::string roles;
  for (const auto& r : u.roles) roles += (roles.empty() ? "" : "; ") + r;
  return roles;
}

}  // namespace gpunet::report
