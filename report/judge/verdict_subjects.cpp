#include "report/judge/verdict_subjects.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <tuple>

#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

namespace {

// What tells two subjects apart: equal fields, one subject.
auto subject_fields(const FactSubject& s) { return std::tie(s.kind, s.src_host, s.dst_host, s.host, s.gpu); }

bool involves(const FactSubject& s, const std::string& host) {
  const auto h = subject_hosts(s);
  return std::find(h.begin(), h.end(), host) != h.end();
}

// The host of a subject's end: "node2" of "node2:eth1" (an end on a rail), else the end itself.
std::string host_of_end(const std::string& end) { return end.substr(0, end.find(':')); }

bool involves_node(const FactSubject& s, const std::string& node) {
  const auto h = subject_hosts(s);
  return std::any_of(h.begin(), h.end(), [&](const std::string& e) { return host_of_end(e) == node; });
}

// On several rails the ends are host:iface: one host whose NICs on every rail are in every failure,
// every subject with it failed ("" when there is none).
std::string failing_node(const std::vector<FactSubject>& failed, const std::vector<SubjectValue>& per_subject) {
  if (failed.empty()) return "";
  std::vector<std::string> nodes;
  for (const auto& e : subject_hosts(failed.front())) nodes.push_back(host_of_end(e));
  nodes.erase(std::remove_if(nodes.begin(), nodes.end(), [&](const std::string& n) {
    return !std::all_of(failed.begin(), failed.end(), [&](const FactSubject& f) { return involves_node(f, n); });
  }), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  if (nodes.size() != 1) return "";
  const auto with_node = std::count_if(per_subject.begin(), per_subject.end(), [&](const SubjectValue& v) { return involves_node(v.subject, nodes[0]); });
  return static_cast<std::size_t>(with_node) == failed.size() ? nodes[0] : "";
}

// The hosts every subject of which failed, two subjects at least, most failures first; a host is left out
// when each of its failures involves a host kept before it. Linear in the subjects (a million at 1,024
// hosts, and as many failures when half the nodes are slow).
std::vector<SubjectCulprit> hosts_failing_everything(const std::vector<SubjectValue>& failed,
                                                     const std::vector<SubjectValue>& per_subject) {
  std::vector<std::vector<std::string>> ends;  // of each failure
  ends.reserve(failed.size());
  std::unordered_map<std::string, std::vector<std::size_t>> failures;  // a host's failures, as places in `failed`
  std::vector<std::string> order;                                     // of first failure
  for (std::size_t i = 0; i < failed.size(); ++i) {
    ends.push_back(subject_hosts(failed[i].subject));
    for (const auto& h : ends.back()) {
      auto& mine = failures[h];
      if (mine.empty()) order.push_back(h);
      mine.push_back(i);
    }
  }
  std::unordered_map<std::string, std::size_t> subjects;
  for (const auto& v : per_subject)
    for (const auto& h : subject_hosts(v.subject))
      if (failures.count(h)) ++subjects[h];
  std::vector<SubjectCulprit> candidates;
  for (const auto& h : order)
    if (subjects[h] >= 2 && subjects[h] == failures[h].size()) candidates.push_back({h, failures[h].size()});
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.subjects > b.subjects; });
  std::unordered_map<std::string, std::size_t> shared;  // a host's failures that involve a host kept
  std::vector<SubjectCulprit> kept;
  for (const auto& c : candidates) {
    if (shared[c.host] >= c.subjects) continue;
    kept.push_back(c);
    for (const std::size_t i : failures[c.host])
      for (const auto& other : ends[i])
        if (other != c.host) ++shared[other];
  }
  return kept;
}

// Which of `culprits` a subject involves: an end itself, or the node of an end on a rail ("" when none).
std::string culprit_of(const FactSubject& s, const std::unordered_set<std::string>& culprits) {
  for (const auto& e : subject_hosts(s)) {
    if (culprits.count(e)) return e;
    if (culprits.count(host_of_end(e))) return host_of_end(e);
  }
  return "";
}

