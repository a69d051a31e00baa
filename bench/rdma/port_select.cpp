// select_port: pure, over a Discovery (tests build one by hand).
#include <cstdlib>

#include "bench/rdma/engine.hpp"

namespace gpunet::bench::rdma {

namespace {

std::string port_name(const DeviceEntry& d, const PortEntry& p) { return d.name + ":" + std::to_string(p.port); }

PortSelection use(const DeviceEntry& d, const PortEntry& p, std::string how) {
  PortSelection s;
  s.kind = PortSelection::Kind::use;
  s.device = d.name;
  s.port = p.port;
  s.info = &p.info;
  s.entry = &d;
  s.reason = std::move(how);
  return s;
}

PortSelection not_used(PortSelection::Kind kind, std::string reason) {
  PortSelection s;
  s.kind = kind;
  s.reason = std::move(reason);
  return s;
}

}  // namespace

PortSelection select_port(const Discovery& d, const std::string& wanted) {
  using Kind = PortSelection::Kind;
  if (!d.built_with_verbs) return not_used(Kind::skip, "built without libibverbs");
  if (!d.error.empty()) return not_used(Kind::skip, d.error);
  if (d.devices.empty()) return not_used(Kind::skip, "no RDMA devices");

  std::string want_dev = wanted;
  int want_port = 0;
  if (const auto colon = wanted.rfind(':'); colon != std::string::npos) {
    want_dev = wanted.substr(0, colon);
    char* end = nullptr;
    const std::string num = wanted.substr(colon + 1);
    want_port = static_cast<int>(std::strtol(num.c_str(), &end, 10));
    if (num.empty() || *end != '\0' || want_port < 1)
      return not_used(Kind::fail, "--rdma-dev " + wanted + ": the port must be a number from 1 (e.g. mlx5_0:1)");
  }

  std::string seen;  // every port and its state, for the reasons
  for (const auto& dev : d.devices) {
    if (!want_dev.empty() && dev.name != want_dev) continue;
    if (!dev.error.empty()) seen += (seen.empty() ? "" : ", ") + dev.name + " (" + dev.error + ")";
    for (const auto& p : dev.ports) {
      if (want_port && p.port != want_port) continue;
      if (p.info.active) return use(dev, p, want_dev.empty() ? "first ACTIVE port" : "--rdma-dev " + wanted);
      seen += (seen.empty() ? "" : ", ") + port_name(dev, p) + " " + p.info.state;
    }
  }
  if (want_dev.empty()) return not_used(Kind::skip, "no active RDMA port (" + seen + ")");

  std::string names;
  bool found = false;
  for (const auto& dev : d.devices) {
    names += (names.empty() ? "" : ", ") + dev.name;
    found = found || dev.name == want_dev;
  }
  if (!found) return not_used(Kind::fail, "--rdma-dev " + wanted + ": no such RDMA device (found: " + names + ")");
  if (seen.empty()) return not_used(Kind::fail, "--rdma-dev " + wanted + ": no such port");
  return not_used(Kind::fail, "--rdma-dev " + wanted + ": not ACTIVE (" + seen + ")");
}

}  // namespace gpunet::bench::rdma
