// What only libibverbs can say about a live RDMA port: the active MTU (and state, link layer as the
// device reports them). Compiled from rdma_verbs.cpp when GPUNET_HAVE_IBVERBS, else from
// rdma_verbs_none.cpp, which leaves the devices unchanged. No device, no permission or no
// provider library simply adds nothing.
#pragma once

#include <vector>

#include "topology/model.hpp"

namespace gpunet::topo {

void add_verbs_details(std::vector<RdmaDevice>& devices);

}  // namespace gpunet::topo