std::unordered_set<std::string> culprit_names(const std::vector<SubjectCulprit>& culprits) {
  std::unordered_set<std::string> names;
  for (const auto& c : culprits) names.insert(c.host);
  return names;
}

bool worse(double a, double b, bool higher_is_better) { return higher_is_better ? a < b : a > b; }

// "a, b or c"; past five, "a, b, c, d, e or 3 more hosts".
std::string culprit_list(const std::vector<SubjectCulprit>& culprits) {
  constexpr std::size_t kNamed = 5;
  const std::size_t named = culprits.size() > kNamed ? kNamed : culprits.size();
  std::string s;
  for (std::size_t i = 0; i < named; ++i)
    s += (i == 0 ? "" : i + 1 == named && named == culprits.size() ? " or " : ", ") + culprits[i].host;
  if (named < culprits.size()) s += " or " + std::to_string(culprits.size() - named) + " more hosts";
  return s;
}

std::string with_ceiling(const SubjectValue& v, const std::string& unit) {
  std::string s = subject_label(v.subject) + " " + fmt_num(v.value) + " " + unit;
  if (v.ceiling) s += " (ceiling " + fmt_num(*v.ceiling) + " " + unit + ")";
  return s;
}

}  // namespace

std::vector<SubjectValue> worst_per_subject(const std::vector<SubjectValue>& values, bool higher_is_better) {
  std::vector<SubjectValue> out;  // in order of first appearance
  // Each subject's place in out, found in log time: a matrix of 1,024 hosts has a million subjects.
  const auto by_key = [](const FactSubject* a, const FactSubject* b) { return subject_fields(*a) < subject_fields(*b); };
  std::map<const FactSubject*, std::size_t, decltype(by_key)> place(by_key);
  for (const auto& v : values) {
    const auto [it, fresh] = place.try_emplace(&v.subject, out.size());
    if (fresh) out.push_back(v);
    else if (worse(v.value, out[it->second].value, higher_is_better)) out[it->second] = v;
  }
  return out;
}

std::vector<std::string> hosts_in_all(const std::vector<FactSubject>& subjects) {
  if (subjects.empty()) return {};
  std::vector<std::string> common = subject_hosts(subjects.front());
  for (const auto& s : subjects)
    common.erase(std::remove_if(common.begin(), common.end(), [&](const std::string& h) { return !involves(s, h); }),
                 common.end());
  common.erase(std::unique(common.begin(), common.end()), common.end());
  return common;
}

SubjectOutcome finish_outcome(SubjectOutcome o, const std::vector<SubjectValue>& per_subject, bool higher_is_better) {
  const auto order = [&](const SubjectValue& a, const SubjectValue& b) { return worse(a.value, b.value, higher_is_better); };
  std::stable_sort(o.failed.begin(), o.failed.end(), order);
  for (const auto& v : per_subject)
    if (!o.worst || worse(v.value, o.worst->value, higher_is_better)) o.worst = v;
  std::vector<FactSubject> failed;
  for (const auto& v : o.failed) failed.push_back(v.subject);
  o.common_hosts = hosts_in_all(failed);
  // A culprit: one host in every failure, every subject with it failed, and more than one subject
  // involved (a single failed pair does not tell which of its two ends is at fault).
  if (o.common_hosts.size() == 1 && o.failed.size() > 1 && o.failed.size() < o.total) {
    const std::string& h = o.common_hosts.front();
    const auto with_h = std::count_if(per_subject.begin(), per_subject.end(), [&](const SubjectValue& v) { return involves(v.subject, h); });
    if (static_cast<std::size_t>(with_h) == o.failed.size()) o.culprits = {{h, o.failed.size()}};
  } else if (o.common_hosts.empty() && o.failed.size() > 1 && o.failed.size() < o.total) {
    const std::string node = failing_node(failed, per_subject);  // one host slow on every rail
    if (!node.empty()) o.common_hosts = {node}, o.culprits = {{node, o.failed.size()}};
    else o.culprits = hosts_failing_everything(o.failed, per_subject);  // several slow hosts (or NICs)
  } else if (o.failed.size() == 1 && subject_hosts(o.failed.front().subject).size() == 1) {
    o.culprits = {{subject_hosts(o.failed.front().subject).front(), 1}};
  }
  const auto names = culprit_names(o.culprits);
  o.culprits_explain_all = !o.culprits.empty() && std::all_of(o.failed.begin(), o.failed.end(), [&](const SubjectValue& v) {
    return !culprit_of(v.subject, names).empty();
  });
  return o;
}

