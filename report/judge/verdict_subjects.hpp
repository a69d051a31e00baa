// A promise judged for every subject it covers: one value per subject (the worst of its figures),
// how many of how many fail, the worst one, and what the failures have in common. Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/judge/figure_select.hpp"

namespace gpunet::report {

struct SubjectValue {
  FactSubject subject;
  double value = 0;
  std::optional<double> ceiling;  // the path's detected ceiling, in the value's unit
};

// One value per distinct subject: the worst of its values (the lowest when higher is better).
std::vector<SubjectValue> worst_per_subject(const std::vector<SubjectValue>& values, bool higher_is_better);

// A host (or one NIC of it, host:iface) blamed for a promise's failures: every subject with it failed.
struct SubjectCulprit {
  std::string host;
  std::size_t subjects = 0;  // how many subjects involve it
};

struct SubjectOutcome {
  std::size_t total = 0;
  std::vector<SubjectValue> failed;       // worst first
  std::optional<SubjectValue> worst;      // over every subject
  std::vector<std::string> common_hosts;  // the hosts that every failed subject involves
  // The hosts blamed, most failures first: the one common host when every subject with it failed; else
  // each host every subject of which failed (two at least), unless each of its failures involves a host
  // blamed before it (a healthy node whose few partners were all slow nodes).
  std::vector<SubjectCulprit> culprits;
  bool culprits_explain_all = false;      // every failed subject involves a culprit
};

// `fails(v)` says whether a value breaks the promise.
template <class Fails>
SubjectOutcome judge_subjects(const std::vector<SubjectValue>& per_subject, bool higher_is_better, Fails&& fails);

// "6 of 12 directed pairs below 0.9 Gb/s, all involving fc-node3; lowest fc-node2 -> fc-node3 0.24 Gb/s
// (ceiling 0.239 Gb/s)", or "all 12 directed pairs meet it; lowest ...". `breach` says how a failure
// fails ("below 0.9 Gb/s"), `extreme` names the worst ("lowest", "highest", "largest dip").
std::string outcome_sentence(const SubjectOutcome& o, const std::string& breach, const std::string& extreme,
                             const std::string& unit);

// One sentence per culprit naming where the problem is, for the top of the reports; none when no host
// is to blame. "fc-node3: every directed pair with it (6) is below 0.9 Gb/s (worst 0.237 Gb/s of a
// 0.239 Gb/s ceiling: its link is the bottleneck)".
std::vector<std::string> culprit_sentences(const SubjectOutcome& o, const std::string& breach, const std::string& unit);

// The hosts in every subject of `subjects` (in order of first appearance).
std::vector<std::string> hosts_in_all(const std::vector<FactSubject>& subjects);

// ---- implementation of the template ----
SubjectOutcome finish_outcome(SubjectOutcome o, const std::vector<SubjectValue>& per_subject, bool higher_is_better);

template <class Fails>
SubjectOutcome judge_subjects(const std::vector<SubjectValue>& per_subject, bool higher_is_better, Fails&& fails) {
  SubjectOutcome o;
  o.total = per_subject.size();
  for (const auto& v : per_subject)
    if (fails(v.value)) o.failed.push_back(v);
  return finish_outcome(std::move(o), per_subject, higher_is_better);
}

}  // namespace gpunet::report
