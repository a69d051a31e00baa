// Network ceilings: Ethernet/TCP, tbf-shaped links, RoCEv2, InfiniBand (report/CEILINGS.md §1, §2, §7.2).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "report/analysis/ceilings.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

Ceiling known_ceiling(double value, std::string unit, std::string derivation) {
  Ceiling c;
  c.value = value;
  c.unit = std::move(unit);
  c.derivation = std::move(derivation);
  c.known = true;
  return c;
}

Ceiling unknown_ceiling(std::string reason) {
  Ceiling c;
  c.unknown_reason = std::move(reason);
  return c;
}

std::string format_figure(double x) { return std::fabs(x) >= 10000 ? format_fixed(x, 0) : format_general(x, 4); }

namespace {

std::string framing_words(const EthernetFraming& f) {
  std::string s = "MTU " + std::to_string(f.mtu) + (f.ipv6 ? ", IPv6" : ", IPv4");
  s += f.tcp_timestamps ? ", TCP timestamps" : ", no TCP timestamps";
  if (f.vlan) s += ", VLAN tag";
  return s;
}

std::string rate_words_bps(double bps) {
  if (bps >= 1e9) return format_figure(bps / 1e9) + " Gb/s";
  if (bps >= 1e6) return format_figure(bps / 1e6) + " Mb/s";
  return format_figure(bps / 1e3) + " kb/s";
}

}  // namespace

// --- Ethernet --------------------------------------------------------------------------------------

int tcp_payload_bytes(const EthernetFraming& f) {
  return f.mtu - (f.ipv6 ? 40 : 20) - 20 - (f.tcp_timestamps ? 12 : 0);
}

int ethernet_wire_bytes(const EthernetFraming& f) { return f.mtu + kEthernetOverheadBytes + (f.vlan ? 4 : 0); }

std::string ethernet_name(double rate_Gbps) {
  if (rate_Gbps >= 1) return format_figure(rate_Gbps) + "GbE";
  return format_figure(rate_Gbps * 1000) + " Mb/s Ethernet";
}

Ceiling tcp_goodput(double rate_Gbps, const EthernetFraming& f) {
  if (!(rate_Gbps > 0)) return unknown_ceiling("the Ethernet link speed is not known (the interface reports none)");
  const int p = tcp_payload_bytes(f);
  if (p <= 0) return unknown_ceiling("MTU " + std::to_string(f.mtu) + " leaves no room for a TCP payload");
  const int w = ethernet_wire_bytes(f);
  const double v = rate_Gbps * p / w;
  return known_ceiling(v, "Gb/s",
                       ethernet_name(rate_Gbps) + ", " + framing_words(f) + ": " + format_figure(v) + " Gb/s (" +
                           std::to_string(p) + " payload bytes per " + std::to_string(w) + " bytes on the wire)");
}

Ceiling tcp_goodput_tbf(double rate_bps, const EthernetFraming& f) {
  if (!(rate_bps > 0)) return unknown_ceiling("the tbf rate is not known");
  const int p = tcp_payload_bytes(f);
  if (p <= 0) return unknown_ceiling("MTU " + std::to_string(f.mtu) + " leaves no room for a TCP payload");
  const int frame = f.mtu + kEthernetHeaderBytes + (f.vlan ? 4 : 0);
  const double v = rate_bps / 1e9 * p / frame;
  return known_ceiling(v, "Gb/s",
                       "tbf-shaped link at " + rate_words_bps(rate_bps) + ", " + framing_words(f) + ": " +
                           format_figure(v) + " Gb/s (" + std::to_string(p) + " payload bytes per " +
                           std::to_string(frame) + "-byte frame counted by the qdisc)");
}

// --- RoCEv2 ----------------------------------------------------------------------------------------

bool valid_ib_mtu(int m) { return m == 256 || m == 512 || m == 1024 || m == 2048 || m == 4096; }

int roce_overhead_bytes(bool ipv6, bool vlan, bool first_packet) {
  constexpr int eth = 14, udp = 8, bth = 12, reth = 16, icrc = 4, fcs = 4, preamble = 8, ifg = 12;
  return eth + (vlan ? 4 : 0) + (ipv6 ? 40 : 20) + udp + bth + (first_packet ? reth : 0) + icrc + fcs + preamble + ifg;
}