std::string outcome_sentence(const SubjectOutcome& o, const std::string& breach, const std::string& extreme,
                             const std::string& unit) {
  if (o.total == 0 || !o.worst) return "nothing to judge";
  const FactSubjectKind kind = o.worst->subject.kind;
  const std::string noun = subject_noun(kind, o.total != 1);
  std::string s;
  if (o.failed.empty()) {
    s = o.total == 1 ? "the " + noun + " meets it" : "all " + std::to_string(o.total) + " " + noun + " meet it";
  } else {
    s = std::to_string(o.failed.size()) + " of " + std::to_string(o.total) + " " + noun + " " + breach;
    if (o.failed.size() > 1 && o.failed.size() < o.total && !o.common_hosts.empty()) {
      std::string hosts;
      for (const auto& h : o.common_hosts) hosts += (hosts.empty() ? "" : " and ") + h;
      s += kind == FactSubjectKind::pair || kind == FactSubjectKind::link ? ", all involving " + hosts : ", all on " + hosts;
    } else if (o.culprits.size() > 1) {
      s += std::string(o.culprits_explain_all ? ", all involving " : ", among them every one with ") + culprit_list(o.culprits);
    }
  }
  if (o.total > 1 || !o.failed.empty()) s += "; " + extreme + " " + with_ceiling(o.failed.empty() ? *o.worst : o.failed.front(), unit);
  return s;
}

std::vector<std::string> culprit_sentences(const SubjectOutcome& o, const std::string& breach, const std::string& unit) {
  // Each culprit's worst failure: the first of o.failed (worst first) that involves it.
  const auto names = culprit_names(o.culprits);
  std::unordered_map<std::string, const SubjectValue*> worst;
  for (const auto& v : o.failed) {
    if (worst.size() == names.size()) break;
    for (const auto& e : subject_hosts(v.subject))
      for (const auto& name : {e, host_of_end(e)})
        if (names.count(name)) worst.emplace(name, &v);
  }
  std::vector<std::string> out;
  for (const auto& c : o.culprits) {
    const auto found = worst.find(c.host);
    if (found == worst.end()) continue;
    const SubjectValue* w = found->second;
    const FactSubjectKind kind = w->subject.kind;
    std::string s = c.host + ": ";
    if (kind == FactSubjectKind::pair || kind == FactSubjectKind::link)
      s += (c.subjects > 1 ? "every " + subject_noun(kind, false) + " with it (" + std::to_string(c.subjects) + ") is "
                           : "its " + subject_noun(kind, false) + " " + subject_label(w->subject) + " is ") + breach;
    else
      s += subject_label(w->subject) + " is " + breach;
    s += " (worst " + fmt_num(w->value) + " " + unit;
    if (w->ceiling) {
      s += " of a " + fmt_num(*w->ceiling) + " " + unit + " ceiling";
      if (w->value >= 0.8 * *w->ceiling && (kind == FactSubjectKind::pair || kind == FactSubjectKind::link))
        s += ": its link is the bottleneck";
    }
    out.push_back(s + ")");
  }
  return out;
}

}  // namespace gpunet::report
