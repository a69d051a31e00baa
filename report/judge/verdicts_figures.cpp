#include "report/judge/verdicts_figures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <unordered_map>

#include "report/judge/figure_select.hpp"
#include "report/judge/verdict_subjects.hpp"
#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The promise's label and, when it is settled without a measurement, its verdict. The figures it
// judges went to the caller's `judge`, one at a time as they are made.
struct Picked {
  std::string label;               // "bandwidth[0] tcp/matrix goodput_Gbps"
  std::optional<Verdict> verdict;
  std::string note;                // said in the reason (a selector that does not apply)
};

bool suite_ran(const Report& report, const std::string& suite) {
  return std::any_of(report.results.begin(), report.results.end(), [&](const Record& r) { return r.suite == suite; });
}

std::string suites_hint(const Report& report, const std::string& suite) {
  std::vector<std::string> ran;
  for (const auto& r : report.results)
    if (std::find(ran.begin(), ran.end(), r.suite) == ran.end() && r.suite != "counters") ran.push_back(r.suite);
  std::string list;
  for (const auto& s : ran) list += s + ",";
  return "the " + suite + " suite was not run (add it: --suites " + list + suite + ")";
}

std::optional<int64_t> chosen_size(const std::vector<const Record*>& recs, const FigureSelector& sel, bool largest) {
  if (sel.bytes) return sel.bytes;
  std::optional<int64_t> bytes;
  for (const Record* r : recs)
    if (r->status != Status::skipped && (!bytes || (largest ? message_size(*r) > *bytes : message_size(*r) < *bytes))) bytes = message_size(*r);
  return bytes;
}

// Selects the promise's records, settles the promise when they leave nothing to judge, and hands
// `judge` the fact of each figure to judge: passed, at the chosen size, carrying the figure. At 1,024
// hosts they are a million; none is held after `judge` has seen it.
Picked pick(const Report& report, const FigureSelector& sel, bool largest, const std::string& promise,
            const std::string& limit, const std::function<void(const FigureFact&)>& judge) {
  auto recs = select_records(report, FigureQuery{sel.suite, sel.name, sel.variant, sel.figure, sel.bytes, sel.rail, sel.iface, sel.stands_for, sel.left_out});
  const std::string what = sel.suite + "/" + sel.name + (sel.variant.empty() ? "" : " " + sel.variant);
  Picked p;
  p.label = promise + " " + what;
  const auto settle = [&](VerdictStatus s, std::string reason) {
    p.verdict = Verdict{p.label, s, "-", limit, std::move(reason), {}, {}};
    return p;
  };
  if (recs.empty())
    return settle(VerdictStatus::skip, suite_ran(report, sel.suite) ? "the run has no " + what + " records"
                                                                    : "not judged: " + suites_hint(report, sel.suite));
  const bool sized = std::any_of(recs.begin(), recs.end(), [](const Record* r) { return bytes_is_message_size(*r); });
  if (!sized && sel.bytes) p.note = "bytes is ignored: the bytes of a TCP flow are what it received, not a message size";
  if (sized) {
    const auto bytes = chosen_size(recs, sel, largest);
    if (!bytes) return settle(VerdictStatus::skip, what + " was skipped: " + recs.front()->reason);
    std::vector<std::string> sizes;
    for (const Record* r : recs)
      if (r->status != Status::skipped && std::find(sizes.begin(), sizes.end(), human_bytes(message_size(*r))) == sizes.end())
        sizes.push_back(human_bytes(message_size(*r)));
    recs.erase(std::remove_if(recs.begin(), recs.end(), [&](const Record* r) { return message_size(*r) != *bytes; }), recs.end());
    p.label += " " + human_bytes(*bytes);
    if (recs.empty()) {
      std::string list;
      for (std::size_t i = 0; i < sizes.size() && i < 6; ++i) list += (i ? ", " : "") + sizes[i];
      return settle(VerdictStatus::skip, "no " + what + " record at " + human_bytes(*bytes) +
                                             (list.empty() ? "" : " (measured: " + list + (sizes.size() > 6 ? ", ..." : "") + ")"));
    }
  }
  for (const Record* r : recs)
    if (r->status == Status::failed || r->status == Status::timed_out)
      return settle(VerdictStatus::fail, "the measurement " + to_string(r->status) + " on " +
                                             subject_label(figure_fact(*r, sel.figure).subject) +
                                             (r->reason.empty() ? "" : ": " + r->reason));
  std::size_t judged = 0;
  for (const Record* r : recs) {
    if (r->status != Status::passed) continue;
    const FigureFact f = figure_fact(*r, sel.figure);
    if (!sel.figure.empty() && !f.value) continue;
    judge(f);
    ++judged;
  }
  if (judged > 0) return p;
  const bool passed = std::any_of(recs.begin(), recs.end(), [](const Record* r) { return r->status == Status::passed; });
  if (passed) return settle(VerdictStatus::skip, "the " + what + " records carry no " + sel.figure);
  return settle(VerdictStatus::skip, what + " was skipped: " + recs.front()->reason);
}

