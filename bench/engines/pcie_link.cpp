#include "bench/engines/pcie_link.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace gpunet::bench::gpu {

namespace {

namespace fs = std::filesystem;

std::string read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  if (in) std::getline(in, line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

int read_int(const fs::path& p, int fallback) {
  const std::string s = read_line(p);
  if (s.empty()) return fallback;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  return end == s.c_str() ? fallback : static_cast<int>(v);
}

int min_known(int a, int b) { return a > 0 && b > 0 ? std::min(a, b) : std::max(a, b); }

}  // namespace

std::optional<int> pcie_gen_from_speed(const std::string& text) {
  char* end = nullptr;
  const double gts = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || text.find("GT/s") == std::string::npos) return std::nullopt;
  const std::pair<double, int> table[] = {{2.5, 1}, {5.0, 2}, {8.0, 3}, {16.0, 4}, {32.0, 5}, {64.0, 6}, {128.0, 7}};
  for (const auto& [rate, gen] : table)
    if (std::abs(gts - rate) < 0.01) return gen;
  return std::nullopt;
}

int mps_from_config(const std::vector<uint8_t>& config) {
  auto byte = [&](size_t off) -> int { return off < config.size() ? config[off] : -1; };
  if (config.size() < 0x40 || !(byte(0x06) & 0x10)) return 0;  // Status: capability list present
  int ptr = byte(0x34) & 0xfc;
  for (int hops = 0; ptr >= 0x40 && hops < 48; ++hops) {
    const int id = byte(static_cast<size_t>(ptr)), next = byte(static_cast<size_t>(ptr) + 1);
    if (id < 0 || next < 0) return 0;
    if (id == 0x10) {  // PCI Express capability; Device Control at +8
      const int devctl = byte(static_cast<size_t>(ptr) + 8);
      if (devctl < 0) return 0;
      return 128 << ((devctl >> 5) & 0x7);
    }
    ptr = next & 0xfc;
  }
  return 0;
}

std::string normalize_bus_id(const std::string& bus_id) {
  std::string s = bus_id;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (std::count(s.begin(), s.end(), ':') == 1) s = "0000:" + s;
  // CUDA prints an 8-digit domain ("00000000:3b:00.0"); sysfs uses 4.
  const auto colon = s.find(':');
  if (colon > 4) s = s.substr(colon - 4);
  return s;
}

PcieLinkInfo read_pcie_link(const std::string& sys_root, const std::string& bus_id) {
  PcieLinkInfo l;
  l.bus_id = normalize_bus_id(bus_id);
  const fs::path dev = fs::path(sys_root) / "bus/pci/devices" / l.bus_id;
  l.speed = read_line(dev / "current_link_speed");
  l.max_speed = read_line(dev / "max_link_speed");
  l.gen = pcie_gen_from_speed(l.speed).value_or(0);
  l.width = read_int(dev / "current_link_width", 0);
  l.max_gen = pcie_gen_from_speed(l.max_speed).value_or(0);
  l.max_width = read_int(dev / "max_link_width", 0);
  std::error_code ec;
  const fs::path real = fs::canonical(dev, ec);
  if (!ec) {
    const fs::path up = real.parent_path();
    if (fs::exists(up / "max_link_speed")) {
      l.max_gen = min_known(l.max_gen, pcie_gen_from_speed(read_line(up / "max_link_speed")).value_or(0));
      l.max_width = min_known(l.max_width, read_int(up / "max_link_width", 0));
    }
  }
  std::ifstream cfg(dev / "config", std::ios::binary);
  if (cfg) {
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(cfg)), std::istreambuf_iterator<char>());
    l.mps = mps_from_config(bytes);
  }
  l.numa_node = read_int(dev / "numa_node", -1);
  return l;
}

gpunet::json to_json(const PcieLinkInfo& l) {
  gpunet::json j = gpunet::json::object();
  auto put = [&](const char* k, int v) {
    if (v > 0) j[k] = v;
  };
  put("gen", l.gen);
  put("width", l.width);
  put("max_gen", l.max_gen);
  put("max_width", l.max_width);
  put("mps", l.mps);
  if (!l.speed.empty()) j["speed"] = l.speed;
  if (!l.max_speed.empty()) j["max_speed"] = l.max_speed;
  if (l.numa_node >= 0) j["gpu_numa"] = l.numa_node;
  if (!l.bus_id.empty()) j["bus_id"] = l.bus_id;
  return j;
}

}  // namespace gpunet::bench::gpu
