// Analysis: puts each record's figure (Record::figure, report/model/figure.hpp) beside the ceiling of the
// path it took, with the ceiling's derivation in words, the efficiency, and below a threshold an
// explanation drawn from the topology and the transport actually used. Pure: reads a Report, writes
// the results back into it. The figure's path model selects the ceiling model:
//   tcp_flow    the bottleneck of extra.link (sender) and extra.dst_link (receiver), each end's
//               divided by the figure's sending_share / receiving_share              (Gb/s)
//   tcp_link    extra.link, a whole link (the aggregate of one-to-many / many-to-one)  (Gb/s)
//   rdma_port   extra.rdma, the binding end's port                                     (Gb/s)
//   pcie_link   extra.pcie or the GPU's pcie section in the topology                   (GB/s)
//   collective  the Ring model over extra.intra / extra.nccl / extra.link and the topology (GB/s)
//
// Path facts read from Record::extra (all optional; suites attach what they know):
//   link, dst_link {kind: "ethernet"|"loopback"|"shm", iface, speed_Mbps, mtu, ipv6, tcp_timestamps
//           (default true, the Linux default), vlan, shaped_rate_bps (tbf rate), stated_rate_bps
//           (--link-rate), driver (veth, bridge, tun: a virtual NIC), loopback: true}
//   rdma   {link_layer: "InfiniBand"|"Ethernet", device, ib_mtu (bytes), rate_Gbps, ib_speed ("HDR"),
//           width (4), rate (sysfs text "200 Gb/sec (4X HDR)"), ipv6, vlan, pcie: {gen, width, mps},
//           gpu_index, gdr}
//   pcie   {gen, width, max_gen, max_width, mps, speed / max_speed (sysfs text), gpu_index, host_numa,
//           gpu_numa}
//   nccl   {transport: "NET/Socket"|"NET/IB"|"P2P/..."|"SHM/...", iface, nic, gdr, algo: "Ring"|"Tree"|
//           "NVLS"|..., gpu_nic_path: "PIX"|"PXB"|"PHB"|"NODE"|"SYS"}
//   intra  {kind: "nvlink"|"pcie"|"shm", gen, links, width}   the intra-node path of a collective
//   nodes  number of nodes the record's ranks span (else: provenance.ranks_per_node, else hosts)
//   nics_per_node  NICs a collective's traffic spreads over (default 1: the one named)
//   gpu_index, retransmits
// Report::topology is read through TopologyView (report/analysis/topology_view.hpp); it is optional.
//
// Written back:
//   Record::figure->ceiling = {known: true, value, unit, derivation, source, explanation?}
//                           | {known: false, reason}
//   Record::figure->efficiency = figure / ceiling (only for passed records with a known ceiling);
//     the explanation only when efficiency < threshold or > over_ceiling.
//   Report::extra.analysis = {threshold, verdict: "PASS"|"WARN"|"FAIL", summary (one sentence),
//     counts: {records, passed, failed, skipped, timed_out, wrong, below_threshold, above_ceiling,
//     no_ceiling}}
//   Report::findings += bond_one_member (report/analysis/bond_streams.hpp), once
#pragma once

#include <optional>
#include <string>

#include "report/analysis/ceilings.hpp"
#include "report/model/record.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::report {

// An efficiency above this is beyond the ceiling by more than a measurement's noise (a tbf burst, the
// rounding of a rate): the model or the link data is off. It is explained, and never coloured green.
inline constexpr double kOverCeiling = 1.02;

struct AnalysisOptions {
  double threshold = 0.8;     // efficiency below this gets an explanation and a WARN
  double over_ceiling = kOverCeiling;  // efficiency above this is explained too
};

// The record's figure when it is a rate (better = higher), the kind a ceiling bounds; else null.
const Figure* record_figure(const Record& r);

// The ceiling of the path a record's figure took, in the figure's unit, from the figure's path model.
// Pure. The analysis, the live console and the tcp suite's suspect selection all call this one.
FigureCeiling figure_ceiling(const Record& r, const Provenance& p, const TopologyView& topo);

// Attaches figure_ceiling and the efficiency to r.figure, as the analysis does (no explanation).
void attach_ceiling(Record& r, const Provenance& p, const TopologyView& topo);

struct RecordAnalysis {
  Ceiling ceiling;                   // in the figure's unit when both exist
  std::optional<double> efficiency;  // figure / ceiling, for passed records with a figure
};

// The best efficiency reached in a record's size sweep, and at which size.
struct SweepPeak {
  double efficiency = 0;
  int64_t bytes = 0;
};

// What the rest of the report says about a record: how its sweep and its sibling host pairs did.
struct GapContext {
  std::optional<SweepPeak> sweep;        // the best point of the record's size sweep
  std::optional<double> best_pair;       // the best efficiency among records of the same pair test
};

// Node count of a record's ranks: extra.nodes, else the run's node count for records that span all
// ranks, else 0 (unknown).
int record_nodes(const Record& r, const Provenance& p);

// The ceiling and efficiency of one record.
RecordAnalysis analyze_record(const Record& r, const Report& rep, const TopologyView& topo);

// Why a figure is far from its ceiling, in sentences drawn from the record's transport and link data,
// the topology, and how its sweep and sibling pairs did.
std::string explain_gap(const Record& r, const Ceiling& c, double efficiency, const GapContext& ctx,
                        const TopologyView& topo, const AnalysisOptions& opt);

// Annotates every record and writes the summary into rep.extra.analysis.
void analyze(Report& rep, const AnalysisOptions& opt = {});

}  // namespace gpunet::report
