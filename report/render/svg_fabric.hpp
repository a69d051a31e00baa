// The picture of the fabric in report.html: the switches above the leaves, the leaves, the nodes below
// them, and every link coloured by its measured efficiency. An uplink's efficiency is what crossed it
// against its nodes' sum (1 / the fabric test's oversubscription), else the median of the matrix pairs
// crossing it against the best pair; a node's link is the best of its matrix pairs against the best
// pair (a node whose every pair is slow has a slow link; a slow uplink leaves its pairs within the rack
// fast). An uplink report/analysis/link_locate.hpp names is marked. Drawn only when a fabric is known. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/analysis/link_locate.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

struct FabricLinkView {
  std::string a, b;                  // leaf and its parent, or host and its leaf
  std::optional<double> efficiency;  // a fraction; unknown: not measured
  bool culprit = false;              // the uplink "What is wrong" names
  std::string evidence;              // what the efficiency comes from, for the link's tooltip
};

struct FabricDrawing {
  std::vector<std::string> spines;  // the switches above the leaves, in file order
  struct Leaf {
    std::string name, parent;
    std::vector<std::string> hosts;
  };
  std::vector<Leaf> leaves;
  std::vector<FabricLinkView> uplinks;     // one per leaf, in the leaves' order
  std::vector<FabricLinkView> node_links;  // one per host below a leaf
  double threshold = 0.8;                  // efficiency below this is low
};

// Nothing when the report has no fabric (extra.fabric) or the fabric has no leaf with an uplink.
// `location`: the report's fabric_location (Judgement::fabric), whose uplinks are marked suspect.
std::optional<FabricDrawing> fabric_drawing(const Report& rep, const LinkLocation& location);

// "link-good" (at or above the threshold), "link-low" (below it), "link-bad" (at or below half),
// "link-unknown" (not measured): the class of a link's line, which also sets its colour.
std::string link_class(const std::optional<double>& efficiency, double threshold);

// The SVG: one <line class="link ..."> per uplink and per node link (data-a, data-b), the culprit's
// with the class "culprit" and a label.
std::string svg_fabric(const FabricDrawing& d);

}  // namespace gpunet::report
