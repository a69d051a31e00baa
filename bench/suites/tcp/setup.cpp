#include "bench/suites/tcp/setup.hpp"

#include <sys/socket.h>

#include <iostream>
#include <stdexcept>
#include <system_error>

#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/link_info.hpp"
#include "bench/suites/tcp/rails.hpp"
#include "topology/pairing.hpp"
#include "topology/topology.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;

int Setup::participant_of(int rank) const {
  const auto& all = nodes();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].rank == rank) return static_cast<int>(i);
  return -1;
}

std::vector<int> participant_ranks(const MpiContext& mpi) {
  std::vector<int> out;
  if (mpi.num_nodes <= 1) {
    for (int r = 0; r < mpi.size; ++r) out.push_back(r);
    return out;
  }
  std::vector<bool> seen(static_cast<size_t>(mpi.num_nodes), false);
  for (int r = 0; r < mpi.size; ++r) {
    const auto node = static_cast<size_t>(mpi.node_of_rank[static_cast<size_t>(r)]);
    if (!seen[node]) out.push_back(r);
    seen[node] = true;
  }
  return out;
}

std::variant<net::IfAddress, std::string> choose_address(const std::vector<net::IfAddress>& all, const std::string& spec,
                                                    bool single_node) {
  if (!spec.empty()) return net::select_address(all, spec);
  if (single_node) return net::select_address(all, "127.0.0.1");
  for (const auto& a : all)
    if (a.up && !a.loopback && a.ip.family == AF_INET) return a;
  return std::string("no non-loopback IPv4 address is up on this host (choose one with --tcp-if NAME or CIDR)");
}

