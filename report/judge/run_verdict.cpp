#include "report/judge/run_verdict.hpp"

#include <algorithm>

#include "report/judge/host_load.hpp"
#include "report/model/json_access.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

using gpunet::json;

std::string to_string(RunOutcome o) {
  switch (o) {
    case RunOutcome::pass: return "PASS";
    case RunOutcome::warn: return "WARN";
    case RunOutcome::incomplete: return "INCOMPLETE";
    case RunOutcome::fail: return "FAIL";
  }
  return "FAIL";
}

int RunVerdict::exit_code() const {
  return outcome == RunOutcome::fail ? 1 : outcome == RunOutcome::incomplete ? kIncompleteExitCode : 0;
}

namespace {

// "a, b and 3 more": the first few names of a list.
// "a, b, c and 5 more"; `unnamed` more that have no name here (a report.json that counts them only).
std::string first_names(const std::vector<std::string>& names, size_t unnamed = 0) {
  constexpr size_t kShown = 3;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  const size_t more = names.size() + unnamed - std::min(names.size(), kShown);
  if (more) out += " and " + std::to_string(more) + " more";
  return out;
}

struct Reasons {
  RunVerdict v;
  std::vector<std::pair<RunOutcome, std::string>> said;
  void add(RunOutcome o, std::string text) {
    v.outcome = std::max(v.outcome, o);
    said.emplace_back(o, std::move(text));
  }
  RunVerdict done() && {
    std::stable_sort(said.begin(), said.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (auto& [o, text] : said) v.reasons.push_back(std::move(text));
    return std::move(v);
  }
};

void judge_records(const RecordCounts& c, Reasons& out) {
  std::vector<std::string> parts;
  if (c.failed) parts.push_back(std::to_string(c.failed) + " failed");
  if (c.timed_out) parts.push_back(std::to_string(c.timed_out) + " timed out");
  if (c.wrong) parts.push_back(std::to_string(c.wrong) + " with wrong results");
  const bool bad = !parts.empty();
  if (c.below) parts.push_back(std::to_string(c.below) + " below " + format_percent(c.threshold) + " of their ceiling");
  std::string text = "records: " + std::to_string(c.records) + " measured";
  if (parts.empty())
    text += ", none failed, every figure with a known ceiling reaches " + format_percent(c.threshold) +
            " of it at its best size";
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? ", " : "; ") + parts[i];
  if (c.skipped) text += " (" + std::to_string(c.skipped) + " skipped)";
  out.add(bad ? RunOutcome::fail : c.below ? RunOutcome::warn : RunOutcome::pass, text);
}

void judge_contract(const RunVerdictInputs& in, Reasons& out) {
  if (in.contract.empty() && in.promises.empty()) return;
  std::vector<std::string> failed, unjudged, warned;
  for (const auto& p : in.promises) {
    if (p.status == VerdictStatus::fail) failed.push_back(p.promise);
    if (p.status == VerdictStatus::skip) unjudged.push_back(p.promise);
    if (p.status == VerdictStatus::warn) warned.push_back(p.promise);
  }
  const std::string of = "contract " + in.contract + ": ";
  const size_t n = in.promises.size();
  if (!failed.empty())
    out.add(RunOutcome::fail, of + std::to_string(failed.size()) + " of " + count_of(n, "promise", "promises") +
                                  " failed (" + first_names(failed) + ")");
  if (!unjudged.empty())
    out.add(RunOutcome::incomplete, of + std::to_string(unjudged.size()) + " of " +
                                        count_of(n, "promise", "promises") + " could not be judged (" +
                                        first_names(unjudged) + ")");
  if (!warned.empty())
    out.add(RunOutcome::warn, of + std::to_string(warned.size()) + " of " + count_of(n, "promise", "promises") +
                                  " kept with a warning (" + first_names(warned) + ")");
  if (failed.empty() && unjudged.empty() && warned.empty())
    out.add(RunOutcome::pass, of + "every one of " + count_of(n, "promise", "promises") + " kept");
}

void judge_baseline(const BaselineComparison& c, Reasons& out) {
  std::vector<std::string> slower;
  size_t uncertain = c.not_listed.uncertain;
  for (const auto& r : c.rows) {
    if (r.change == Change::slower) slower.push_back(r.key);
    uncertain += r.change == Change::uncertain;
  }
  const std::string of = "baseline: ";
  const std::string unsure = uncertain ? ", " + std::to_string(uncertain) + " UNCERTAIN" : "";
  if (!slower.empty())
    out.add(RunOutcome::fail, of + std::to_string(slower.size() + c.not_listed.slower) + " of " + count_of(c.figures(), "figure", "figures") +
                                  " SLOWER (" + first_names(slower, c.not_listed.slower) + ")" + unsure);
  else
    out.add(RunOutcome::pass, of + "no figure of " + std::to_string(c.figures()) + " SLOWER" + unsure);
}

}  // namespace

RunVerdict decide_run_verdict(const RunVerdictInputs& in) {
  Reasons out;
  if (in.records)
    judge_records(*in.records, out);
  else
    out.add(RunOutcome::incomplete, "the records were not analysed");
  judge_contract(in, out);
  if (in.baseline) judge_baseline(*in.baseline, out);
  if (!in.busy_hosts.empty()) out.add(RunOutcome::pass, "hosts: " + in.busy_hosts);  // said, judged by nothing
  return std::move(out).done();
}

namespace {

// Everything but the promises and the comparison.
RunVerdictInputs report_inputs(const Report& rep) {
  RunVerdictInputs in;
  if (const auto* a = jsonx::object_at(rep.extra, "analysis")) {
    const auto& c = jsonx::section(*a, "counts");
    const auto n = [&](const char* key) { return static_cast<int>(jsonx::number(c, key).value_or(0)); };
    RecordCounts counts{n("records"), n("failed"), n("timed_out"), n("wrong"), n("below_threshold"), n("skipped")};
    counts.threshold = jsonx::number(*a, "threshold").value_or(counts.threshold);
    in.records = counts;
  }
  if (const auto* spec = jsonx::object_at(rep.extra, "spec")) {
    const auto name = jsonx::string(*spec, "name").value_or("");
    in.contract = name.empty() ? jsonx::string(*spec, "file").value_or("(unnamed)") : name;
  }
  in.busy_hosts = busy_hosts_text(busy_hosts(rep), run_hosts(rep).size());
  return in;
}

}  // namespace

RunVerdict run_verdict_of(const Report& rep, std::vector<Verdict> promises, const std::optional<BaselineComparison>& baseline) {
  RunVerdictInputs in = report_inputs(rep);
  in.promises = std::move(promises);
  in.baseline = baseline ? &*baseline : nullptr;
  return decide_run_verdict(in);
}

std::string run_verdict_console(const RunVerdict& v) {
  std::string out = "# Verdict: " + to_string(v.outcome) + "\n";
  for (const auto& r : v.reasons) out += "#   " + r + "\n";
  return out;
}

json to_json(const RunVerdict& v) {
  return json{{"verdict", to_string(v.outcome)}, {"reasons", v.reasons}, {"exit_code", v.exit_code()}};
}

}  // namespace gpunet::report
