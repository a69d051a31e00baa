#include "report/judge/culprits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "report/analysis/direction.hpp"
#include "report/analysis/fabric_view.hpp"
#include "report/analysis/flow_failures.hpp"
#include "report/analysis/link_sentences.hpp"
#include "report/judge/host_load.hpp"
#include "report/judge/networks.hpp"
#include "report/judge/scheduler_lines.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

struct Problems {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_host;  // in order of first blame
  std::vector<std::string> other;
  std::set<std::pair<std::string, std::string>> explained;  // slow directed pairs a fabric link explains
  std::set<std::pair<std::string, std::string>> located;    // ... or any located link, a NIC included
  std::vector<std::pair<std::string, std::string>> nics;    // a located NIC: host, sentence

  void blame(const std::string& host, const std::string& sentence) {
    auto it = std::find_if(by_host.begin(), by_host.end(), [&](const auto& e) { return e.first == host; });
    if (it == by_host.end()) it = by_host.insert(by_host.end(), {host, {}});
    if (std::find(it->second.begin(), it->second.end(), sentence) == it->second.end()) it->second.push_back(sentence);
  }
  void add(const std::string& sentence) {
    if (std::find(other.begin(), other.end(), sentence) == other.end()) other.push_back(sentence);
  }
  bool blamed(const std::string& host) const {
    return std::any_of(by_host.begin(), by_host.end(), [&](const auto& e) { return e.first == host; });
  }
  bool blamed_or_its_nic(const std::string& host) const {  // the host, or one NIC of it as host:iface
    return std::any_of(by_host.begin(), by_host.end(),
                       [&](const auto& e) { return e.first == host || e.first.rfind(host + ":", 0) == 0; });
  }
};

// "HOST: rest" -> {HOST, rest}; {"", s} when s does not start with a host.
std::pair<std::string, std::string> split_host(const std::string& s, const std::vector<std::string>& hosts) {
  const auto colon = s.find(": ");
  if (colon == std::string::npos) return {"", s};
  std::string head = s.substr(0, colon);
  if (head.rfind("host ", 0) == 0) head = head.substr(5);
  if (std::find(hosts.begin(), hosts.end(), head) == hosts.end()) return {"", s};
  return {head, s.substr(colon + 2)};
}

// What kept a host's CPUs busy while a whole suite ran, after a failed promise's sentence about it: the
// figure failed, but the cause may be that load rather than the host's network.
std::string busy_note(const std::vector<BusyHost>& busy, const std::string& host) {
  std::string note;
  for (const auto& b : busy)
    if (b.host == host && b.figure.empty() && note.find(b.why) == std::string::npos) note += "; " + b.why;
  return note;
}

void from_verdicts(const Report& rep, const std::vector<Verdict>& verdicts, Problems& p) {
  std::optional<std::vector<BusyHost>> busy;  // read once, when a failed promise names a host
  for (const auto& v : verdicts) {
    if (v.status == VerdictStatus::warn) p.add(v.reason);
    if (v.status != VerdictStatus::fail) continue;
    bool blamed = false;
    for (const auto& c : v.culprits) {
      const auto [host, rest] = split_host(c, v.hosts);
      if (host.empty()) continue;
      if (!busy) busy = busy_hosts(rep);
      p.blame(host, rest + busy_note(*busy, host)), blamed = true;
    }
    if (!blamed) p.add(v.promise.substr(0, v.promise.find(' ')) + " failed: " + v.reason);
  }
}

std::string signed_pct(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f %%", v);
  return buf;
}

// The hosts other than `top` that every one of `rows` involves: the figures cannot tell them apart.
std::vector<std::string> inseparable(const std::string& top, const std::vector<const Comparison*>& rows) {
  std::vector<std::string> out;
  if (rows.empty()) return out;
  for (const auto& h : rows.front()->hosts)
    if (h != top && std::all_of(rows.begin(), rows.end(), [&](const Comparison* r) {
          return std::find(r->hosts.begin(), r->hosts.end(), h) != r->hosts.end();
        }))
      out.push_back(h);
  return out;
}

// One group of SLOWER figures said in one sentence: "N figures SLOWER than the baseline (worst KEY -50 %)".
std::string slower_text(const std::vector<const Comparison*>& rows) {
  const Comparison* worst = rows.front();
  for (const Comparison* r : rows)
    if (r->change_pct && worst->change_pct && std::abs(*r->change_pct) > std::abs(*worst->change_pct)) worst = r;
  return std::to_string(rows.size()) + " figure" + (rows.size() == 1 ? "" : "s") + " SLOWER than the baseline (worst " +
         worst->key + " " + (worst->change_pct ? signed_pct(*worst->change_pct) : "") + ")";
}

