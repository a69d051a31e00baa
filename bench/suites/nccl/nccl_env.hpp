// The NCCL_* environment the nccl suite sets before its first communicator, so that NCCL says what
// it chose: its INFO log per rank in a file under the output directory, and optionally its
// topology dump. A variable the user set is left as it is. Pure: getenv is a parameter.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gpunet::bench::gpu {

struct EnvSetting {
  std::string name, value;
  bool user_set = false;  // already in the environment: value is the user's and is kept
};

// OUT/nccl.HOST.RANK.log
std::string nccl_log_path(const std::string& out_dir, const std::string& host, int rank);
// OUT/nccl-topo.HOST.xml
std::string nccl_topo_path(const std::string& out_dir, const std::string& host);

// NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,ENV,NET,P2P,SHM, NCCL_DEBUG_FILE=<log path>; with topo_dump
// also NCCL_TOPO_DUMP_FILE=<topo path> and NCCL_TOPO_DUMP_FILE_RANK=<leader_rank> (NCCL writes the
// file in the process of that rank, so each node leader writes its node's).
std::vector<EnvSetting> nccl_env(const std::function<const char*(const char*)>& getenv, const std::string& out_dir,
                                 const std::string& host, int rank, bool topo_dump, int leader_rank);

// Whether the settings let NCCL write an INFO log we can read (the user may have chosen otherwise).
bool log_readable(const std::vector<EnvSetting>& env, std::string& why_not);

// NCCL_DEBUG_FILE as NCCL expands it: %h -> host, %p -> pid, %% -> %.
std::string expand_debug_file(const std::string& pattern, const std::string& host, long pid);

// The log file these settings make NCCL write ("" without NCCL_DEBUG_FILE).
std::string log_file(const std::vector<EnvSetting>& env, const std::string& host, long pid);

}  // namespace gpunet::bench::gpu