Ceiling roce_goodput(double rate_Gbps, int ib_mtu, bool ipv6, bool vlan) {
  if (!(rate_Gbps > 0)) return unknown_ceiling("the RoCE port speed is not known");
  if (!valid_ib_mtu(ib_mtu)) return unknown_ceiling("IB MTU " + std::to_string(ib_mtu) + " is not one of 256..4096");
  const int o = roce_overhead_bytes(ipv6, vlan, false);
  const double v = rate_Gbps * ib_mtu / (ib_mtu + o);
  return known_ceiling(v, "Gb/s",
                       "RoCEv2 on " + ethernet_name(rate_Gbps) + ", IB MTU " + std::to_string(ib_mtu) +
                           (ipv6 ? ", IPv6" : ", IPv4") + (vlan ? ", VLAN tag" : "") + ": " + format_figure(v) +
                           " Gb/s (" + std::to_string(ib_mtu) + " payload bytes per " + std::to_string(ib_mtu + o) +
                           " bytes on the wire, RDMA WRITE)");
}

double roce_message_efficiency(int64_t message_bytes, int ib_mtu, bool ipv6, bool vlan) {
  if (message_bytes <= 0 || !valid_ib_mtu(ib_mtu)) return 0;
  const int64_t packets = (message_bytes + ib_mtu - 1) / ib_mtu;
  const double overhead =
      static_cast<double>(packets) * roce_overhead_bytes(ipv6, vlan, false) + (roce_overhead_bytes(ipv6, vlan, true) -
                                                                                roce_overhead_bytes(ipv6, vlan, false));
  const auto m = static_cast<double>(message_bytes);
  return m / (m + overhead);
}

int roce_active_mtu(int ethernet_mtu) {
  constexpr int kRoceHeaders = 40 + 8 + 12 + 4 + 28 + 4;  // GRH, UDP, BTH, XRC, AtomicETH, ICRC
  for (int m : {4096, 2048, 1024, 512, 256})
    if (ethernet_mtu - kRoceHeaders >= m) return m;
  return 0;
}

// --- InfiniBand ------------------------------------------------------------------------------------

namespace {

struct IbSpeedRow {
  IbSpeed speed;
  const char* name;
  double lane_signal_Gbps;
  uint32_t verbs_code;
};

constexpr std::array<IbSpeedRow, 9> kIbSpeeds{{
    {IbSpeed::sdr, "SDR", 2.5, 1},
    {IbSpeed::ddr, "DDR", 5.0, 2},
    {IbSpeed::qdr, "QDR", 10.0, 4},
    {IbSpeed::fdr10, "FDR10", 10.3125, 8},
    {IbSpeed::fdr, "FDR", 14.0625, 16},
    {IbSpeed::edr, "EDR", 25.78125, 32},
    {IbSpeed::hdr, "HDR", 53.125, 64},
    {IbSpeed::ndr, "NDR", 106.25, 128},
    {IbSpeed::xdr, "XDR", 212.5, 256},
}};

const IbSpeedRow& row(IbSpeed s) { return kIbSpeeds[static_cast<size_t>(s)]; }

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return s;
}

}  // namespace

std::string to_string(IbSpeed s) { return row(s).name; }

std::optional<IbSpeed> ib_speed_from_name(const std::string& name) {
  const auto u = upper(name);
  for (const auto& r : kIbSpeeds)
    if (u == r.name) return r.speed;
  return std::nullopt;
}

std::optional<IbSpeed> ib_speed_from_verbs_code(uint32_t code) {
  for (const auto& r : kIbSpeeds)
    if (code == r.verbs_code) return r.speed;
  return std::nullopt;
}

double ib_lane_signal_Gbps(IbSpeed s) { return row(s).lane_signal_Gbps; }

double ib_lane_data_Gbps(IbSpeed s) {
  const double sig = ib_lane_signal_Gbps(s);
  switch (s) {
    case IbSpeed::sdr:
    case IbSpeed::ddr:
    case IbSpeed::qdr: return sig * 8.0 / 10.0;  // 8b/10b
    case IbSpeed::fdr10:
    case IbSpeed::fdr:
    case IbSpeed::edr: return sig * 64.0 / 66.0;  // 64b/66b
    case IbSpeed::hdr:
    case IbSpeed::ndr:
    case IbSpeed::xdr: return sig / 1.0625;  // PAM4 + FEC: wire = data * 1.0625 (kernel ib_rate_to_mbps)
  }
  return 0;
}

