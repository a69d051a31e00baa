// An uplink's oversubscription (the tcp `fabric` test, docs/fabric.md): every node below a leaf sends
// across its uplink at once, in both directions, and the sum of those nodes' link ceilings is set
// against what crossed. The figure is `fabric.oversubscription`, a ratio: 2.0 for an uplink that
// carries half of what its nodes can send (2:1), 1.0 for a non-blocking one. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

inline constexpr const char* kOversubscriptionMetric = "fabric.oversubscription";
inline constexpr const char* kOversubscriptionUnit = "ratio";

// One direction across an uplink: the goodput of the flows that took it and their ceilings (each
// flow's ceiling is its nodes' link ceiling, as the matrix uses it), Gb/s.
struct UplinkDirection {
  double measured_Gbps = 0;
  double nodes_Gbps = 0;
};

struct Oversubscription {
  double ratio = 0;          // nodes_Gbps / measured_Gbps of the worse direction
  double measured_Gbps = 0;  // what crossed in that direction
  double nodes_Gbps = 0;     // the nodes' sum in that direction
  bool up = true;            // which direction: leaving the leaf (up) or entering it
};

// The worse of the two directions (the larger ratio); nothing when a direction carried nothing or its
// nodes' sum is unknown (0).
std::optional<Oversubscription> oversubscription(const UplinkDirection& up, const UplinkDirection& down);

// "leaf1 ↔ spine: 1.98:1, 3.9 of 7.7 Gb/s"
std::string oversubscription_text(const std::string& leaf, const std::string& parent, const Oversubscription& o);

// A fabric figure of a report, read back (Record::extra of a `tcp fabric` record).
struct UplinkFigure {
  std::string leaf, parent;
  Oversubscription o;
  std::vector<std::string> hosts;      // the nodes below the leaf that took part
  std::optional<double> link_speed;    // the leaf's LinkSpeed= (read as Gb/s), when the file gives one
  const Record* record = nullptr;
};

// The fabric figures of a report, in report order (passed records carrying the metric).
std::vector<UplinkFigure> uplink_figures(const Report& rep);

}  // namespace gpunet::report
