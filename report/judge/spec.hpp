// The acceptance spec: what a hosting contract promises, stated in one JSON file.
//
// Format (every key optional unless marked; unknown keys are errors; see ci/SPEC.md for the full text):
//
//   {
//     "spec_version": 2,                                   required, 1 or 2
//     "link":     {"rate_Gbps": 100},                      version 2: the promised rate of every link
//     "name": "Contract 2024-117, 4 x 8-GPU nodes",
//     "nic":      {"count": 2, "speed_Gbps": 100, "match": "^mlx5_"},
//     "pcie":     {"gpu": {"gen": 4, "width": 16}, "nic": {"gen": 4, "width": 16}},
//     "locality": {"worst_path": "PXB"},                   X < PIX < PXB < PHB < NODE < SYS
//     "bandwidth": [{"suite": "nccl", "name": "allreduce", "bytes": 67108864, "min": 180},
//                   {"suite": "tcp", "name": "bandwidth", "figure": "extra.goodput_Gbps",
//                    "min_efficiency_pct": 90}],
//     "latency":   [{"suite": "tcp", "name": "latency", "max_p99_us": 50}],   half the round trip;
//                                                      or "max_p99_rtt_us": 100, the whole round trip
//     "stability": [{"suite": "tcp", "name": "bandwidth", "max_dip_pct": 20}],
//     "homogeneity": {"topology": true,
//                     "figures": [{"suite": "pcie", "name": "h2d", "max_spread_pct": 10}]},
//     "fabric":   {"max_oversubscription": 1.2}               or {"non_blocking": true} (at most 1.1)
//     "congestion": {"max_cif": 3.0}                       every victim's CIF per measure (report/analysis/congestion.hpp)
//   }
//
// A figure is named by its metric as the test's suite states it ("tcp.goodput", "mpi.allreduce.busbw":
// KnownTest::metrics), which the reader turns into the record path it is kept at, or by that path:
// "busbw_GBps", "algbw_GBps", "time_us.p99" (any TimeStats field) or "extra.KEY[.KEY...]" (a number
// in Record::extra). Parsing is strict: an unknown key, a wrong
// type or an out-of-range value throws SpecError whose message names the file, the field path and the
// problem, e.g. `spec.json: nic.speed_Gbps: expected a number, got "fast"`.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/judge/figure_select.hpp"

namespace gpunet::report {

// GPU-NIC path classes as `nvidia-smi topo -m` prints them, best (X) to worst (SYS).
enum class PathClass { X, PIX, PXB, PHB, NODE, SYS };
std::string to_string(PathClass p);
std::optional<PathClass> path_class_from_string(const std::string& s);

class SpecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which records a promise reads: suite and name always; variant and bytes narrow the choice.
struct FigureSelector {
  std::string suite;
  std::string name;              // a test of the suite, or a test kind of it (tcp "matrix")
  std::string variant;           // empty = any variant; spec_version 2 also spells it `test`
  std::optional<int64_t> bytes;  // unset = a default size chosen by the promise (largest or smallest)
  std::string figure;            // path into the Record; the promise supplies the default
  // A run on several rails (docs/rails.md): a promise judges every rail unless it names one.
  std::optional<int> rail;       // "rail": 1
  std::string iface;             // "interface": "eth1"
  // How it selects records, from the suite's description of the test (report/judge/figure_select.hpp test_rule).
  std::string stands_for;
  std::vector<std::string> left_out;
};

struct LinkSpec {
  std::optional<int> gen;    // minimum PCIe generation
  std::optional<int> width;  // minimum lane count
};

struct NicSpec {
  std::optional<int> count;          // at least this many matching NICs per node (at >= speed, if set)
  std::optional<double> speed_Gbps;  // every counted NIC runs at least this link speed
  std::string match;                 // POSIX extended regex on the NIC names; empty = every NIC
};

struct BandwidthPromise {
  FigureSelector sel;                       // figure defaults to busbw_GBps, bytes to the largest size
  std::optional<double> min;                // in the figure's unit
  std::optional<double> min_efficiency_pct; // measured / ceiling, from figure.efficiency
};

struct LatencyPromise {
  FigureSelector sel;  // figure defaults to time_us.p99, bytes to the smallest size
  double max_us = 0;
  // max_p99_us limits the figure as measured: a latency test's times are half the round trip
  // (kLatencyMeasure). max_p99_rtt_us limits the whole round trip: twice the figure.
  bool round_trip = false;
};

struct StabilityPromise {
  FigureSelector sel;  // bytes defaults to the largest size
  double max_dip_pct = 0;
};

struct SpreadPromise {
  FigureSelector sel;  // figure defaults to busbw_GBps, bytes to the largest size
  double max_spread_pct = 0;
};

struct HomogeneitySpec {
  bool topology = false;              // every node has the same GPUs, NICs and links
  std::vector<SpreadPromise> figures; // per-host values within a spread of their median
};

// fabric: every uplink's measured oversubscription (the tcp fabric test) at most this ratio.
inline constexpr double kNonBlockingRatio = 1.1;  // "non_blocking": true (TCP's own noise on a 1:1 uplink)
struct FabricPromise {
  double max_oversubscription = kNonBlockingRatio;
  bool non_blocking = false;  // stated as "non_blocking": true
};

// The tcp congestion test: no victim's congestion impact factor (latency p50, p99, bandwidth) above max_cif.
struct CongestionPromise {
  double max_cif = 0;  // >= 1
};

struct Spec {
  std::string source;  // file name, for messages
  int version = 1;     // spec_version: 1 or 2 (2 adds `test` on promises and link.rate_Gbps)
  std::string name;
  std::optional<double> link_rate_Gbps;  // link.rate_Gbps (version 2): the promised rate of every link
  std::optional<int> nodes;              // nodes: at least this many hosts take part in the run
  std::optional<NicSpec> nic;
  std::optional<LinkSpec> pcie_gpu;
  std::optional<LinkSpec> pcie_nic;
  std::optional<PathClass> worst_path;
  std::vector<BandwidthPromise> bandwidth;
  std::vector<LatencyPromise> latency;
  std::vector<StabilityPromise> stability;
  std::optional<HomogeneitySpec> homogeneity;
  std::optional<FabricPromise> fabric;
  std::optional<CongestionPromise> congestion;
};

// Strict parse of an already-decoded document. `source` prefixes every error message. `known`: the
// suites and tests a promise may name, as the suites describe them (bench::spec_names of the suite list).
Spec parse_spec(const gpunet::json& doc, const std::string& source, const KnownTests& known);

// Reads and parses a spec file. Throws SpecError (unreadable file, invalid JSON, invalid content).
Spec load_spec(const std::string& path, const KnownTests& known);

// The promised rate that efficiency promises on Gb/s and GB/s figures are judged against:
// link.rate_Gbps, else nic.speed_Gbps; nullopt when the spec states none.
std::optional<double> promised_rate_Gbps(const Spec& spec);

// True when `figure` is a syntactically valid figure path (see the header comment).
bool valid_figure_path(const std::string& figure);

}  // namespace gpunet::report
