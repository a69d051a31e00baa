// The tcp suite's start: who takes part, the run key, each participant's address, listener
// and link, known to every rank. Collective over the world communicator.
#pragma once

#include <memory>
#include <optional>
#include <variant>
#include <string>
#include <vector>

#include "bench/core/auth/hmac.hpp"
#include "bench/core/suite.hpp"
#include "bench/suites/tcp/records.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::tcp {

// One rail: every participant's end on it, and this participant's address and listener there.
struct RailEnds {
  std::vector<Node> nodes;          // the participants, in order (each with its address on this rail)
  net::IpAddress source;            // this participant's address on the rail
  std::unique_ptr<net::Listener> listener;
};

struct Setup {
  std::vector<RailEnds> rails;      // one without --tcp-if lists; rail k pairs with rail k of the others
  bool rail_run = false;            // several rails: subjects and records name each end's interface
  int self = -1;                    // this rank's participant index, -1 if it only watches
  auth::Key key{};                  // the run key, from rank 0 over MPI
  RunFacts run;
  std::string stop_reason;          // set when the suite can't run (a record says why)
  report::Status stop_status = report::Status::skipped;
  int participant_of(int rank) const;
  const std::vector<Node>& nodes(size_t rail = 0) const { return rails[rail].nodes; }
};

// The participants: every rank when all share one node, else the first rank of each node.
std::vector<int> participant_ranks(const MpiContext& mpi);

// Address for --tcp-if (empty: loopback on one node, else the first non-loopback IPv4 that is up).
std::variant<net::IfAddress, std::string> choose_address(const std::vector<net::IfAddress>& all, const std::string& spec,
                                                    bool single_node);

// The interface specs of each rail for --tcp-if (one entry: the default address), resolving "rails"
// on this host. A string when "rails" finds no interface.
std::variant<std::vector<std::string>, std::string> rail_specs(const TcpConfig& cfg, const std::string& control_if);

// Builds the setup. A bad --tcp-if throws std::invalid_argument after rank 0 has said why
// (exit code 2); anything else that stops the suite is in stop_reason on every rank.
Setup make_setup(const SuiteContext& ctx);

}  // namespace gpunet::bench::tcp
