#include "report/render/json_flows_kept.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "report/analysis/analysis.hpp"
#include "report/judge/culprits.hpp"
#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// Where a reader is sent: the hosts What is wrong and a failed promise name, and the directed pairs
// of SLOWER baseline figures (a figure of one host or of more than two names its hosts). Not every
// end of a SLOWER pair: one slow node's pairs end at every other node, and so every flow was kept.
struct Cited {
  std::set<std::string> hosts;
  std::set<std::pair<std::string, std::string>> pairs;
};

Cited cited_by(const DocumentParts& parts) {
  Cited c;
  for (const auto& b : parts.wrong.bad_nodes) c.hosts.insert(b.host);
  for (const auto& v : parts.judgement->verdicts)
    if (v.status == VerdictStatus::fail) c.hosts.insert(v.hosts.begin(), v.hosts.end());
  if (const auto& cmp = parts.judgement->comparison)
    for (const auto& row : cmp->rows) {
      if (row.change != Change::slower) continue;
      if (row.hosts.size() == 2) c.pairs.insert({row.hosts[0], row.hosts[1]});
      else c.hosts.insert(row.hosts.begin(), row.hosts.end());
    }
  return c;
}

// One host's flows on one interface, one way.
struct Side {
  std::vector<double> goodput, efficiency;
  int failed = 0;
};

json spread(std::vector<double> v) {
  if (v.empty()) return nullptr;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {{"min", *lo}, {"median", percentile(v, 0.5)}, {"max", *hi}};
}

json side_json(const Side& s) {
  return {{"flows", s.goodput.size() + static_cast<std::size_t>(s.failed)}, {"failed", s.failed},
          {"goodput_Gbps", spread(s.goodput)}, {"efficiency", spread(s.efficiency)}};
}

}  // namespace

FlowsKept flows_kept(const Report& rep, const DocumentParts& parts, std::size_t whole_up_to, std::size_t most_whole) {
  FlowsKept kept;
  if (jsonx::object_at(rep.extra, kFlowsInPartKey)) return kept;  // written in part before: its summary is kept
  std::size_t flows = 0;
  for (const auto& r : rep.results) flows += record_kind(r) == RecordKind::tcp_flow;
  if (flows <= whole_up_to) return kept;

  const Cited cited = cited_by(parts);
  std::map<std::tuple<std::string, std::string, bool>, Side> sides;  // host, interface, received
  kept.whole.assign(rep.results.size(), true);
  std::size_t whole = 0;                                     // flows kept whole whatever their number: failed ones
  std::vector<std::tuple<int, double, std::size_t>> wanted;  // the others a reader should see: rank, efficiency, index
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    if (record_kind(r) != RecordKind::tcp_flow) continue;
    const Figure* f = record_figure(r);
    const bool ok = r.status == Status::passed && f && f->subject.kind == SubjectKind::pair;
    if (!ok) {
      ++whole;
      if (f) {
        ++sides[{f->subject.host, f->subject.iface, false}].failed;
        ++sides[{f->subject.dst_host, f->subject.dst_iface, true}].failed;
      }
      continue;
    }
    const Subject& s = f->subject;
    for (const auto& [host, iface, received] : {std::tuple{s.host, s.iface, false}, std::tuple{s.dst_host, s.dst_iface, true}}) {
      Side& side = sides[{host, iface, received}];
      side.goodput.push_back(f->value);
      if (f->efficiency) side.efficiency.push_back(*f->efficiency);
    }
    const bool low = f->efficiency && *f->efficiency < parts.threshold;
    const int rank = cited.pairs.count({s.host, s.dst_host}) || parts.blamed(s)         ? 1
                     : cited.hosts.count(s.host) || cited.hosts.count(s.dst_host) ? 2
                     : low                                                          ? 3
                                                                                    : 0;
    kept.whole[i] = rank > 0;
    if (rank) wanted.push_back({rank, f->efficiency.value_or(0), i});
  }
  // Past most_whole, the failed flows and the most telling of the rest: a cited pair, a named host's
  // flow, a flow below the threshold, each the least efficient first (half of 1,024 hosts slow: 785,920).
  std::size_t summarised = 0;
  if (wanted.size() > most_whole) {
    std::nth_element(wanted.begin(), wanted.begin() + static_cast<long>(most_whole), wanted.end());
    for (std::size_t k = most_whole; k < wanted.size(); ++k) kept.whole[std::get<2>(wanted[k])] = false;
    summarised = wanted.size() - most_whole;
  }
  whole += wanted.size() - summarised;

  json hosts = json::array();
  for (const auto& [key, side] : sides) {
    const auto& [host, iface, received] = key;
    json& h = hosts.empty() || hosts.back()["host"] != host || hosts.back()["iface"] != iface
                  ? hosts.emplace_back(json{{"host", host}, {"iface", iface}})
                  : hosts.back();
    h[received ? "received" : "sent"] = side_json(side);
  }
  kept.summary = {{"flows", flows},
                  {"whole", whole},
                  {"threshold", parts.threshold},
                  {"why", "more than " + std::to_string(whole_up_to) +
                              " TCP flows: report.json keeps whole the flows that failed, fell below the efficiency "
                              "threshold, have an end that What is wrong or a failed promise names, or are the pair of a SLOWER "
                              "baseline figure (" + std::to_string(most_whole) + " at most beside the failed ones: the cited first, "
                              "the least efficient first), and summarises every host's flows; every flow is in results.jsonl and "
                              "tcp_flows.csv"},
                  {"summarised_of_those", summarised},
                  {"hosts", std::move(hosts)}};
  return kept;
}

}  // namespace gpunet::report
