#include "bench/suites/rdma/nic_sysfs.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gpunet::bench::rdma {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> first_line(const fs::path& p) {
  std::ifstream in(p);
  std::string s;
  if (!in || !std::getline(in, s)) return std::nullopt;
  return s;
}

std::optional<long> number(const fs::path& p) {
  const auto s = first_line(p);
  if (!s || s->empty()) return std::nullopt;
  char* end = nullptr;
  const long v = std::strtol(s->c_str(), &end, 10);
  if (end == s->c_str()) return std::nullopt;
  return v;
}

bool looks_like_bus_id(const std::string& s) {
  return s.size() == 12 && s[4] == ':' && s[7] == ':' && s[10] == '.';
}

}  // namespace

std::optional<int> pcie_gen_from_text(const std::string& text) {
  char* end = nullptr;
  const double gts = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || text.find("GT/s") == std::string::npos) return std::nullopt;
  const double known[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  for (int i = 0; i < 6; ++i)
    if (gts == known[i]) return i + 1;
  return std::nullopt;
}

NicPci read_nic_pci(const std::string& sys_root, const std::string& rdma_dev) {
  NicPci n;
  const fs::path link = fs::path(sys_root) / "class/infiniband" / rdma_dev / "device";
  std::error_code ec;
  const fs::path dev = fs::canonical(link, ec);
  if (ec) return n;
  const std::string name = dev.filename().string();
  if (looks_like_bus_id(name)) n.bus_id = name;
  if (const auto numa = number(dev / "numa_node"); numa && *numa >= 0) n.numa_node = static_cast<int>(*numa);
  auto gen = [&](const char* file) { const auto t = first_line(dev / file); return t ? pcie_gen_from_text(*t).value_or(0) : 0; };
  auto width = [&](const char* file) { return static_cast<int>(number(dev / file).value_or(0)); };
  n.gen = gen("current_link_speed");
  n.width = width("current_link_width");
  n.max_gen = gen("max_link_speed");
  n.max_width = width("max_link_width");
  return n;
}

std::optional<long> netdev_speed_Mbps(const std::string& sys_root, const std::string& ifname) {
  if (ifname.empty()) return std::nullopt;
  const auto v = number(fs::path(sys_root) / "class/net" / ifname / "speed");
  if (!v || *v <= 0) return std::nullopt;
  return v;
}

}  // namespace gpunet::bench::rdma
