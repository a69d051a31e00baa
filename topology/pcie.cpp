#include "topology/pcie.hpp"

#include <cmath>
#include <cstdlib>

namespace gpunet::topo {

std::optional<int> pcie_gen_from_speed(const std::string& text) {
  const auto pos = text.find("GT/s");
  if (pos == std::string::npos) return std::nullopt;
  const std::string number = text.substr(0, pos);
  char* end = nullptr;
  const double gts = std::strtod(number.c_str(), &end);
  if (end == number.c_str()) return std::nullopt;
  for (int gen = 1; gen <= 6; ++gen)
    if (std::fabs(gts - pcie_GTps(gen)) < 0.01) return gen;
  return std::nullopt;
}

double pcie_GTps(int gen) {
  switch (gen) {
    case 1: return 2.5;
    case 2: return 5.0;
    case 3: return 8.0;
    case 4: return 16.0;
    case 5: return 32.0;
    case 6: return 64.0;
    default: return 0.0;
  }
}

double pcie_GBps(int gen, int width) {
  if (gen < 1 || gen > 6 || width <= 0) return 0.0;
  double coding = 0;
  if (gen <= 2)
    coding = 8.0 / 10.0;
  else if (gen <= 5)
    coding = 128.0 / 130.0;
  else
    coding = 242.0 / 256.0;
  const double lane_GBps = pcie_GTps(gen) * coding / 8.0;
  return lane_GBps * width;
}

std::string describe(const LinkState& s) {
  if (s.gen == 0 && s.width == 0) return "unknown";
  return (s.gen ? "Gen" + std::to_string(s.gen) : std::string("Gen?")) + " " +
         (s.width ? "x" + std::to_string(s.width) : std::string("x?"));
}

}  // namespace gpunet::topo