// The SLOWER figures grouped by host: the host in most of the figures not yet grouped takes every one
// that involves it (a tie goes to the host met first in them), and so on; the figures of no host
// make the last group. Linear in the figures' hosts but for one pass over the hosts per group: half of
// 1,024 nodes slow gives 785,920 SLOWER figures and 512 groups.
struct SlowerGroup {
  std::string top;  // "" for the figures of no host
  std::vector<const Comparison*> rows;
};
std::vector<SlowerGroup> slower_groups(const std::vector<const Comparison*>& slower) {
  struct Host {
    std::string name;
    std::vector<std::pair<std::size_t, std::size_t>> places;  // (row, place in its hosts), in row order
    std::size_t count = 0, next = 0;                           // its places in rows not yet grouped; the first
  };
  std::vector<Host> hosts;
  std::unordered_map<std::string, std::size_t> id;
  std::vector<std::vector<std::size_t>> row_hosts(slower.size());
  for (std::size_t i = 0; i < slower.size(); ++i)
    for (std::size_t k = 0; k < slower[i]->hosts.size(); ++k) {
      const auto [it, fresh] = id.try_emplace(slower[i]->hosts[k], hosts.size());
      if (fresh) hosts.push_back({slower[i]->hosts[k], {}, 0, 0});
      hosts[it->second].places.push_back({i, k});
      ++hosts[it->second].count;
      row_hosts[i].push_back(it->second);
    }
  std::vector<bool> grouped(slower.size(), false);
  std::vector<SlowerGroup> groups;
  for (;;) {
    Host* top = nullptr;
    for (auto& h : hosts) {
      if (h.count == 0) continue;
      while (grouped[h.places[h.next].first]) ++h.next;
      if (!top || h.count > top->count || (h.count == top->count && h.places[h.next] < top->places[top->next])) top = &h;
    }
    if (!top) break;
    SlowerGroup g{top->name, {}};
    for (std::size_t k = top->next; k < top->places.size(); ++k) {
      const std::size_t row = top->places[k].first;
      if (grouped[row]) continue;  // grouped before, or this host twice in one figure
      grouped[row] = true;
      g.rows.push_back(slower[row]);
      for (const std::size_t h : row_hosts[row]) --hosts[h].count;
    }
    groups.push_back(std::move(g));
  }
  SlowerGroup none{"", {}};
  for (std::size_t i = 0; i < slower.size(); ++i)
    if (!grouped[i]) none.rows.push_back(slower[i]);
  if (!none.rows.empty()) groups.push_back(std::move(none));
  return groups;
}

// SLOWER figures: the host in most of them takes every one that involves it, and so on; a host that
// only shares a flow with a culprit is never blamed. When another host is in every figure the top one
// takes (one pair's figures), the end another source already blames takes them; when none or both
// is, nobody is blamed: the sentence names both ends, and neither goes to bad-nodes.txt (a latency that
// doubled for one pair on a loaded machine once put the pair's first host there).
void from_baseline(const std::optional<BaselineComparison>& comparison, Problems& p) {
  std::vector<const Comparison*> slower;
  if (comparison)
    for (const auto& r : comparison->rows)
      if (r.change == Change::slower) slower.push_back(&r);
  for (const auto& g : slower_groups(slower)) {
    const std::string text = slower_text(g.rows);
    if (g.top.empty()) {  // figures of no host
      p.add(text);
      continue;
    }
    auto ends = inseparable(g.top, g.rows);
    ends.insert(ends.begin(), g.top);
    std::vector<std::string> named;  // the ends another source already blames (a verdict, a finding)
    std::copy_if(ends.begin(), ends.end(), std::back_inserter(named), [&](const std::string& h) { return p.blamed(h); });
    if (ends.size() == 1 || named.size() == 1) {
      p.blame(ends.size() == 1 ? g.top : named[0], text);
    } else {
      std::string both = ends[0];
      for (std::size_t i = 1; i < ends.size(); ++i) both += " and " + ends[i];
      p.add(both + ": " + text + "; nothing else singles out either end: the path between them, or either end");
    }
  }
}

// Failed or timed-out pair records that all involve one host name it.
void from_failures(const Report& rep, Problems& p) {
  if (const auto f = one_host_failing(rep)) p.blame(f->host, failure_sentence(*f));
}

// The smallest set of links that explains every slow pair (report/analysis/link_locate.hpp): an uplink or a
// spine is named instead of the nodes; a NIC is kept for the node (named after the node findings, when
// they have not named the node already). Without a fabric file, one line says what it would have told.
void from_fabric(const Report& rep, const LinkLocation& loc, Problems& p) {
  if (loc.outcome == LocateOutcome::located) {
    for (const auto& c : loc.culprits) {
      p.located.insert(c.pairs.begin(), c.pairs.end());
      if (c.links[0].kind == LinkKind::nic) p.nics.push_back({c.links[0].name, nic_culprit_sentence(c, loc)});
      else p.add(fabric_culprit_sentence(c, loc));
    }
    p.explained = fabric_explained(loc);
  } else if (const auto note = fabric_unknown_note(rep)) {
    p.add(*note);
  }
}

