// Ceilings inside and across nodes: PCIe, NVLink, and the NCCL bus-bandwidth model
// (report/CEILINGS.md §3, §4, §5.4).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "report/analysis/ceilings.hpp"

namespace gpunet::report {

// --- PCIe ------------------------------------------------------------------------------------------

bool valid_pcie_gen(int gen) { return gen >= 1 && gen <= 6; }

bool valid_pcie_width(int w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 12 || w == 16 || w == 32; }

double pcie_transfer_rate_GTps(int gen) {
  constexpr std::array<double, 6> kGTps{2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  return valid_pcie_gen(gen) ? kGTps[static_cast<size_t>(gen - 1)] : 0.0;
}

double pcie_encoding_efficiency(int gen) {
  if (gen <= 2) return 8.0 / 10.0;
  if (gen <= 5) return 128.0 / 130.0;
  return 242.0 / 256.0;  // Gen6 FLIT: 242 payload bytes per 256
}

double pcie_lane_GBps(int gen) { return pcie_transfer_rate_GTps(gen) * pcie_encoding_efficiency(gen) / 8.0; }

std::optional<int> pcie_gen_from_GTps(double gtps) {
  for (int g = 1; g <= 6; ++g)
    if (std::fabs(pcie_transfer_rate_GTps(g) - gtps) < 0.01) return g;
  return std::nullopt;
}

std::optional<int> pcie_gen_from_speed_text(const std::string& text) {
  // "16.0 GT/s PCIe\n", or "16 GT/s" from kernels before 5.7
  double gtps = 0;
  int used = -1;
  if (std::sscanf(text.c_str(), " %lf GT/s%n", &gtps, &used) != 1 || used < 0) return std::nullopt;
  std::string rest = text.substr(static_cast<size_t>(used));
  const auto b = rest.find_first_not_of(" \t\r\n");
  rest = b == std::string::npos ? "" : rest.substr(b, rest.find_last_not_of(" \t\r\n") - b + 1);
  if (!rest.empty() && rest != "PCIe") return std::nullopt;
  return pcie_gen_from_GTps(gtps);
}

double pcie_marketing_GBps(int gen, int width) { return pcie_transfer_rate_GTps(gen) * width / 8.0; }

double pcie_tlp_efficiency(int mps, TlpHeader header) {
  constexpr int kFramingAndLcrc = 8;
  return static_cast<double>(mps) / (mps + static_cast<int>(header) + kFramingAndLcrc);
}

namespace {

std::string link_words(int gen, int width) { return "PCIe Gen" + std::to_string(gen) + " x" + std::to_string(width); }

std::string encoding_words(int gen) {
  if (gen <= 2) return "8b/10b";
  if (gen <= 5) return "128b/130b";
  return "242/256 FLIT";
}

std::optional<Ceiling> pcie_invalid(int gen, int width) {
  if (!valid_pcie_gen(gen)) return unknown_ceiling("PCIe generation " + std::to_string(gen) + " is not 1..6");
  if (!valid_pcie_width(width)) return unknown_ceiling("PCIe width x" + std::to_string(width) + " is not valid");
  return std::nullopt;
}

}  // namespace

Ceiling pcie_encoded(int gen, int width) {
  if (auto bad = pcie_invalid(gen, width)) return *bad;
  const double v = pcie_lane_GBps(gen) * width;
  return known_ceiling(v, "GB/s",
                       link_words(gen, width) + ": " + format_figure(pcie_transfer_rate_GTps(gen)) + " GT/s x " +
                           std::to_string(width) + " lanes, " + encoding_words(gen) + ": " + format_figure(v) +
                           " GB/s per direction");
}

Ceiling pcie_tlp(int gen, int width, int mps, TlpHeader header) {
  if (auto bad = pcie_invalid(gen, width)) return *bad;
  if (mps < 128 || mps > 4096 || (mps & (mps - 1)) != 0)
    return unknown_ceiling("max payload size " + std::to_string(mps) + " is not a power of two in 128..4096");
  if (gen >= 6) return unknown_ceiling("TLP overhead in Gen6 FLIT mode is not modelled; only the encoded rate is");
  const double raw = pcie_lane_GBps(gen) * width;
  const int hdr = static_cast<int>(header);
  const double v = raw * pcie_tlp_efficiency(mps, header);
  return known_ceiling(v, "GB/s",
                       link_words(gen, width) + " (" + format_figure(raw) + " GB/s after " + encoding_words(gen) +
                           "), MPS " + std::to_string(mps) + ", " + (header == TlpHeader::dw4 ? "4DW" : "3DW") +
                           " headers: x " + std::to_string(mps) + "/" + std::to_string(mps + hdr + 8) + " = " +
                           format_figure(v) + " GB/s per direction (DLLP and SKP overhead excluded)");
}

// --- NVLink ----------------------------------------------------------------------------------------

namespace {
constexpr std::array<NvlinkGeneration, 4> kNvlink{{
    {2, "V100", 6, 25.0, 20.0},
    {3, "A100", 12, 25.0, 20.0},
    {4, "H100/H200", 18, 25.0, 20.6},
    {5, "B200/GB200", 18, 50.0, 40.1},
}};
}  // namespace

std::optional<NvlinkGeneration> nvlink_generation(int gen) {
  for (const auto& g : kNvlink)
    if (g.gen == gen) return g;
  return std::nullopt;
}

Ceiling nvlink_line_rate(int gen, int links) {
  const auto g = nvlink_generation(gen);
  if (!g) return unknown_ceiling("NVLink generation " + std::to_string(gen) + " is not 2..5");
  const int n = links > 0 ? links : g->links_per_gpu;
  const double v = n * g->link_GBps;
  return known_ceiling(v, "GB/s",
                       "NVLink" + std::to_string(gen) + " (" + g->gpu + "): " + std::to_string(n) + " links x " +
                           format_figure(g->link_GBps) + " GB/s = " + format_figure(v) + " GB/s per direction");
}

Ceiling nvlink_nccl_effective(int gen, int links) {
  const auto g = nvlink_generation(gen);
  if (!g) return unknown_ceiling("NVLink generation " + std::to_string(gen) + " is not 2..5");
  const int n = links > 0 ? links : g->links_per_gpu;
  const double v = n * g->nccl_link_GBps;
  return known_ceiling(v, "GB/s",
                       "NVLink" + std::to_string(gen) + " (" + g->gpu + "): " + std::to_string(n) + " links x " +
                           format_figure(g->nccl_link_GBps) + " GB/s NCCL effective per link = " + format_figure(v) +
                           " GB/s");
}

// --- units -----------------------------------------------------------------------------------------

Ceiling to_GBps(const Ceiling& c) {
  if (!c.known || c.unit == "GB/s") return c;
  const double v = c.value / 8.0;
  return known_ceiling(v, "GB/s", c.derivation + " = " + format_figure(v) + " GB/s");
}

Ceiling to_Gbps(const Ceiling& c) {
  if (!c.known || c.unit == "Gb/s") return c;
  const double v = c.value * 8.0;
  return known_ceiling(v, "Gb/s", c.derivation + " = " + format_figure(v) + " Gb/s");
}

// --- NCCL bus-bandwidth model ----------------------------------------------------------------------

Ceiling nccl_nic_effective(double line_rate_Gbps) {
  if (!(line_rate_Gbps > 0)) return unknown_ceiling("the NIC line rate is not known");
  const double v = line_rate_Gbps / 8.0 * kNcclNicEfficiency;
  return known_ceiling(v, "GB/s",
                       "NCCL on a " + format_figure(line_rate_Gbps) + " Gb/s NIC: " +
                           format_figure(kNcclNicEfficiency) + " x " + format_figure(line_rate_Gbps / 8.0) +
                           " GB/s = " + format_figure(v) + " GB/s");
}

namespace {
// Where the two terms come from, appended to the model's derivation.
std::string terms(const Ceiling& intra, const Ceiling& per_nic) {
  std::string s;
  if (intra.known && !intra.derivation.empty()) s += "; intra-node: " + intra.derivation;
  if (per_nic.known && !per_nic.derivation.empty()) s += "; per NIC: " + per_nic.derivation;
  return s;
}
}  // namespace

Ceiling ring_busbw_multi_node(const Ceiling& intra, int nics_per_node, const Ceiling& per_nic) {
  const bool net_known = per_nic.known && nics_per_node > 0;
  if (!net_known && !intra.known)
    return unknown_ceiling("neither the intra-node nor the network bandwidth is known (" +
                           (per_nic.known ? std::string("no NIC count") : per_nic.unknown_reason) + "; " +
                           intra.unknown_reason + ")");
  const double net = net_known ? nics_per_node * per_nic.value : 0;
  const std::string net_words = net_known ? std::to_string(nics_per_node) + " NIC" +
                                                (nics_per_node == 1 ? "" : "s") + " x " + format_figure(per_nic.value) +
                                                " GB/s = " + format_figure(net) + " GB/s"
                                          : "";
  if (!intra.known)
    return known_ceiling(net, "GB/s",
                         "Ring across nodes: min(intra-node, " + net_words + "); the intra-node term is not known (" +
                             intra.unknown_reason + "), so the network term bounds it: " + format_figure(net) +
                             " GB/s" + terms(intra, per_nic));
  if (!net_known)
    return known_ceiling(intra.value, "GB/s",
                         "Ring across nodes: min(intra-node " + format_figure(intra.value) +
                             " GB/s, network); the network term is not known (" +
                             (per_nic.known ? std::string("no NIC count") : per_nic.unknown_reason) +
                             "), so the intra-node term bounds it: " + format_figure(intra.value) + " GB/s" +
                             terms(intra, per_nic));
  const double v = std::min(intra.value, net);
  return known_ceiling(v, "GB/s",
                       "Ring across nodes: min(intra-node " + format_figure(intra.value) + " GB/s, " + net_words +
                           ") = " + format_figure(v) + " GB/s" + terms(intra, per_nic));
}

}  // namespace gpunet::report
