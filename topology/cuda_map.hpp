// CUDA ordinal -> PCI bus id, from the CUDA runtime (cudaGetDeviceCount, cudaDeviceGetPCIBusId).
// Compiled from cuda_map.cpp when GPUNET_HAVE_CUDA, else from cuda_map_none.cpp. With no driver or
// no GPU, cudaGetDeviceCount fails and the map is empty; that is not an error.
#pragma once

#include <map>
#include <string>

namespace gpunet::topo {

// Ordinal -> "dddd:bb:dd.f" (lower case), as this process's CUDA_VISIBLE_DEVICES shows them.
std::map<int, std::string> cuda_bus_ids_by_ordinal();

}  // namespace gpunet::topo
