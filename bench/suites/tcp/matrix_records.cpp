// The link matrix's records (pure): cells from flow records, what makes a pair slow, the N x N matrix
// record and the findings that name a slow host or pair. Declared in records.hpp.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "bench/suites/tcp/records.hpp"
#include "report/analysis.hpp"
#include "report/direction.hpp"
#include "report/path_ceilings.hpp"

namespace gpunet::bench::tcp {

using nlohmann::json;
using report::Status;

namespace {

std::string fixed_digits(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

Cell cell_of(const report::Record& r, const FlowSpec& flow) {
  Cell c;
  c.src = flow.src;
  c.dst = flow.dst;
  static const json kNoTopology = json::object();
  c.goodput_bps = r.figure ? r.figure->value * 1e9 : 0.0;
  const report::FigureCeiling ceiling = report::figure_ceiling(r, report::Provenance{}, report::TopologyView(kNoTopology));
  if (ceiling.known && ceiling.value > 0) c.ceiling_bps = ceiling.value * 1e9;
  c.status = r.status;
  return c;
}

double best_goodput(const std::vector<Cell>& cells) {
  double best = 0;
  for (const auto& c : cells)
    if (c.status == Status::passed) best = std::max(best, c.goodput_bps);
  return best;
}

std::string slow_reason(const Cell& c, double best_bps, double fraction) {
  if (c.status != Status::passed) return "";
  if (c.ceiling_bps && c.goodput_bps < fraction * *c.ceiling_bps)
    return fixed_digits(c.goodput_bps / 1e9, 3) + " Gb/s is " + fixed_digits(100 * c.goodput_bps / *c.ceiling_bps, 0) +
           "% of its ceiling " + fixed_digits(*c.ceiling_bps / 1e9, 3) + " Gb/s (below " + fixed_digits(100 * fraction, 0) + "%)";
  if (best_bps > 0 && c.goodput_bps < fraction * best_bps)
    return fixed_digits(c.goodput_bps / 1e9, 3) + " Gb/s is " + fixed_digits(100 * c.goodput_bps / best_bps, 0) +
           "% of the best pair's " + fixed_digits(best_bps / 1e9, 3) + " Gb/s (below " + fixed_digits(100 * fraction, 0) + "%)";
  return "";
}

report::Record matrix_record(const std::vector<Cell>& cells, const std::vector<Node>& nodes, int rounds,
                             const std::vector<Cell>& suspects, const std::vector<Cell>& retests, double fraction) {
  const size_t n = nodes.size();
  report::Record rec;
  rec.suite = "tcp";
  rec.name = "matrix";
  rec.variant = "all pairs";
  rec.ranks = static_cast<int>(n);
  rec.host = n ? nodes[0].host : "";
  rec.rank = n ? nodes[0].rank : 0;
  json m = json::array();
  for (size_t i = 0; i < n; ++i) m.push_back(json(std::vector<json>(n, nullptr)));
  for (const auto& c : cells)
    m[static_cast<size_t>(c.src)][static_cast<size_t>(c.dst)] = c.status == Status::passed ? json(c.goodput_bps / 1e9) : json(nullptr);
  std::vector<std::string> hosts;
  for (const auto& node : nodes) hosts.push_back(node.host);
  const double best = best_goodput(cells);
  auto list = [&](const std::vector<Cell>& v) {
    json a = json::array();
    for (const auto& c : v)
      a.push_back({{"src_host", hosts[static_cast<size_t>(c.src)]},
                   {"dst_host", hosts[static_cast<size_t>(c.dst)]},
                   {"goodput_Gbps", c.goodput_bps / 1e9},
                   {"why", slow_reason(c, best, fraction)}});
    return a;
  };
  int failed = 0;
  for (const auto& c : cells) failed += c.status != Status::passed;
  if (failed) {
    rec.status = Status::failed;
    rec.reason = std::to_string(failed) + " of " + std::to_string(cells.size()) + " pair directions did not complete";
  }
  rec.extra["hosts"] = hosts;
  if (n && nodes[0].rail >= 0) {
    rec.variant = "all pairs, rail " + std::to_string(nodes[0].rail) + " (" + nodes[0].iface + ")";
    rec.extra["rail"] = nodes[0].rail;
    rec.extra["interface"] = nodes[0].iface;
    json ifaces = json::array();
    for (const auto& node : nodes) ifaces.push_back(node.iface);
    rec.extra["interfaces"] = ifaces;
  }
  rec.extra["goodput_Gbps"] = m;
  rec.extra["rows_are"] = "senders; columns are receivers";
  rec.extra["rounds"] = rounds;
  rec.extra["best_Gbps"] = best / 1e9;
  rec.extra["suspect_fraction"] = fraction;
  rec.extra["suspects"] = list(suspects);
  rec.extra["retests"] = list(retests);
  return rec;
}

namespace {

std::vector<report::DirectedRate> directed_rates(const std::vector<Cell>& cells, const std::vector<Node>& nodes) {
  std::vector<report::DirectedRate> out;
  for (const auto& c : cells)
    if (c.status == Status::passed)
      out.push_back({nodes[static_cast<size_t>(c.src)].host, nodes[static_cast<size_t>(c.dst)].host, c.goodput_bps / 1e9});
  return out;
}

}  // namespace

std::vector<report::Record> findings(const std::vector<Cell>& confirmed, const std::vector<Node>& nodes,
                                     double best_bps, double fraction, const std::vector<Cell>& measured) {
  std::vector<report::Record> out;
  const int n = static_cast<int>(nodes.size());
  std::map<int, std::set<int>> partners;  // host -> partners it is slow with, in either direction
  for (const auto& c : confirmed) {
    partners[c.src].insert(c.dst);
    partners[c.dst].insert(c.src);
  }
  auto base = [&](const std::string& variant) {
    report::Record r;
    r.suite = "tcp";
    r.name = "finding";
    r.variant = variant;
    r.status = Status::failed;
    r.ranks = n;
    return r;
  };
  std::set<int> named;
  if (n >= 3)
    for (const auto& [host, with] : partners)
      if (static_cast<int>(with.size()) == n - 1) named.insert(host);
  if (n >= 3 && static_cast<int>(named.size()) == n) {  // every node: a common cause, not n NICs
    auto r = base("network");
    r.host = nodes[0].host;
    r.rank = nodes[0].rank;
    r.reason = "every node is slow with every other (" + std::to_string(confirmed.size()) +
               " directions, confirmed when re-tested alone): the cause looks common (the hosts or the network as a "
               "whole), not each node's NIC";
    r.extra["finding"] = {{"severity", "error"}, {"subject", "network"}, {"directions", confirmed.size()}};
    out.push_back(r);
    return out;
  }
  const auto slow_rates = directed_rates(confirmed, nodes), all_rates = directed_rates(measured, nodes);
  for (int h : named) {
    auto r = base("host");
    const Node& node = nodes[static_cast<size_t>(h)];
    r.host = node.host;
    r.rank = node.rank;
    json dirs = json::array();
    for (const auto& c : confirmed)
      if (c.src == h || c.dst == h)
        dirs.push_back({{"src_host", nodes[static_cast<size_t>(c.src)].host},
                        {"dst_host", nodes[static_cast<size_t>(c.dst)].host},
                        {"goodput_Gbps", c.goodput_bps / 1e9},
                        {"why", slow_reason(c, best_bps, fraction)}});
    const std::string one_way = report::one_way_slowness(node.host, slow_rates, all_rates);
    const bool sending = one_way.rfind("slow sending", 0) == 0;
    if (one_way.empty())
      r.reason = "host " + node.host + ": every pair with it is slow (" + std::to_string(dirs.size()) +
                 " directions, confirmed when re-tested alone); suspect its NIC, cable or switch port";
    else
      r.reason = "host " + node.host + ": " + one_way + ", confirmed when re-tested alone; suspect what limits its " +
                 (sending ? "sending side (a shaper, its NIC's transmit path, its uplink)"
                          : "receiving side (a policer, its NIC's receive path, its switch port)");
    r.extra["finding"] = {{"severity", "error"}, {"subject", "host"}, {"host", node.host}, {"pairs", dirs},
                          {"direction", one_way.empty() ? "both" : sending ? "sending" : "receiving"}};
    out.push_back(r);
  }
  for (const auto& c : confirmed) {
    if (named.count(c.src) || named.count(c.dst)) continue;
    auto r = base("pair");
    const Node& s = nodes[static_cast<size_t>(c.src)];
    const Node& d = nodes[static_cast<size_t>(c.dst)];
    r.host = s.host;
    r.rank = s.rank;
    r.reason = "pair " + s.host + " → " + d.host + " is slow: " + slow_reason(c, best_bps, fraction) +
               ", confirmed when re-tested alone";
    r.extra["finding"] = {{"severity", "error"}, {"subject", "pair"}, {"src_host", s.host}, {"dst_host", d.host},
                          {"goodput_Gbps", c.goodput_bps / 1e9}};
    out.push_back(r);
  }
  return out;
}

}  // namespace gpunet::bench::tcp
