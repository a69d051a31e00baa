#include "bench/core/control_wireup.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "bench/core/open_files.hpp"

namespace gpunet::bench::control {

namespace {

constexpr double kControlConnectTimeout_s = 60;  // every rank has started: connecting takes far less
constexpr double kControlHelloTimeout_s = 10;

// What rank 0 hands out: whether it listens, where, and the run's key.
struct ControlInvitation {
  int ok = 0;
  int family = 0;
  uint8_t ip[16] = {};
  uint16_t port = 0;
  uint8_t key[auth::kKeyBytes] = {};
};

net::IpAddress control_listen_address(const std::string& spec) {
  const auto all = net::list_addresses();
  if (spec.empty()) {
    for (const auto& a : all)
      if (a.up && !a.loopback && a.ip.family == AF_INET) return a.ip;
    throw std::runtime_error("the control channel: no IPv4 address to listen on; name one with --control-if");
  }
  auto chosen = net::select_address(all, spec);
  if (auto* why = std::get_if<std::string>(&chosen)) throw std::runtime_error("the control channel (--control-if " + spec + "): " + *why);
  return std::get<net::IfAddress>(chosen).ip;
}

ControlInvitation invite_members(const std::string& spec, int ranks, std::unique_ptr<net::Listener>& listener,
                                 std::string& error) {
  ControlInvitation inv;
  // Rank 0 holds a connection per rank: a limit that cannot hold them fails now, naming it, not after
  // the connect timeout.
  if (auto why = open_file_limit_problem(raise_open_file_limit(), ranks)) {
    error = *why;
    return inv;
  }
  try {
    listener = std::make_unique<net::Listener>(control_listen_address(spec), net::SocketOptions{});
    const auto key = auth::random_key();
    const auto& ep = listener->endpoint();
    inv.ok = 1;
    inv.family = ep.ip.family;
    std::copy(ep.ip.bytes.begin(), ep.ip.bytes.end(), inv.ip);
    inv.port = ep.port;
    std::copy(key.begin(), key.end(), inv.key);
  } catch (const std::exception& e) {
    error = e.what();
  }
  return inv;
}

}  // namespace

std::string control_interface_spec(const std::string& control_if, const std::string& oob_if_include, int num_nodes) {
  if (!control_if.empty()) return control_if;
  if (!oob_if_include.empty()) return oob_if_include.substr(0, oob_if_include.find(','));
  return num_nodes == 1 ? "lo" : "";
}

std::vector<std::unique_ptr<Link>> open_channel(const MpiContext& mpi, const std::string& control_if) {
  std::vector<std::unique_ptr<Link>> links;
  if (mpi.size == 1) return links;
  const char* oob = std::getenv("OMPI_MCA_oob_tcp_if_include");
  std::unique_ptr<net::Listener> listener;
  std::string error;
  ControlInvitation inv;
  if (mpi.is_root()) inv = invite_members(control_interface_spec(control_if, oob ? oob : "", mpi.num_nodes), mpi.size, listener, error);
  mpi.from_root(&inv, static_cast<int>(sizeof inv));
  if (!inv.ok) {  // nothing listens (no such interface, no address, too low a file limit): said once by rank 0
    if (mpi.is_root()) std::fprintf(stderr, "gpunet-bench: error: %s\n", error.c_str());
    throw std::invalid_argument("control channel");
  }
  auth::Key key{};
  std::copy(std::begin(inv.key), std::end(inv.key), key.begin());
  int ok = 1;
  try {
    if (mpi.is_root()) {
      links = accept_members(listener->fd(), key, mpi.size, kControlConnectTimeout_s, kControlHelloTimeout_s).links;
    } else {
      net::Endpoint hub;
      hub.ip.family = inv.family;
      std::copy(std::begin(inv.ip), std::end(inv.ip), hub.ip.bytes.begin());
      hub.port = inv.port;
      links.push_back(connect_to_hub(hub, key, mpi.rank, kControlConnectTimeout_s));
    }
  } catch (const std::exception& e) {
    error = e.what();
    ok = 0;
  }
  std::fill(std::begin(inv.key), std::end(inv.key), uint8_t{0});
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, mpi.world);
  if (!ok) throw std::runtime_error(error.empty() ? "the control channel could not be opened on another rank" : error);
  return links;
}

}  // namespace gpunet::bench::control
