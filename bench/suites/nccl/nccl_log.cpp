#include "bench/suites/nccl/nccl_log.hpp"

#include "common/strings.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace gpunet::bench::gpu {

namespace {

using gpunet::json;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string part; std::getline(ss, part, sep);) out.push_back(part);
  return out;
}

// "[0]mlx5_0:1/IB" or "[1]eth0:10.0.0.1<0>"
NcclNetDevice parse_device(int index, const std::string& text) {
  NcclNetDevice d;
  d.index = index;
  const auto colon = text.find(':');
  d.name = text.substr(0, colon);
  if (colon == std::string::npos) return d;
  const std::string rest = text.substr(colon + 1);
  const auto slash = rest.find('/');
  const bool ib_style = slash != std::string::npos && !rest.empty() &&
                        std::all_of(rest.begin(), rest.begin() + static_cast<long>(slash), [](char c) { return c >= '0' && c <= '9'; });
  if (ib_style && slash > 0) {
    d.port = std::stoi(rest.substr(0, slash));
    d.link = rest.substr(slash + 1);
  } else {
    d.address = rest.substr(0, rest.find('<'));
  }
  return d;
}

void parse_devices(const std::string& list, NcclLog& log) {
  static const std::regex dev_re(R"(\[(\d+)\]([^\s\[;]+))");
  log.net_devices.clear();
  for (auto it = std::sregex_iterator(list.begin(), list.end(), dev_re); it != std::sregex_iterator(); ++it)
    log.net_devices.push_back(parse_device(std::stoi((*it)[1]), (*it)[2]));
  static const std::regex oob_re(R"(OOB ([^:\s]+))");
  std::smatch m;
  if (std::regex_search(list, m, oob_re)) log.oob_interface = m[1];
}

void add_connection(NcclLog& log, int peer, const std::string& via) {
  NcclPeerPath& p = log.peers[peer];
  if (p.lines++ == 0) p.via = via;
  const std::string transport = transport_of_via(via);
  p.transports.insert(transport);
  if (transport.rfind("NET/", 0) != 0) return;
  const auto parts = split(via, '/');
  bool gdr = false;
  for (size_t i = 2; i < parts.size(); ++i) {
    if (i == 2) {
      const auto paren = parts[i].find('(');
      try {
        p.net_devs.insert(std::stoi(parts[i].substr(0, paren)));
        if (paren != std::string::npos) p.proxy_rank = std::stoi(parts[i].substr(paren + 1));
      } catch (const std::exception&) {
      }
    } else if (parts[i].rfind("GDRDMA", 0) == 0) {
      gdr = true;
    }
  }
  p.net_gdr = p.net_gdr && gdr;
}

void parse_line(const std::string& line, int my_rank, NcclLog& log) {
  static const std::regex version_re(R"(NCCL version (\S+))");
  static const std::regex network_re(R"(Using network (.+)$)");
  static const std::regex devices_re(R"(NET/(\w+) ?: ?Using (.*)$)");
  static const std::regex conn_re(
      R"((?:Channel|Ring) \d+(?:/\d+)? : (\d+)(?:\[[0-9a-fA-Fx]+\])? -> (\d+)(?:\[[0-9a-fA-Fx]+\])?(?: \[(send|receive)\])? via (.+)$)");
  std::smatch m;
  if (line.find(" via ") != std::string::npos && std::regex_search(line, m, conn_re)) {
    const int a = std::stoi(m[1]), b = std::stoi(m[2]);
    const int me = my_rank >= 0 ? my_rank : (m[3] == "receive" ? b : a);
    if (a == me || b == me) add_connection(log, a == me ? b : a, trim(m[4]));
  } else if (const auto w = line.find("NCCL WARN "); w != std::string::npos) {
    log.warnings.push_back(trim(line.substr(w + 10)));
  } else if (std::regex_search(line, m, version_re)) {
    if (log.version.empty()) log.version = m[1];
  } else if (std::regex_search(line, m, network_re)) {
    log.network = trim(m[1]);
  } else if (line.find("NET/") != std::string::npos && std::regex_search(line, m, devices_re)) {
    parse_devices(m[2], log);
  }
}

