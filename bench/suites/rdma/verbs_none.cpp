// Built without libibverbs: discovery says so, and no endpoint can be opened.
#include "bench/suites/rdma/engine.hpp"

namespace gpunet::bench::rdma {

Discovery discover_devices(const std::string&) { return Discovery{}; }

std::unique_ptr<Endpoint> open_endpoint(const EndpointConfig&, std::string& error) {
  error = "built without libibverbs";
  return nullptr;
}

}  // namespace gpunet::bench::rdma
