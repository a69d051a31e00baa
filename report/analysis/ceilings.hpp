// Theoretical ceilings of the links a GPU cluster uses, as pure functions. Every constant and formula
// comes from report/CEILINGS.md (section numbers below); its tables are the test oracle
// (tests/report/analysis/test_ceilings_*.cpp).
//
// Units: Ethernet, RoCE and InfiniBand ceilings are in Gb/s (1e9 bit/s); PCIe, NVLink and NCCL
// bus-bandwidth ceilings in GB/s (1e9 B/s). All are per direction.
// A ceiling that cannot be known is returned with known = false and the reason; it is never guessed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpunet::report {

struct Ceiling {
  double value = 0;
  std::string unit;            // "Gb/s" or "GB/s"
  std::string derivation;      // in words, ending with the figure, e.g. "10GbE, MTU 1500, ...: 9.415 Gb/s"
  bool known = false;
  std::string unknown_reason;  // set when !known
};

Ceiling known_ceiling(double value, std::string unit, std::string derivation);
Ceiling unknown_ceiling(std::string reason);

// A number with 4 significant digits, as derivations print it: 9.415, 0.9564, 192, 31.51.
std::string format_figure(double x);

// --- Ethernet, TCP (§1.2, §1.3) ----------------------------------------------------------------
struct EthernetFraming {
  int mtu = 1500;             // L3 MTU
  bool ipv6 = false;
  bool tcp_timestamps = true; // Linux default
  bool vlan = false;          // 802.1Q tag
};

inline constexpr int kEthernetOverheadBytes = 38;  // preamble+SFD 8, MACs+EtherType 14, FCS 4, IFG 12
inline constexpr int kEthernetHeaderBytes = 14;    // what a tbf qdisc counts on top of the MTU

int tcp_payload_bytes(const EthernetFraming& f);    // P = MTU - IP - 20 - (12 with timestamps)
int ethernet_wire_bytes(const EthernetFraming& f);  // W = MTU + 38 (+4 with VLAN)
std::string ethernet_name(double rate_Gbps);        // "10GbE", "100 Mb/s Ethernet"

// Maximum TCP goodput on an Ethernet link of nominal rate R: R * P / W.
Ceiling tcp_goodput(double rate_Gbps, const EthernetFraming& f);

// TCP goodput on a link shaped by a tbf qdisc of `rate_bps`. The qdisc counts the L2 frame without
// preamble, FCS and gap, i.e. MTU + 14 (+4 with VLAN): rate * P / (MTU + 14).
Ceiling tcp_goodput_tbf(double rate_bps, const EthernetFraming& f);

// --- RoCEv2 (§1.4) -------------------------------------------------------------------------------
bool valid_ib_mtu(int ib_mtu);  // 256, 512, 1024, 2048, 4096
// Per-packet bytes beyond the payload: Eth 14 (+4 VLAN), IP 20/40, UDP 8, BTH 12, (RETH 16 on the
// first packet of a WRITE), ICRC 4, FCS 4, preamble/SFD 8, IFG 12.
int roce_overhead_bytes(bool ipv6, bool vlan, bool first_packet);
// Steady-state goodput of a large RDMA WRITE: R * m / (m + overhead).
Ceiling roce_goodput(double rate_Gbps, int ib_mtu, bool ipv6, bool vlan = false);
// Message-level efficiency with one RETH per message of `message_bytes`.
double roce_message_efficiency(int64_t message_bytes, int ib_mtu, bool ipv6, bool vlan = false);
// The RoCE active MTU the kernel derives from the netdev MTU (iboe_get_mtu): the largest IB MTU that
// fits in MTU - 96; 0 when none fits.
int roce_active_mtu(int ethernet_mtu);

// --- InfiniBand (§2, §7.2) ----------------------------------------------------------------------
enum class IbSpeed { sdr, ddr, qdr, fdr10, fdr, edr, hdr, ndr, xdr };