std::string short_metric(const std::string& figure) { return figure.rfind("extra.", 0) == 0 ? figure.substr(6) : figure; }

// The rate a figure in `unit` is judged against, in that unit, from a promised rate in Gb/s.
std::optional<double> promised_in(const std::string& unit, std::optional<double> promised_Gbps) {
  if (!promised_Gbps) return std::nullopt;
  if (unit == "Gb/s") return promised_Gbps;
  if (unit == "GB/s") return *promised_Gbps / 8;
  return std::nullopt;
}

Verdict finish(Picked& p, const std::string& limit, const SubjectOutcome& o, const std::string& breach,
               const std::string& extreme, const std::string& unit, const std::string& measured) {
  Verdict v{p.label, o.failed.empty() ? VerdictStatus::pass : VerdictStatus::fail, measured, limit,
            outcome_sentence(o, breach, extreme, unit), {}, {}};
  if (!p.note.empty()) v.reason += " (" + p.note + ")";
  if (!o.failed.empty()) {
    v.culprits = culprit_sentences(o, breach, unit);
    v.hosts = o.common_hosts;
    if (v.hosts.empty())
      for (const auto& c : o.culprits) v.hosts.push_back(c.host);
  }
  return v;
}

std::string at(const SubjectValue& v, const std::string& unit) {
  return fmt_num(v.value) + " " + unit + " (" + subject_label(v.subject) + ")";
}

}  // namespace

Verdict judge_bandwidth(const Report& report, const BandwidthPromise& b, std::size_t i, std::optional<double> promised_Gbps) {
  const std::string unit = figure_unit(b.sel.figure);
  // A spec gives one of min and min_efficiency_pct (spec.cpp); a promise made with both is judged on min.
  const auto promised_opt = b.min_efficiency_pct && !b.min ? promised_in(unit, promised_Gbps) : std::nullopt;
  const bool promised = promised_opt.has_value();
  const double rate = promised_opt.value_or(0);
  const std::string against = promised ? "of the promised " + fmt_num(rate) + " " + unit : "of the ceiling";
  const std::string limit = b.min ? ">= " + fmt_num(*b.min) + " " + unit : ">= " + fmt_num(*b.min_efficiency_pct) + " % " + against;
  std::vector<SubjectValue> values;
  // Against a promise: each value's figure and efficiency (figures[k] is values[k]'s), for the worst subject's words.
  std::vector<std::pair<double, std::optional<double>>> figures;
  std::string explanation;
  auto p = pick(report, b.sel, true, "bandwidth[" + std::to_string(i) + "]", limit, [&](const FigureFact& f) {
    if (b.min) {
      values.push_back({f.subject, *f.value, f.ceiling});
    } else if (promised) {
      values.push_back({f.subject, *f.value / rate * 100, f.ceiling ? std::optional<double>(*f.ceiling / rate * 100) : std::nullopt});
      figures.emplace_back(*f.value, f.efficiency);
    } else if (f.efficiency) {
      values.push_back({f.subject, *f.efficiency * 100, 100.0});
    } else if (explanation.empty()) {
      explanation = f.ceiling_note;
    }
  });
  if (p.verdict) return *p.verdict;
  p.label += " " + short_metric(b.sel.figure);
  if (values.empty())
    return {p.label, VerdictStatus::skip, "-", limit,
            "not judged: no ceiling is known for these records" + (explanation.empty() ? std::string{} : ": " + explanation), {}, {}};
  const auto per = worst_per_subject(values, true);
  const double need = b.min ? *b.min : *b.min_efficiency_pct;
  const auto o = judge_subjects(per, true, [&](double v) { return v < need; });
  const std::string vunit = b.min ? unit : "%";
  std::string measured = at(*o.worst, vunit);
  if (promised) {
    // Both: against the promise, and the figure against its own path's ceiling.
    std::size_t w = 0;
    for (std::size_t k = 0; k < values.size(); ++k)
      if (subject_label(values[k].subject) == subject_label(o.worst->subject)) w = k;
    const auto& [value, efficiency] = figures[w];
    measured = fmt_num(o.worst->value) + " % of the promised " + fmt_num(rate) + " " + unit + " (" +
               subject_label(o.worst->subject) + ": " + fmt_num(value) + " " + unit +
               (efficiency ? ", " + fmt_num(*efficiency * 100) + " % of its path's ceiling" : "") + ")";
  }
  return finish(p, limit, o, "below " + limit.substr(3), "lowest", vunit, measured);
}

std::string latency_measure_words(const LatencyPromise& l) {
  if (l.sel.name != "latency" || l.sel.figure.rfind("time_us.", 0) != 0) return "";
  return l.sel.figure.substr(8) + " of " + (l.round_trip ? std::string("the round trip") : kLatencyMeasure);
}

