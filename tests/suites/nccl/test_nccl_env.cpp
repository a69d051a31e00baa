// The NCCL environment the nccl suite sets: the INFO log per rank into the output directory, the
// topology dump per node, and the user's own settings left alone.
#include <map>

#include <gtest/gtest.h>

#include "bench/suites/nccl/nccl_env.hpp"

using namespace gpunet::bench::gpu;

namespace {
std::map<std::string, EnvSetting> by_name(const std::vector<EnvSetting>& v) {
  std::map<std::string, EnvSetting> m;
  for (const auto& s : v) m[s.name] = s;
  return m;
}
}  // namespace

TEST(NcclEnv, SetsTheInfoLogPerRank) {
  const auto env = by_name(nccl_env([](const char*) -> const char* { return nullptr; }, "out", "node-a", 3, false, 0));
  EXPECT_EQ(env.at("NCCL_DEBUG").value, "INFO");
  EXPECT_NE(env.at("NCCL_DEBUG_SUBSYS").value.find("INIT"), std::string::npos);
  for (const char* sub : {"NET", "P2P", "SHM"}) EXPECT_NE(env.at("NCCL_DEBUG_SUBSYS").value.find(sub), std::string::npos);
  EXPECT_EQ(env.at("NCCL_DEBUG_FILE").value, "out/nccl.node-a.3.log");
  EXPECT_FALSE(env.at("NCCL_DEBUG").user_set);
  EXPECT_FALSE(env.count("NCCL_TOPO_DUMP_FILE"));
}

TEST(NcclEnv, TopologyDumpIsWrittenByTheNodeLeader) {
  const auto env = by_name(nccl_env([](const char*) -> const char* { return nullptr; }, "/r", "node-b", 5, true, 4));
  EXPECT_EQ(env.at("NCCL_TOPO_DUMP_FILE").value, "/r/nccl-topo.node-b.xml");
  EXPECT_EQ(env.at("NCCL_TOPO_DUMP_FILE_RANK").value, "4");
}

TEST(NcclEnv, TheUsersSettingsWin) {
  const std::map<std::string, std::string> user{{"NCCL_DEBUG", "WARN"}, {"NCCL_DEBUG_FILE", "/logs/n.%h.%p"}};
  const auto v = nccl_env([&](const char* n) -> const char* { return user.count(n) ? user.at(n).c_str() : nullptr; }, "out", "h", 0,
                          false, 0);
  const auto env = by_name(v);
  EXPECT_TRUE(env.at("NCCL_DEBUG").user_set);
  EXPECT_EQ(env.at("NCCL_DEBUG").value, "WARN");
  EXPECT_FALSE(env.at("NCCL_DEBUG_SUBSYS").user_set);
  std::string why;
  EXPECT_FALSE(log_readable(v, why));
  EXPECT_NE(why.find("NCCL_DEBUG is set to WARN"), std::string::npos) << why;
  EXPECT_EQ(log_file(v, "gpu7", 4242), "/logs/n.gpu7.4242");
}

TEST(NcclEnv, SubsystemsWithoutNetHideTheTransports) {
  const auto v = nccl_env([](const char* n) -> const char* { return std::string(n) == "NCCL_DEBUG_SUBSYS" ? "COLL" : nullptr; }, "o",
                          "h", 0, false, 0);
  std::string why;
  EXPECT_FALSE(log_readable(v, why));
  EXPECT_NE(why.find("NCCL_DEBUG_SUBSYS"), std::string::npos);
  const auto ok = nccl_env([](const char*) -> const char* { return nullptr; }, "o", "h", 0, false, 0);
  EXPECT_TRUE(log_readable(ok, why));
}

TEST(NcclEnv, DebugFileExpansionAsNcclDoesIt) {
  EXPECT_EQ(expand_debug_file("a.%h.%p.log", "host", 12), "a.host.12.log");
  EXPECT_EQ(expand_debug_file("100%%-%x-%", "h", 1), "100%-%x-%");
  EXPECT_EQ(nccl_log_path("d", "h", 7), "d/nccl.h.7.log");
}
