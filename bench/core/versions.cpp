#include "bench/core/versions.hpp"

#include <hwloc.h>

#include "gpunet/build_config.h"

#if GPUNET_HAVE_CUDA
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

namespace gpunet::bench {

namespace {
std::string dotted(unsigned major, unsigned minor, unsigned patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}
}  // namespace

std::string hwloc_version() {
  const unsigned v = hwloc_get_api_version();
  return dotted(v >> 16, (v >> 8) & 0xff, v & 0xff);
}

std::string cuda_runtime_version() {
#if GPUNET_HAVE_CUDA
  int v = 0;  // the runtime's own version: works without a driver
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) return "unknown";
  return dotted(static_cast<unsigned>(v / 1000), static_cast<unsigned>(v % 1000 / 10), 0);
#else
  return "";
#endif
}

std::string nccl_version() {
#if GPUNET_HAVE_CUDA
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return "unknown";
  return dotted(static_cast<unsigned>(v / 10000), static_cast<unsigned>(v / 100 % 100), static_cast<unsigned>(v % 100));
#else
  return "";
#endif
}

}  // namespace gpunet::bench
