// Which of a node's interfaces Open MPI was told to use for its own traffic: the entries of
// OMPI_MCA_btl_tcp_if_include and OMPI_MCA_oob_tcp_if_include (interface names or CIDRs, as mpirun's
// --mca options pass them to every rank), matched against the interfaces and their addresses.
// Empty when neither is set (Open MPI then picks for itself, and the report does not guess).
#pragma once

#include <string>
#include <vector>

#include "topology/model.hpp"

namespace gpunet::bench {

// specs: the comma-separated values of the two variables ("" when unset). Pure.
std::vector<std::string> mpi_interfaces(const topo::NodeTopology& t, const std::vector<std::string>& specs);

// The same from this process's environment.
std::vector<std::string> mpi_interfaces_from_env(const topo::NodeTopology& t);

}  // namespace gpunet::bench