void from_located_nics(Problems& p) {
  for (const auto& [host, sentence] : p.nics)
    if (!p.blamed_or_its_nic(host)) p.blame(host, sentence);
}

// Whether every slow pair a host finding lists is explained by a fabric link.
bool explained_by_fabric(const json& finding, const Problems& p) {
  const json* pairs = jsonx::array_at(finding, "pairs");
  if (!pairs || pairs->empty() || p.explained.empty()) return false;
  return std::all_of(pairs->begin(), pairs->end(), [&](const json& d) {
    return p.explained.count({jsonx::string(d, "src_host").value_or(""), jsonx::string(d, "dst_host").value_or("")}) > 0;
  });
}

void from_findings(const Report& rep, Problems& p) {
  std::vector<const Record*> pairs;
  for (const auto& r : rep.results) {
    if (r.name != "finding" || r.status != Status::failed) continue;
    const json& f = jsonx::section(r.extra, "finding");
    const auto subject = jsonx::string(f, "subject").value_or("");
    if (subject == "host") {
      if (explained_by_fabric(f, p)) continue;
      const auto host = jsonx::string(f, "host").value_or(r.host);
      p.blame(host, split_host(r.reason, {host}).second);
    } else if (subject == "nic") {  // one NIC of a host (a rail run): named as host:iface
      const auto end = end_name(jsonx::string(f, "host").value_or(r.host), jsonx::string(f, "iface").value_or(""));
      p.blame(end, split_host(r.reason, {end}).second);
    } else {
      pairs.push_back(&r);
    }
  }
  for (const auto* r : pairs) {
    const json& f = jsonx::section(r->extra, "finding");
    const auto src = jsonx::string(f, "src_host").value_or(""), dst = jsonx::string(f, "dst_host").value_or("");
    if (p.located.count({src, dst})) continue;
    if (!p.blamed(src) && !p.blamed(dst)) p.add(r->reason);
  }
}

Problems problems_of(const Report& rep, const Judgement& j) {
  Problems p;
  from_verdicts(rep, j.verdicts, p);
  from_failures(rep, p);
  from_fabric(rep, j.fabric, p);
  from_findings(rep, p);
  from_located_nics(p);
  from_baseline(j.comparison, p);
  if (const auto w = network_warning(rep)) p.add(w->reason);
  return p;
}

std::string joined_sentences(const std::vector<std::string>& sentences) {
  std::string s;
  for (std::size_t i = 0; i < sentences.size(); ++i) s += (i ? "; " : "") + sentences[i];
  return s;
}

std::vector<std::string> sentences_of(const Problems& p) {
  std::vector<std::string> out;
  for (const auto& [host, sentences] : p.by_host) out.push_back(host + ": " + joined_sentences(sentences));
  out.insert(out.end(), p.other.begin(), p.other.end());
  return out;
}

std::vector<BadNode> bad_nodes_of(const Problems& p) {
  std::vector<BadNode> out;
  for (const auto& [blamed, sentences] : p.by_host) {
    // One NIC of a host is blamed as host:iface (a host name has no ':'): the node is listed, with the NIC.
    const auto colon = blamed.find(':');
    const std::string host = blamed.substr(0, colon);
    const std::string reason = (colon == std::string::npos ? "" : blamed.substr(colon + 1) + ": ") + joined_sentences(sentences);
    auto it = std::find_if(out.begin(), out.end(), [&](const BadNode& n) { return n.host == host; });
    if (it == out.end()) out.push_back({host, reason});
    else it->reason += "; " + reason;
  }
  return out;
}

}  // namespace

WhatIsWrong what_is_wrong(const Report& rep, const Judgement& j) {
  const Problems p = problems_of(rep, j);
  return {sentences_of(p), bad_nodes_of(p)};
}

WhatIsWrong what_is_wrong(const Report& rep) { return what_is_wrong(rep, stored_judgement(rep)); }

BlamedPairs::BlamedPairs(const Report& rep) : BlamedPairs(rep, what_is_wrong(rep).bad_nodes) {}

BlamedPairs::BlamedPairs(const Report& rep, const std::vector<BadNode>& bad) : named_slow_(rep.results) {
  std::unordered_set<std::string> one_way;  // hosts a finding names slow one way only
  for (const Record& r : rep.results) {
    if (r.name != "finding" || r.status != Status::failed) continue;
    const auto& f = jsonx::section(r.extra, "finding");
    if (jsonx::string(f, "subject") == "host" && jsonx::string(f, "direction").value_or("both") != "both")
      one_way.insert(jsonx::string(f, "host").value_or(r.host));
  }
  for (const auto& n : bad)
    if (!one_way.count(n.host)) both_ways_.insert(n.host);
}

bool BlamedPairs::operator()(const Subject& pair) const {
  if (pair.kind != SubjectKind::pair) return false;
  return both_ways_.count(pair.host) || both_ways_.count(pair.dst_host) || named_slow_(pair);
}

}  // namespace gpunet::report