Verdict judge_latency(const Report& report, const LatencyPromise& l, std::size_t i) {
  const std::string unit = figure_unit(l.sel.figure);
  const std::string measure = latency_measure_words(l);
  const std::string limit = "<= " + fmt_num(l.max_us) + " " + unit + (measure.empty() ? "" : ", " + measure);
  std::vector<SubjectValue> values;
  const double factor = l.round_trip ? 2 : 1;  // the records hold half the round trip
  auto p = pick(report, l.sel, false, "latency[" + std::to_string(i) + "]", limit,
                [&](const FigureFact& f) { values.push_back({f.subject, *f.value * factor, std::nullopt}); });
  if (p.verdict) return *p.verdict;
  p.label += " " + l.sel.figure;
  const auto per = worst_per_subject(values, false);
  const auto o = judge_subjects(per, false, [&](double v) { return v > l.max_us; });
  const std::string measured = measure.empty() ? at(*o.worst, unit)
                                               : fmt_num(o.worst->value) + " " + unit + ", " + measure + " (" + subject_label(o.worst->subject) + ")";
  return finish(p, limit, o, "above " + fmt_num(l.max_us) + " " + unit, "highest", unit, measured);
}

Verdict judge_stability(const Report& report, const StabilityPromise& s, std::size_t i) {
  const std::string limit = "dip <= " + fmt_num(s.max_dip_pct) + " %";
  std::vector<SubjectValue> values;
  auto p = pick(report, s.sel, true, "stability[" + std::to_string(i) + "]", limit, [&](const FigureFact& f) {
    if (f.dip) values.push_back({f.subject, *f.dip * 100, std::nullopt});
  });
  if (p.verdict) return *p.verdict;
  if (values.empty())
    return {p.label, VerdictStatus::skip, "-", limit, "not judged: no record has repetitions (a timeline or 2+ timed iterations)", {}, {}};
  const auto per = worst_per_subject(values, false);
  const auto o = judge_subjects(per, false, [&](double v) { return v > s.max_dip_pct; });
  return finish(p, limit, o, "dip more than " + fmt_num(s.max_dip_pct) + " %", "largest dip", "%", at(*o.worst, "%"));
}

Verdict judge_spread(const Report& report, const SpreadPromise& s, std::size_t i) {
  const std::string limit = "every subject within " + fmt_num(s.max_spread_pct) + " % of the median";
  // One value per subject (the median of its figures), then each subject against the median of all.
  // Pairwise figures are compared per host (the median of every pair with the host), so that the
  // outlier named is the host whose pairs are slow, not one of its pairs.
  std::vector<SubjectValue> per;
  std::vector<std::vector<double>> samples;
  // Each subject's place in per, by its label: a matrix of 1,024 hosts adds two million values.
  std::unordered_map<std::string, std::size_t> place;
  const auto add = [&](const FactSubject& subject, double value) {
    const auto [it, fresh] = place.try_emplace(subject_label(subject), per.size());
    if (fresh) {
      per.push_back({subject, 0, std::nullopt});
      samples.emplace_back();
    }
    samples[it->second].push_back(value);
  };
  auto p = pick(report, s.sel, true, "homogeneity.figures[" + std::to_string(i) + "]", limit, [&](const FigureFact& f) {
    if (f.subject.kind == FactSubjectKind::pair || f.subject.kind == FactSubjectKind::link) {
      for (const auto& h : subject_hosts(f.subject)) add(FactSubject{FactSubjectKind::host, "", "", h, ""}, *f.value);
    } else {
      add(f.subject, *f.value);
    }
  });
  if (p.verdict) return *p.verdict;
  p.label += " " + short_metric(s.sel.figure);
  const std::string unit = figure_unit(s.sel.figure);
  if (per.size() < 2)
    return {p.label, VerdictStatus::skip, "-", limit,
            "not judged: needs figures of at least 2 subjects (the run has " + std::to_string(per.size()) + ")", {}, {}};
  std::vector<double> values;
  for (std::size_t k = 0; k < per.size(); ++k) values.push_back(per[k].value = median(samples[k]));
  const double mid = median(values);
  std::vector<SubjectValue> devs;
  for (const auto& v : per) devs.push_back({v.subject, mid > 0 ? std::abs(v.value - mid) / mid * 100 : 0, std::nullopt});
  const auto o = judge_subjects(devs, false, [&](double d) { return d > s.max_spread_pct; });
  const auto far = std::find_if(per.begin(), per.end(), [&](const SubjectValue& v) { return subject_label(v.subject) == subject_label(o.worst->subject); });
  const std::string measured = fmt_num(o.worst->value) + " % (" + subject_label(o.worst->subject) + " at " + fmt_num(far->value) +
                               " " + unit + ", median " + fmt_num(mid) + " " + unit + ")";
  return finish(p, limit, o, "more than " + fmt_num(s.max_spread_pct) + " % from the median " + fmt_num(mid) + " " + unit,
                "farthest", "%", measured);
}

}  // namespace gpunet::report
