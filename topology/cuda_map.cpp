#include "topology/cuda_map.hpp"

#include <cuda_runtime_api.h>

#include "topology/model.hpp"

namespace gpunet::topo {

std::map<int, std::string> cuda_bus_ids_by_ordinal() {
  std::map<int, std::string> out;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky "no driver" error for later CUDA users
    return out;
  }
  for (int i = 0; i < count; ++i) {
    char text[32] = {};
    if (cudaDeviceGetPCIBusId(text, static_cast<int>(sizeof text), i) != cudaSuccess) continue;
    if (auto id = parse_bus_id(text)) out[i] = *id;
  }
  return out;
}

}  // namespace gpunet::topo
