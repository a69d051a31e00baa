#include "report/render/svg_fabric.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "report/judge/baseline_stats.hpp"
#include "report/text/escape.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/model/json_access.hpp"
#include "report/analysis/oversubscription.hpp"
#include "report/render/svg_common.hpp"

namespace gpunet::report {

namespace {

constexpr double kFabricNodeW = 46, kFabricMargin = 20, kFabricSpineY = 60, kFabricLeafY = 150, kFabricNodeY = 250;
constexpr size_t kFabricNodesShown = 16;  // per leaf; the rest are counted

std::string fabric_pct(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", fraction * 100);
  return buf;
}

bool fabric_has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// What the matrix says of each leaf's uplink and each node's link, gathered in one pass over the pairs
// (a million at 1,024 hosts): per leaf, the goodput of the pairs with exactly one end below it; per
// host, its best pair and how many pairs it has.
struct MatrixByLink {
  std::vector<std::vector<double>> crossing;
  std::unordered_map<std::string, std::pair<double, int>> node;
};

MatrixByLink matrix_by_link(const std::vector<FabricLeaf>& leaves, const std::vector<PairGoodput>& pairs) {
  MatrixByLink m;
  m.crossing.resize(leaves.size());
  std::unordered_map<std::string, std::vector<size_t>> leaves_of;
  for (size_t i = 0; i < leaves.size(); ++i)
    for (const auto& h : leaves[i].hosts)
      if (auto& v = leaves_of[h]; v.empty() || v.back() != i) v.push_back(i);
  static const std::vector<size_t> none;
  const auto of = [&](const std::string& h) -> const std::vector<size_t>& {
    const auto it = leaves_of.find(h);
    return it == leaves_of.end() ? none : it->second;
  };
  for (const auto& p : pairs) {
    const auto &a = of(p.src), &b = of(p.dst);
    const auto in = [](const std::vector<size_t>& v, size_t i) { return std::find(v.begin(), v.end(), i) != v.end(); };
    for (const size_t i : a)
      if (!in(b, i)) m.crossing[i].push_back(p.gbps);
    for (const size_t i : b)
      if (!in(a, i)) m.crossing[i].push_back(p.gbps);
    for (const auto* h : {&p.src, &p.dst}) {
      if (h == &p.dst && p.dst == p.src) break;  // a pair counts once for its host
      auto& [top, n] = m.node.try_emplace(*h, -1.0, 0).first->second;
      top = std::max(top, p.gbps);
      ++n;
    }
  }
  return m;
}

FabricLinkView fabric_uplink_view(const FabricDrawing::Leaf& leaf, const std::vector<UplinkFigure>& figures,
                                  const std::vector<double>& crossing, double best) {
  FabricLinkView v{leaf.name, leaf.parent, std::nullopt, false, ""};
  for (const auto& f : figures)
    if (f.leaf == leaf.name && f.o.ratio > 0) {
      v.efficiency = 1 / f.o.ratio;
      v.evidence = oversubscription_text(f.leaf, f.parent, f.o);
      return v;
    }
  if (crossing.empty() || !(best > 0)) return v;
  v.efficiency = median_of(crossing) / best;
  v.evidence = leaf.name + " ↔ " + leaf.parent + ": " + std::to_string(crossing.size()) + " matrix pairs crossing it at " +
               fabric_pct(*v.efficiency) + " of the best pair (median)";
  return v;
}

FabricLinkView fabric_node_view(const std::string& host, const std::string& leaf, const MatrixByLink& m, double best) {
  FabricLinkView v{host, leaf, std::nullopt, false, ""};
  const auto it = m.node.find(host);
  if (it == m.node.end() || !(best > 0)) return v;
  const auto [top, n] = it->second;
  v.efficiency = top / best;
  v.evidence = host + ": best of its " + std::to_string(n) + " matrix pairs at " + fabric_pct(*v.efficiency) + " of the best pair";
  return v;
}

std::string fabric_line(double x1, double y1, double x2, double y2, const FabricLinkView& l, double threshold) {
  const std::string cls = "link " + link_class(l.efficiency, threshold) + (l.culprit ? " culprit" : "");
  const std::string title = l.evidence.empty() ? l.a + " ↔ " + l.b + ": not measured" : l.evidence;
  return "<line class=\"" + cls + "\" data-a=\"" + html_escape(l.a) + "\" data-b=\"" + html_escape(l.b) + "\" x1=\"" +
         svg::num(x1) + "\" y1=\"" + svg::num(y1) + "\" x2=\"" + svg::num(x2) + "\" y2=\"" + svg::num(y2) +
         "\"><title>" + html_escape(title) + "</title></line>";
}

std::string fabric_box(double cx, double y, double w, const std::string& label, const std::string& title, const char* cls) {
  const std::string shown = label.size() > static_cast<size_t>(w / 7) ? label.substr(0, static_cast<size_t>(w / 7) - 1) + "~" : label;
  return "<g class=\"" + std::string(cls) + "\"><title>" + html_escape(title) + "</title><rect x=\"" + svg::num(cx - w / 2) +
         "\" y=\"" + svg::num(y - 12) + "\" width=\"" + svg::num(w) + "\" height=\"24\" rx=\"3\"/><text x=\"" + svg::num(cx) +
         "\" y=\"" + svg::num(y + 4) + "\" text-anchor=\"middle\">" + html_escape(shown) + "</text></g>";
}

// A node's label: what follows the last '-' of its name when that is short ("fc1-node3" -> "node3").
std::string fabric_node_label(const std::string& host) {
  const auto dash = host.rfind('-');
  return dash != std::string::npos && dash + 1 < host.size() ? host.substr(dash + 1) : host;
}

}  // namespace

std::string link_class(const std::optional<double>& efficiency, double threshold) {
  if (!efficiency) return "link-unknown";
  if (*efficiency >= threshold) return "link-good";
  return *efficiency <= 0.5 ? "link-bad" : "link-low";
}

std::optional<FabricDrawing> fabric_drawing(const Report& rep, const LinkLocation& location) {
  if (!has_fabric(rep)) return std::nullopt;
  const auto leaves = fabric_leaves(rep);
  if (leaves.empty()) return std::nullopt;
  FabricDrawing d;
  d.threshold = matrix_slow_fraction(rep);
  const auto pairs = matrix_goodputs(rep);
  double best = 0;
  for (const auto& p : pairs) best = std::max(best, p.gbps);
  const auto figures = uplink_figures(rep);
  const MatrixByLink by_link = matrix_by_link(leaves, pairs);
  for (size_t i = 0; i < leaves.size(); ++i) {
    const auto& l = leaves[i];
    if (!fabric_has(d.spines, l.parent)) d.spines.push_back(l.parent);
    d.leaves.push_back({l.name, l.parent, l.hosts});
    auto up = fabric_uplink_view(d.leaves.back(), figures, by_link.crossing[i], best);
    for (const auto& c : location.culprits)
      for (const auto& link : c.links) up.culprit = up.culprit || (link.kind == LinkKind::uplink && link.name == l.name);
    d.uplinks.push_back(std::move(up));
    for (const auto& h : l.hosts) d.node_links.push_back(fabric_node_view(h, l.name, by_link, best));
  }
  return d;
}

std::string svg_fabric(const FabricDrawing& d) {
  using svg::num;
  std::vector<double> leaf_x;
  double x = kFabricMargin;
  for (const auto& l : d.leaves) {
    const double shown = static_cast<double>(std::clamp<size_t>(l.hosts.size(), 2, kFabricNodesShown));
    leaf_x.push_back(x + shown * kFabricNodeW / 2);
    x += shown * kFabricNodeW + kFabricMargin;
  }
  const double w = std::max(x, 420.0), h = kFabricNodeY + 90;
  std::string out = svg::open(w, h, {"The fabric: each link coloured by its measured efficiency"}, "chart fabric");
  out += "<style>.fabric .link{stroke-width:3}.fabric .link-good{stroke:#3a9d4a}.fabric .link-low{stroke:#e0a030}"
         ".fabric .link-bad{stroke:#d03c2c}.fabric .link-unknown{stroke:#b0b0b0;stroke-dasharray:4 3}"
         ".fabric .culprit{stroke-width:7}.fabric rect{fill:#f4f6f8;stroke:#607080}.fabric text{font-size:11px}"
         ".fabric .suspect{fill:#d03c2c;font-weight:bold}</style>";
  std::map<std::string, double> spine_x;
  for (size_t i = 0; i < d.spines.size(); ++i)
    spine_x[d.spines[i]] = w * static_cast<double>(i + 1) / static_cast<double>(d.spines.size() + 1);
  std::string lines, boxes;
  size_t node = 0;
  for (size_t i = 0; i < d.leaves.size(); ++i) {
    const auto& l = d.leaves[i];
    const double sx = spine_x[l.parent];
    lines += fabric_line(leaf_x[i], kFabricLeafY - 12, sx, kFabricSpineY + 12, d.uplinks[i], d.threshold);
    if (d.uplinks[i].culprit)
      boxes += "<text class=\"suspect\" x=\"" + num((leaf_x[i] + sx) / 2 + 6) + "\" y=\"" +
               num((kFabricLeafY + kFabricSpineY) / 2) + "\">suspect</text>";
    const double first = leaf_x[i] - static_cast<double>(std::min(l.hosts.size(), kFabricNodesShown) - 1) * kFabricNodeW / 2;
    for (size_t k = 0; k < l.hosts.size(); ++k, ++node) {
      if (k >= kFabricNodesShown) continue;
      const double nx = first + static_cast<double>(k) * kFabricNodeW;
      lines += fabric_line(nx, kFabricNodeY - 12, leaf_x[i], kFabricLeafY + 12, d.node_links[node], d.threshold);
      boxes += fabric_box(nx, kFabricNodeY, kFabricNodeW - 6, fabric_node_label(l.hosts[k]), l.hosts[k], "node");
    }
    if (l.hosts.size() > kFabricNodesShown)
      boxes += "<text x=\"" + num(leaf_x[i]) + "\" y=\"" + num(kFabricNodeY + 30) + "\" text-anchor=\"middle\">+" +
               std::to_string(l.hosts.size() - kFabricNodesShown) + " more</text>";
    boxes += fabric_box(leaf_x[i], kFabricLeafY, 80, l.name, l.name + " (" + std::to_string(l.hosts.size()) + " nodes)", "leaf");
  }
  for (const auto& s : d.spines) boxes += fabric_box(spine_x[s], kFabricSpineY, 90, s, s, "spine");
  const std::string legend = "green: at or above " + fabric_pct(d.threshold) + " of what it should carry; orange: below; red: half "
                             "or less; grey dashes: not measured; thick: the suspect uplink";
  out += lines + boxes + svg::text_lines(kFabricMargin, h - 24, 14, svg::wrap_words(legend, svg::chars_in(w - 40)), "legend");
  return out + "</svg>";
}

}  // namespace gpunet::report
