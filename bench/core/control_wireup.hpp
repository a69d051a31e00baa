// Opening the control channel at start: rank 0 listens on the control interface, hands its address
// and a fresh per-run key to every rank over MPI (the trusted wire-up), and admits one authenticated
// connection per rank. Collective over the world communicator; main thread only.
//
// The interface: --control-if (a name or a CIDR) when given; else the one Open MPI's own wire-up is
// told to use (OMPI_MCA_oob_tcp_if_include, as launch/fakecluster sets it: its control network, not
// the data network under test); else loopback when every rank is on one node; else the first up
// IPv4 address that is not loopback.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/core/control_channel.hpp"
#include "bench/core/mpi_context.hpp"

namespace gpunet::bench::control {

// The interface spec to listen on (pure): "" means the first up non-loopback IPv4 address.
std::string control_interface_spec(const std::string& control_if, const std::string& oob_if_include, int num_nodes);

// Rank 0: the links by rank ([0] empty); elsewhere: [0] is the link to rank 0. When rank 0 cannot
// listen (say, --control-if names no interface here, or its open-file limit cannot hold a connection
// per rank: bench/core/open_files) it prints one line and every rank throws std::invalid_argument (exit 2); when a rank cannot connect, every rank throws std::runtime_error.
std::vector<std::unique_ptr<Link>> open_channel(const MpiContext& mpi, const std::string& control_if);

}  // namespace gpunet::bench::control