namespace {

// The interfaces this node's topology pairs with a GPU (none when it has no GPU or can't be read).
std::vector<std::string> gpu_paired_interfaces_here() {
  try {
    topo::SystemRoots roots;
    roots.live_queries = false;  // hwloc and sysfs suffice: no CUDA or ibverbs start-up inside the tcp suite
    return topo::gpu_paired_interfaces(topo::discover_local(roots));
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace

std::variant<std::vector<std::string>, std::string> rail_specs(const TcpConfig& cfg, const std::string& control_if) {
  if (cfg.ifaces.empty()) return std::vector<std::string>{cfg.iface};
  if (cfg.ifaces != std::vector<std::string>{"rails"}) return cfg.ifaces;
  const auto all = net::list_addresses();
  auto found = rail_interfaces(all, control_interface(all, control_if), gpu_paired_interfaces_here());
  if (found.empty())
    return std::string("no up IPv4 interface other than the control channel's (name the rails with --tcp-if IF0,IF1,...)");
  return found;
}

namespace {

// This participant's end of one rail: its address, link and listener, or why it has none.
json rail_end_json(const std::string& spec, bool single_node, const TcpConfig& cfg, RailEnds& rail) {
  json end = {{"error", ""}, {"input_error", false}};
  const auto chosen = choose_address(net::list_addresses(), spec, single_node);
  if (const auto* why = std::get_if<std::string>(&chosen)) {
    end["error"] = (spec.empty() ? std::string("address") : "--tcp-if " + spec) + ": " + *why;
    end["input_error"] = true;
    return end;
  }
  const auto& a = std::get<net::IfAddress>(chosen);
  rail.source = a.ip;
  // On one node all traffic between local addresses goes through the loopback device.
  LinkFacts link = read_link_facts(single_node ? "lo" : a.iface, a.ip.family == AF_INET6);
  link.stated_rate_bps = single_node ? 0.0 : cfg.link_rate_bps;
  try {
    net::SocketOptions opt;
    opt.sndbuf = static_cast<int>(cfg.sndbuf);
    opt.rcvbuf = static_cast<int>(cfg.rcvbuf);
    rail.listener = std::make_unique<net::Listener>(a.ip, opt);
    end["endpoint"] = rail.listener->endpoint();
  } catch (const std::system_error& e) {
    end["error"] = std::string("cannot listen: ") + e.what();
  }
  end["link"] = link;
  end["iface"] = a.iface;
  return end;
}

}  // namespace

Setup make_setup(const SuiteContext& ctx) {
  const auto& mpi = ctx.mpi;
  const auto& cfg = ctx.cfg.tcp;
  Setup s;
  s.run.single_node = mpi.num_nodes <= 1;
  s.run.stated_rate_bps = cfg.link_rate_bps;
  s.rail_run = cfg.ifaces.size() > 1 || cfg.ifaces == std::vector<std::string>{"rails"};
  const auto ranks = participant_ranks(mpi);
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i] == mpi.rank) s.self = static_cast<int>(i);
  s.rails.resize(1);
  if (ranks.size() < 2) {
    s.stop_reason = "the tcp suite needs 2 or more ranks (on one node, pairs of ranks test over loopback)";
    return s;
  }
  s.key = shared_key(mpi);

  // Each participant: on each rail its address, its link, its listener.
  json mine = nullptr;
  if (s.self >= 0) {
    mine = {{"rank", mpi.rank}, {"host", mpi.host}, {"error", ""}, {"input_error", false}, {"rails", json::array()}};
    const auto specs = rail_specs(cfg, ctx.cfg.control_if);
    if (const auto* why = std::get_if<std::string>(&specs)) {
      mine["error"] = "--tcp-if rails: " + *why;
    } else {
      const auto& list = std::get<std::vector<std::string>>(specs);
      s.rails.resize(list.size());
      for (size_t k = 0; k < list.size(); ++k) {
        json end = rail_end_json(list[k], s.run.single_node, cfg, s.rails[k]);
        if (!end.at("error").get<std::string>().empty() && mine.at("error").get<std::string>().empty()) {
          mine["error"] = end.at("error");
          mine["input_error"] = end.at("input_error");
        }
        mine["rails"].push_back(end);
      }
    }
  }
  const auto all = allgather_json(mine, mpi.world);

  std::string input_error, error;
  for (const auto& j : all) {
    if (j.is_null()) continue;
    const std::string e = j.at("error").get<std::string>();
    const std::string where = " on " + j.at("host").get<std::string>();
    if (!e.empty() && j.at("input_error").get<bool>() && input_error.empty()) input_error = e + where;
    if (!e.empty() && error.empty()) error = e + where;
    if (!e.empty()) continue;
    const auto& ends = j.at("rails");
    if (s.rails.size() < ends.size()) s.rails.resize(ends.size());
    for (size_t k = 0; k < ends.size(); ++k) {
      Node node;
      node.rank = j.at("rank").get<int>();
      node.host = j.at("host").get<std::string>();
      node.endpoint = ends[k].at("endpoint").get<net::Endpoint>();
      node.link = ends[k].at("link").get<LinkFacts>();
      if (s.rail_run) node.iface = ends[k].at("iface").get<std::string>(), node.rail = static_cast<int>(k);
      s.rails[k].nodes.push_back(node);
    }
  }
  // Every rail needs every participant: a host with fewer data interfaces stops the suite, named.
  if (error.empty())
    for (const auto& j : all)
      if (!j.is_null() && j.at("rails").size() != s.rails.size())
        error = "--tcp-if rails: host " + j.at("host").get<std::string>() + " has " + std::to_string(j.at("rails").size()) +
                " data interfaces, another has " + std::to_string(s.rails.size()) +
                " (every node needs one per rail: check its NICs are up, or name the rails with --tcp-if IF0,IF1,...)";
  if (!input_error.empty()) {
    if (mpi.is_root()) {
      auto rec = ctx.record("tcp", "setup");
      rec.status = report::Status::failed;
      rec.reason = input_error;
      ctx.emit(rec);
      std::cerr << "gpunet-bench: error: " << input_error << " (see gpunet-bench --help)\n";
    }
    throw std::invalid_argument(input_error);
  }
  if (!error.empty()) {
    s.stop_reason = error;
    s.stop_status = report::Status::failed;
    s.rails.clear();
    s.rails.resize(1);
  }
  return s;
}

}  // namespace gpunet::bench::tcp