std::string to_string(IbSpeed s);                               // "SDR", ..., "XDR"
std::optional<IbSpeed> ib_speed_from_name(const std::string& name);  // case-insensitive
std::optional<IbSpeed> ib_speed_from_verbs_code(uint32_t code);  // ibv_port_attr active_speed(_ex)
double ib_lane_signal_Gbps(IbSpeed s);  // 2.5 ... 212.5
double ib_lane_data_Gbps(IbSpeed s);    // after line code / FEC: 2 ... 200
double ib_data_rate_Gbps(IbSpeed s, int width);
// What the kernel's sysfs `rate` file prints: signalling up to FDR, data from EDR on.
double ib_sysfs_rate_Gbps(IbSpeed s, int width);
bool valid_ib_width(int width);  // 1, 2, 4, 8, 12
// Parses the sysfs rate text, e.g. "200 Gb/sec (4X HDR)" -> {HDR, 4}.
struct IbPortRate {
  IbSpeed speed;
  int width;
};
std::optional<IbPortRate> parse_ib_sysfs_rate(const std::string& text);

inline constexpr int kIbPacketOverheadBytes = 26;  // LRH 8 + BTH 12 + ICRC 4 + VCRC 2
Ceiling ib_data_rate(IbSpeed s, int width);
// RC WRITE middle packets: data rate * m / (m + 26).
Ceiling ib_goodput(IbSpeed s, int width, int ib_mtu);
// The same from a port's data rate (the kernel's sysfs rate from EDR on), for ports known only by it.
Ceiling ib_goodput_from_data_rate(double data_Gbps, int ib_mtu);

// --- PCIe (§3.1, §3.2) --------------------------------------------------------------------------
bool valid_pcie_gen(int gen);      // 1..6
bool valid_pcie_width(int width);  // 1, 2, 4, 8, 12, 16, 32
double pcie_transfer_rate_GTps(int gen);     // 2.5 ... 64
double pcie_encoding_efficiency(int gen);    // 8/10, 128/130, 242/256
double pcie_lane_GBps(int gen);              // after encoding, one direction
std::optional<int> pcie_gen_from_GTps(double gtps);
// sysfs current_link_speed text: "16.0 GT/s PCIe" (or the pre-5.7 "16 GT/s") -> 4.
std::optional<int> pcie_gen_from_speed_text(const std::string& text);
// Raw rate without encoding, as marketing quotes it ("x16 Gen4 = 32 GB/s").
double pcie_marketing_GBps(int gen, int width);

enum class TlpHeader { dw3 = 12, dw4 = 16 };
// MPS / (MPS + header + 8): framing/sequence 4 + LCRC 4; DLLP and SKP excluded.
double pcie_tlp_efficiency(int mps, TlpHeader header);
Ceiling pcie_encoded(int gen, int width);
Ceiling pcie_tlp(int gen, int width, int mps, TlpHeader header = TlpHeader::dw4);

// --- NVLink (§4) --------------------------------------------------------------------------------
struct NvlinkGeneration {
  int gen;
  const char* gpu;
  int links_per_gpu;
  double link_GBps;       // per link, per direction
  double nccl_link_GBps;  // NCCL's effective model per link (topo.h)
};
std::optional<NvlinkGeneration> nvlink_generation(int gen);  // 2..5
// links = 0 takes the GPU's full count.
Ceiling nvlink_line_rate(int gen, int links = 0);       // per GPU, per direction
Ceiling nvlink_nccl_effective(int gen, int links = 0);  // links * NCCL per-link model

// Converts a Gb/s ceiling to GB/s (or back), extending the derivation with the conversion.
Ceiling to_GBps(const Ceiling& c);
Ceiling to_Gbps(const Ceiling& c);

// --- NCCL bus-bandwidth model (§5.4) ------------------------------------------------------------
// NCCL on a good NIC reaches about 0.96 of its line rate ("24GB/s per 200G NIC", nccl-tests#119).
inline constexpr double kNcclNicEfficiency = 0.96;
Ceiling nccl_nic_effective(double line_rate_Gbps);  // GB/s
// Ring busbw across nodes: min(intra-node, nics * per-NIC). Either input may be unknown when the
// other is known: the min is still bounded by the known term, and the derivation says so.
Ceiling ring_busbw_multi_node(const Ceiling& intra_node, int nics_per_node, const Ceiling& per_nic);

}  // namespace gpunet::report
