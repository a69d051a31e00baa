#include "topology/cuda_map.hpp"

namespace gpunet::topo {

std::map<int, std::string> cuda_bus_ids_by_ordinal() { return {}; }

}  // namespace gpunet::topo
