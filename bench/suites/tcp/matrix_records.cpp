// The link matrix's records (pure): cells from flow records, what makes a pair slow, the N x N matrix
// record and the findings that name a slow host or pair. Declared in records.hpp.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "bench/suites/tcp/records.hpp"
#include "report/analysis/analysis.hpp"
#include "report/analysis/direction.hpp"
#include "report/analysis/path_ceilings.hpp"

namespace gpunet::bench::tcp {

using gpunet::json;
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

std::string coverage_sentence(int directed_measured, int participants, const std::string& pairs, uint64_t seed,
                              int across_leaves) {
  const int all = participants * (participants - 1);
  std::string s = std::to_string(directed_measured) + " of " + std::to_string(all) + " directed pairs measured (" + pairs +
                  (pairs.rfind("random", 0) == 0 ? ", seed " + std::to_string(seed) : "") +
                  (across_leaves >= 0 ? ", partners drawn across and within leaf switches: " + std::to_string(across_leaves) +
                                            " of " + std::to_string(directed_measured / 2) + " pairs between two"
                                      : "") +
                  ")";
  if (directed_measured < all)
    s += "; a pair not measured may be slow unseen: a slow cable or port between two nodes that are fine with their "
         "other partners shows only in their own pair (--tcp-pairs all, or another --tcp-pairs-seed, measures it)";
  return s;
}

void add_coverage(report::Record& m, const MatrixCoverage& c, double best_bps, double fraction) {
  const int n = m.ranks;
  m.extra["pairs"] = c.pairs;
  if (c.pairs.rfind("random", 0) == 0) m.extra["pairs_seed"] = c.seed;
  m.extra["directed_pairs_measured"] = 2 * c.pairs_measured;
  m.extra["directed_pairs"] = n * (n - 1);
  if (c.across_leaves >= 0) m.extra["pairs_across_leaves"] = c.across_leaves;
  m.extra["coverage"] = coverage_sentence(2 * c.pairs_measured, n, c.pairs, c.seed, c.across_leaves);
  m.extra["retest_rounds"] = c.retest_rounds;
  json left = json::array();
  for (const auto& x : c.not_retested)
    left.push_back({{"src_host", m.extra["hosts"].at(static_cast<size_t>(x.src))},
                    {"dst_host", m.extra["hosts"].at(static_cast<size_t>(x.dst))},
                    {"goodput_Gbps", x.goodput_bps / 1e9}, {"why", slow_reason(x, best_bps, fraction)}});
  m.extra["not_retested"] = left;
  if (!c.not_retested.empty())
    m.extra["not_retested_note"] = std::to_string(c.not_retested.size()) + " suspect directions were not re-tested (past " +
                                   std::to_string(c.retest_rounds) + " rounds of re-tests, --tcp-retest-rounds): they are "
                                   "slow in the matrix only, and no finding rests on them alone";
  if (c.pairs != "all") m.variant = c.pairs + " pairs" + m.variant.substr(std::string("all pairs").size());
}

namespace {

std::vector<report::DirectedRate> directed_rates(const std::vector<Cell>& cells, const std::vector<Node>& nodes) {
  std::vector<report::DirectedRate> out;
  for (const auto& c : cells)
    if (c.status == Status::passed)
      out.push_back({nodes[static_cast<size_t>(c.src)].host, nodes[static_cast<size_t>(c.dst)].host, c.goodput_bps / 1e9});
  return out;
}

// Each direction's last measurement (a re-test comes after the matrix's): confirmed slow, fine, or
// neither (slow in the matrix but not re-tested, or failed).
enum class DirectionVerdict { slow, fine, open };

// The hosts slow with at least two partners and fine with none (3+ participants): a partner counts as
// slow when a direction with it is confirmed slow, as fine when every direction measured with it was
// fine. Without `measured` (every pair measured, the unconfirmed ones fine): slow with every other.
std::set<int> hosts_slow_with_partners(const std::vector<Cell>& confirmed, const std::vector<Cell>& measured, int n, double best_bps,
                         double fraction) {
  std::map<std::pair<int, int>, DirectionVerdict> dir;
  for (const auto& c : measured)
    dir[{c.src, c.dst}] = c.status == Status::passed && slow_reason(c, best_bps, fraction).empty() ? DirectionVerdict::fine : DirectionVerdict::open;
  for (const auto& c : confirmed) dir[{c.src, c.dst}] = DirectionVerdict::slow;
  std::set<int> named;
  if (n < 3) return named;
  for (int h = 0; h < n; ++h) {
    int slow = 0, fine = 0;
    for (int p = 0; p < n; ++p) {
      if (p == h) continue;
      const auto a = dir.find({h, p}), b = dir.find({p, h});
      const bool any = a != dir.end() || b != dir.end();
      const auto is = [&](DirectionVerdict v) { return (a != dir.end() && a->second == v) || (b != dir.end() && b->second == v); };
      if (is(DirectionVerdict::slow))
        ++slow;
      else if (measured.empty() || (any && !is(DirectionVerdict::open)))
        ++fine;
    }
    if (slow >= 2 && fine == 0) named.insert(h);
  }
  return named;
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
  const std::set<int> named = hosts_slow_with_partners(confirmed, measured, n, best_bps, fraction);
  if (n >= 3 && static_cast<int>(named.size()) == n) {  // every node: a common cause, not n NICs
    auto r = base("network");
    r.host = nodes[0].host;
    r.rank = nodes[0].rank;
    r.reason = "every node is slow with every partner (" + std::to_string(confirmed.size()) +
               " directions, confirmed when re-tested): the cause looks common (the hosts or the network as a "
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
      r.reason = "host " + node.host + ": every pair with it is slow (" + std::to_string(dirs.size()) + " directions with " +
                 std::to_string(partners[h].size()) + " partners, confirmed when re-tested); suspect its NIC, cable or switch port";
    else
      r.reason = "host " + node.host + ": " + one_way + " (" + std::to_string(partners[h].size()) +
                 " partners), confirmed when re-tested; suspect what limits its " +
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
               ", confirmed when re-tested";
    r.extra["finding"] = {{"severity", "error"}, {"subject", "pair"}, {"src_host", s.host}, {"dst_host", d.host},
                          {"goodput_Gbps", c.goodput_bps / 1e9}};
    out.push_back(r);
  }
  return out;
}

}  // namespace gpunet::bench::tcp