int transport_rank(const std::string& t) {
  if (t.rfind("NET/", 0) == 0) return 0;
  if (t.rfind("SHM/", 0) == 0) return 1;
  if (t.rfind("P2P/", 0) == 0) return 2;
  return 3;
}

// The transport that limits traffic: NET over SHM over P2P (joined when several of one rank).
std::string limiting_transport(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  int best = 4;
  for (const auto& n : names) best = std::min(best, transport_rank(n));
  std::vector<std::string> pick;
  for (const auto& n : names)
    if (transport_rank(n) == best) pick.push_back(n);
  return join(pick, ",");
}

std::vector<std::string> unique_sorted(std::vector<std::string> v) {
  v.erase(std::remove(v.begin(), v.end(), std::string()), v.end());
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::vector<std::string> comma_items(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_string()) return {};
  return split(j[key].get<std::string>(), ',');
}

}  // namespace

std::string transport_of_via(const std::string& via) {
  const auto parts = split(via, '/');
  if (parts.size() < 2) return trim(via);
  return trim(parts[0]) + "/" + trim(parts[1]);
}

NcclLog parse_nccl_log(std::istream& in, int my_rank) {
  NcclLog log;
  for (std::string line; std::getline(in, line);) parse_line(line, my_rank, log);
  return log;
}

NcclLog parse_nccl_log_text(const std::string& text, int my_rank) {
  std::istringstream in(text);
  return parse_nccl_log(in, my_rank);
}

json summarize(const NcclLog& log) {
  json transports = json::object();
  std::vector<std::string> names, nics, ifaces;
  bool any_net = false, gdr = true;
  json peers = json::object();
  for (const auto& [peer, p] : log.peers) {
    peers[std::to_string(peer)] = p.via;
    for (const auto& t : p.transports) {
      transports[t].push_back(peer);
      names.push_back(t);
    }
    if (p.net_devs.empty()) continue;
    any_net = true;
    gdr = gdr && p.net_gdr;
    for (int dev : p.net_devs) {
      const auto it = std::find_if(log.net_devices.begin(), log.net_devices.end(), [&](const auto& d) { return d.index == dev; });
      const std::string name = it != log.net_devices.end() ? it->name : "netdev" + std::to_string(dev);
      nics.push_back(name);
      if (log.network == "Socket") ifaces.push_back(name);
    }
  }
  json j = {{"version", log.version}, {"net", log.network}, {"transport", limiting_transport(unique_sorted(names))},
            {"transports", transports}, {"nic", join(unique_sorted(nics), ",")}, {"peers", peers}};
  if (any_net) j["gdr"] = gdr;
  if (!ifaces.empty()) j["iface"] = join(unique_sorted(ifaces), ",");
  if (!log.oob_interface.empty()) j["oob_iface"] = log.oob_interface;
  if (!log.warnings.empty()) j["warnings"] = log.warnings;
  return j;
}

json merge_summaries(const std::vector<json>& per_rank) {
  std::vector<std::string> versions, nets, names, nics, ifaces;
  json transports = json::object();
  bool any_gdr_key = false, gdr = true;
  for (size_t r = 0; r < per_rank.size(); ++r) {
    const json& s = per_rank[r];
    if (!s.is_object()) continue;
    versions.push_back(s.value("version", ""));
    nets.push_back(s.value("net", ""));
    if (s.contains("transports") && s["transports"].is_object())
      for (const auto& [name, _] : s["transports"].items()) {
        transports[name].push_back(static_cast<int>(r));
        names.push_back(name);
      }
    for (const auto& n : comma_items(s, "nic")) nics.push_back(n);
    for (const auto& n : comma_items(s, "iface")) ifaces.push_back(n);
    if (s.contains("gdr") && s["gdr"].is_boolean()) {
      any_gdr_key = true;
      gdr = gdr && s["gdr"].get<bool>();
    }
  }
  json j = {{"version", join(unique_sorted(versions), ", ")}, {"net", join(unique_sorted(nets), ",")},
            {"transport", limiting_transport(unique_sorted(names))}, {"transports", transports},
            {"nic", join(unique_sorted(nics), ",")}};
  if (any_gdr_key) j["gdr"] = gdr;
  if (!ifaces.empty()) j["iface"] = join(unique_sorted(ifaces), ",");
  return j;
}

}  // namespace gpunet::bench::gpu
