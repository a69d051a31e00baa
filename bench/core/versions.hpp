// Versions of the libraries this build uses, for the report's provenance.
#pragma once

#include <string>

namespace gpunet::bench {

std::string hwloc_version();
std::string cuda_runtime_version();  // empty when built without CUDA
std::string nccl_version();          // empty when built without NCCL

}  // namespace gpunet::bench
