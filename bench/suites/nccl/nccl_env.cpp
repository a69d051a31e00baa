#include "bench/suites/nccl/nccl_env.hpp"

namespace gpunet::bench::gpu {

std::string nccl_log_path(const std::string& out_dir, const std::string& host, int rank) {
  return out_dir + "/nccl." + host + "." + std::to_string(rank) + ".log";
}

std::string nccl_topo_path(const std::string& out_dir, const std::string& host) { return out_dir + "/nccl-topo." + host + ".xml"; }

std::vector<EnvSetting> nccl_env(const std::function<const char*(const char*)>& getenv, const std::string& out_dir,
                                 const std::string& host, int rank, bool topo_dump, int leader_rank) {
  std::vector<EnvSetting> want{{"NCCL_DEBUG", "INFO"},
                               {"NCCL_DEBUG_SUBSYS", "INIT,ENV,NET,P2P,SHM"},
                               {"NCCL_DEBUG_FILE", nccl_log_path(out_dir, host, rank)}};
  if (topo_dump) {
    want.push_back({"NCCL_TOPO_DUMP_FILE", nccl_topo_path(out_dir, host)});
    want.push_back({"NCCL_TOPO_DUMP_FILE_RANK", std::to_string(leader_rank)});
  }
  for (auto& s : want)
    if (const char* v = getenv(s.name.c_str())) {
      s.value = v;
      s.user_set = true;
    }
  return want;
}

bool log_readable(const std::vector<EnvSetting>& env, std::string& why_not) {
  for (const auto& s : env) {
    if (s.name == "NCCL_DEBUG" && s.value != "INFO" && s.value != "TRACE") {
      why_not = "NCCL_DEBUG is set to " + s.value + " (INFO is needed to see the transports)";
      return false;
    }
    if (s.name == "NCCL_DEBUG_SUBSYS" && s.value.find("ALL") == std::string::npos &&
        (s.value.find("NET") == std::string::npos || s.value.find("INIT") == std::string::npos)) {
      why_not = "NCCL_DEBUG_SUBSYS is set to " + s.value + " (INIT and NET are needed to see the transports)";
      return false;
    }
  }
  return true;
}

std::string expand_debug_file(const std::string& pattern, const std::string& host, long pid) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char c = pattern[++i];
    if (c == 'h') out += host;
    else if (c == 'p') out += std::to_string(pid);
    else if (c == '%') out += '%';
    else out += std::string("%") + c;
  }
  return out;
}

std::string log_file(const std::vector<EnvSetting>& env, const std::string& host, long pid) {
  for (const auto& s : env)
    if (s.name == "NCCL_DEBUG_FILE") return expand_debug_file(s.value, host, pid);
  return "";
}

}  // namespace gpunet::bench::gpu