double ib_data_rate_Gbps(IbSpeed s, int width) { return ib_lane_data_Gbps(s) * width; }

double ib_sysfs_rate_Gbps(IbSpeed s, int width) {
  // The kernel prints signalling up to FDR (FDR10 as 40: its 10.3125 lane is reported as 10) and the
  // data rate from EDR on.
  switch (s) {
    case IbSpeed::sdr:
    case IbSpeed::ddr:
    case IbSpeed::qdr: return ib_lane_signal_Gbps(s) * width;
    case IbSpeed::fdr10: return 10.0 * width;
    case IbSpeed::fdr: return 14.0 * width;
    default: return ib_data_rate_Gbps(s, width);
  }
}

bool valid_ib_width(int w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 12; }

std::optional<IbPortRate> parse_ib_sysfs_rate(const std::string& text) {
  // "%d%s Gb/sec (%dX%s)\n", e.g. "200 Gb/sec (4X HDR)"
  double rate = 0;
  int width = 0, used = -1;
  char name[16] = {};
  if (std::sscanf(text.c_str(), " %lf Gb/sec (%dX %15[A-Za-z0-9])%n", &rate, &width, name, &used) != 3 || used < 0)
    return std::nullopt;
  if (text.find_first_not_of(" \t\r\n", static_cast<size_t>(used)) != std::string::npos) return std::nullopt;
  const auto speed = ib_speed_from_name(name);
  if (!speed || !valid_ib_width(width)) return std::nullopt;
  return IbPortRate{*speed, width};
}

Ceiling ib_data_rate(IbSpeed s, int width) {
  if (!valid_ib_width(width)) return unknown_ceiling("IB link width " + std::to_string(width) + "X is not valid");
  const double v = ib_data_rate_Gbps(s, width);
  return known_ceiling(v, "Gb/s",
                       "InfiniBand " + std::to_string(width) + "X " + to_string(s) + ": " + std::to_string(width) +
                           " lanes x " + format_figure(ib_lane_data_Gbps(s)) + " Gb/s data = " + format_figure(v) +
                           " Gb/s");
}

namespace {
std::string ib_mtu_words(int ib_mtu) {
  return std::to_string(ib_mtu) + " payload bytes per " + std::to_string(ib_mtu + kIbPacketOverheadBytes) +
         " bytes: LRH 8, BTH 12, ICRC 4, VCRC 2";
}
}  // namespace

Ceiling ib_goodput_from_data_rate(double data_Gbps, int ib_mtu) {
  if (!(data_Gbps > 0)) return unknown_ceiling("the InfiniBand port rate is not known");
  if (!valid_ib_mtu(ib_mtu)) return unknown_ceiling("IB MTU " + std::to_string(ib_mtu) + " is not one of 256..4096");
  const double v = data_Gbps * ib_mtu / (ib_mtu + kIbPacketOverheadBytes);
  return known_ceiling(v, "Gb/s",
                       "InfiniBand at " + format_figure(data_Gbps) + " Gb/s data, IB MTU " + std::to_string(ib_mtu) +
                           ": " + format_figure(v) + " Gb/s (" + ib_mtu_words(ib_mtu) + ")");
}

Ceiling ib_goodput(IbSpeed s, int width, int ib_mtu) {
  if (!valid_ib_width(width)) return unknown_ceiling("IB link width " + std::to_string(width) + "X is not valid");
  if (!valid_ib_mtu(ib_mtu)) return unknown_ceiling("IB MTU " + std::to_string(ib_mtu) + " is not one of 256..4096");
  const double data = ib_data_rate_Gbps(s, width);
  const double v = data * ib_mtu / (ib_mtu + kIbPacketOverheadBytes);
  return known_ceiling(v, "Gb/s",
                       "InfiniBand " + std::to_string(width) + "X " + to_string(s) + " (" + format_figure(data) +
                           " Gb/s data), IB MTU " + std::to_string(ib_mtu) + ": " + format_figure(v) + " Gb/s (" +
                           ib_mtu_words(ib_mtu) + ")");
}

}  // namespace gpunet::report
