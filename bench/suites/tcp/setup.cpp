#include "bench/suites/tcp/setup.hpp"

#include <sys/socket.h>

#include <iostream>
#include <stdexcept>
#include <system_error>

#include "bench/suites/tcp/exchange.hpp"
#include "bench/suites/tcp/json.hpp"
#include "bench/suites/tcp/link_info.hpp"

namespace gpunet::bench::tcp {

using nlohmann::json;

int Setup::participant_of(int rank) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].rank == rank) return static_cast<int>(i);
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

Setup make_setup(const SuiteContext& ctx) {
  const auto& mpi = ctx.mpi;
  const auto& cfg = ctx.cfg.tcp;
  Setup s;
  s.run.single_node = mpi.num_nodes <= 1;
  s.run.stated_rate_bps = cfg.link_rate_bps;
  const auto ranks = participant_ranks(mpi);
  for (size_t i = 0; i < ranks.size(); ++i)
    if (ranks[i] == mpi.rank) s.self = static_cast<int>(i);
  if (ranks.size() < 2) {
    s.stop_reason = "the tcp suite needs 2 or more ranks (on one node, pairs of ranks test over loopback)";
    return s;
  }
  s.key = shared_key(mpi);

  // Each participant: its address, its link, its listener.
  json mine = nullptr;
  if (s.self >= 0) {
    mine = {{"rank", mpi.rank}, {"host", mpi.host}, {"error", ""}, {"input_error", false}};
    const auto chosen = choose_address(net::list_addresses(), cfg.iface, s.run.single_node);
    if (const auto* why = std::get_if<std::string>(&chosen)) {
      mine["error"] = (cfg.iface.empty() ? std::string("address") : "--tcp-if " + cfg.iface) + ": " + *why;
      mine["input_error"] = true;
    } else {
      const auto& a = std::get<net::IfAddress>(chosen);
      s.source = a.ip;
      // On one node all traffic between local addresses goes through the loopback device.
      LinkFacts link = read_link_facts(s.run.single_node ? "lo" : a.iface, a.ip.family == AF_INET6);
      link.stated_rate_bps = s.run.single_node ? 0.0 : cfg.link_rate_bps;
      try {
        net::SocketOptions opt;
        opt.sndbuf = static_cast<int>(cfg.sndbuf);
        opt.rcvbuf = static_cast<int>(cfg.rcvbuf);
        s.listener = std::make_unique<net::Listener>(a.ip, opt);
        mine["endpoint"] = s.listener->endpoint();
      } catch (const std::system_error& e) {
        mine["error"] = std::string("cannot listen: ") + e.what();
      }
      mine["link"] = link;
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
    if (e.empty()) s.nodes.push_back({j.at("rank").get<int>(), j.at("host").get<std::string>(),
                                      j.at("endpoint").get<net::Endpoint>(), j.at("link").get<LinkFacts>()});
  }
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
    s.nodes.clear();
    s.listener.reset();
  }
  return s;
}

}  // namespace gpunet::bench::tcp
