// The inputs the verdicts read, taken out of a Report in one place so that each promise works on
// well-defined, typed facts. Pure functions; tolerant of missing data (missing -> empty/nullopt).
//
// Topology (Report::topology): the per-node JSON of topology/ (topology/json.cpp), one per node, as
//   {"nodes": [NODE, ...]}   or   {"nodes": {HOST: NODE, ...}}   or   {HOST: NODE, ...}
// Fields read from NODE:
//   hostname (or the key)
//   gpus[]       bus_id; pcie {current: {gen, width}, usable: {gen, width}}
//   nics[]       bus_id; name; os_devices {net: [...], rdma: [...]}; line_rate_Gbps; pcie (as gpus)
//   interfaces[] name, bus_id, speed_Mbps: a NIC's speed when it has no line_rate_Gbps; every one is
//                also a netdev (NodeFacts::netdevs), for the interface that carried a run's traffic
//   pairs[]      {a, b, class}: bus ids and the path class; the GPU-NIC pairs are used
// PCIe link judged: generation from `usable` (the most the device and its upstream port can do: idle
// GPUs lower their current speed, which must not fail a contract), width the smaller of `current` and
// `usable` (a link that trained with fewer lanes shows in current). A flat {gen, width} also works.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"
#include "report/judge/spec.hpp"

namespace gpunet::report {

struct PcieLink {
  int gen = 0;
  int width = 0;
};

struct GpuFact {
  std::string bus_id;
  std::optional<PcieLink> link;
};

struct NicFact {
  std::string name;                // the one shown: first RDMA name, else netdev, else device name
  std::vector<std::string> names;  // every name a spec's nic.match may use: RDMA, netdev, device
  std::string bus_id;
  std::optional<double> speed_Gbps;  // from speed_Mbps; nullopt when unknown or link down
  std::optional<PcieLink> link;
  std::string down;  // the interface of it whose operstate is down ("eth1"), "" when none is
};

struct PathFact {
  std::string gpu;  // bus id
  std::string nic;  // bus id
  PathClass cls = PathClass::SYS;
};

struct NodeFacts {
  std::string host;
  std::vector<GpuFact> gpus;
  std::vector<NicFact> nics;
  std::vector<PathFact> paths;
  std::vector<NicFact> netdevs = {};  // interfaces[]: each netdev by its name, with its speed when readable
};

std::vector<NodeFacts> node_facts(const gpunet::json& topology);

// The value of a figure path ("busbw_GBps", "time_us.p99", "extra.goodput_Gbps") in a record.
// nullopt when absent, not a number, or not measured (bandwidth <= 0, time with no samples).
std::optional<double> figure_value(const Record& r, const std::string& figure);

// Display unit of a figure path from its name suffix: GBps -> "GB/s", Gbps -> "Gb/s", us -> "us".
std::string figure_unit(const std::string& figure);

// Records of suite/name (and variant when set). All statuses; callers filter.
std::vector<const Record*> select_records(const Report& report, const FigureSelector& sel);

// The size a selector means: its bytes when set, otherwise the largest (or smallest) size among the
// passed records given. nullopt when there is none.
std::optional<int64_t> chosen_bytes(const std::vector<const Record*>& records, const FigureSelector& sel,
                                    bool largest);

// Human size with binary suffixes: 67108864 -> "64 MiB", 1000 -> "1000 B".
std::string human_bytes(int64_t bytes);

// A number with a precision suited to a table (3 significant digits, no exponent for normal ranges).
std::string fmt_num(double v);

}  // namespace gpunet::report
