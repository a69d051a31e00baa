// The adapter from today's Records to FigureFacts, and the table of names a spec may use.
#include "report/judge/figure_select.hpp"

#include <algorithm>

#include "report/judge/baseline_stats.hpp"
#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"
#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const KnownTest* find_test(const KnownTests& known, const std::string& suite, const std::string& test) {
  for (const auto& t : known)
    if (t.suite == suite && (t.test == test || t.open || contains(t.kinds, test))) return &t;
  return nullptr;
}


// The verdicts' subject of a record's figure. A time between two hosts (a ping-pong's half round
// trip) has no direction: a pair ("a <-> b"). A record without a figure (a skipped or failed point)
// is the subject of its typed fields: its host, or all ranks of a collective.
FactSubject fact_subject_of(const Record& r) {
  FactSubject s;
  if (!r.figure) {
    const RecordKind kind = record_kind(r);
    const bool collective = kind == RecordKind::collective_point || kind == RecordKind::collective_other;
    if (!(collective && r.ranks > 1)) s.kind = FactSubjectKind::host, s.host = r.host;
    return s;
  }
  const Subject& x = r.figure->subject;
  switch (x.kind) {
    case SubjectKind::pair:
      s.kind = r.figure->better == Better::lower ? FactSubjectKind::link : FactSubjectKind::pair;
      s.src_host = end_name(x.host, x.iface), s.dst_host = end_name(x.dst_host, x.dst_iface);
      break;
    case SubjectKind::group: s.kind = FactSubjectKind::group, s.host = end_name(x.host, x.iface); break;
    case SubjectKind::cluster: s.kind = FactSubjectKind::group; break;
    case SubjectKind::gpu: s.kind = FactSubjectKind::gpu, s.host = x.host, s.gpu = "gpu" + x.device; break;
    case SubjectKind::host:
    case SubjectKind::nic: s.kind = FactSubjectKind::host, s.host = x.host; break;
  }
  return s;
}

// The test kind: TCP's bandwidth variants; for every other record its variant.
std::string kind_of(const Record& r) { return r.variant; }

// Where a figure's samples come from, in words the baseline stores.
std::string samples_origin(const Figure& f) {
  if (f.metric == "tcp.goodput") return "timeline";
  if (f.better == Better::lower) return "iterations";
  return "batches";
}

// The figure's dip from its samples: for a rate, 1 - slowest/median (the worst interval or batch
// against the typical one); for a time, 1 - median/p99 (the slowest 1 % against the typical one).
// A figure without samples takes 1 - p50/p99 of the record's iteration times.
std::optional<double> dip_of(const Figure& f) {
  if (f.samples.size() < 2) return std::nullopt;
  const double med = median_of(f.samples);
  if (f.better == Better::higher) {
    if (med <= 0) return std::nullopt;
    return std::max(0.0, 1 - *std::min_element(f.samples.begin(), f.samples.end()) / med);
  }
  const double p99 = percentile(f.samples, 0.99);
  if (p99 <= 0) return std::nullopt;
  return std::max(0.0, 1 - med / p99);
}

// The ceiling and efficiency the analysis attached to the record's figure (report/model/figure.hpp); a
// version-1 record read by the legacy adapter has its figure too.
void fill_ceiling(FigureFact& f, const Figure& fig) {
  if (!fig.ceiling) return;
  const FigureCeiling& c = *fig.ceiling;
  if (c.known) {
    f.ceiling = c.value;
    f.efficiency = fig.efficiency;
  } else {
    f.ceiling_note = c.reason;
  }
  if (!c.explanation.empty()) f.ceiling_note = c.explanation;
  // A ceiling in another unit than the figure's (time figures) is no ceiling of the figure.
  if (!c.unit.empty() && f.unit != c.unit) f.ceiling.reset(), f.efficiency.reset();
}

// The query names the record's figure itself: its value, unit, direction and samples come from it.
void fill_from_figure(FigureFact& f, const Record& r, const Figure& fig) {
  f.value = fig.value > 0 ? std::optional<double>(fig.value) : std::nullopt;
  f.unit = fig.unit;
  f.higher_is_better = fig.better == Better::higher;
  f.samples = fig.samples;
  f.samples_from = fig.samples.empty() ? "" : samples_origin(fig);
  const bool timed = fig.better == Better::lower;
  f.samples_total = std::max<int64_t>(timed ? r.time_us.samples : 0, static_cast<int64_t>(fig.samples.size()));
  f.dip = dip_of(fig);
  if (!f.dip && r.time_us.samples >= 2 && r.time_us.p99 > 0) f.dip = std::max(0.0, 1 - r.time_us.p50 / r.time_us.p99);
}

}  // namespace

FigureFact figure_fact(const Record& r, const std::string& metric) {
  FigureFact f;
  f.suite = r.suite, f.test = r.name, f.kind = kind_of(r), f.metric = metric;
  f.subject = fact_subject_of(r);
  f.dtype = r.dtype, f.op = r.op, f.ranks = r.ranks;
  f.bytes_is_size = bytes_is_message_size(r);
  f.bytes = message_size(r);
  f.status = r.status, f.reason = r.reason;
  f.fastest = r.time_us.min;
  if (r.figure)
    if (const auto it = r.figure->parameters.find("rail"); it != r.figure->parameters.end() && !it->second.empty() &&
                                                           it->second.find_first_not_of("0123456789") == std::string::npos &&
                                                           it->second.size() < 6)
      f.rail = std::stoi(it->second);
  if (r.figure && figure_path(*r.figure) == metric) {
    fill_from_figure(f, r, *r.figure);
  } else {
    // Another number of the record than its figure (time_us.p99 of a collective, ...): its typed
    // field, without samples; a suite's own figure named by the spec (extra.KEY) is never one of the
    // figures above, and the dip stays the figure's.
    f.value = metric == "extra.goodput_Gbps" ? std::nullopt : figure_value(r, metric);
    f.unit = figure_unit(metric);
    f.higher_is_better = metric.rfind("time_us.", 0) != 0 && metric.find("_us") == std::string::npos;
    if (r.figure) f.dip = dip_of(*r.figure);
    if (!f.dip && r.time_us.samples >= 2 && r.time_us.p99 > 0) f.dip = std::max(0.0, 1 - r.time_us.p50 / r.time_us.p99);
  }
  if (r.figure) fill_ceiling(f, *r.figure);
  return f;
}

namespace {

bool on_rail(const Record& r, const FigureQuery& q) {
  if (q.rail && jsonx::integer(r.extra, "rail") != q.rail) return false;
  return q.iface.empty() || jsonx::string(r.extra, "src_iface").value_or("") == q.iface;
}

bool selected(const Record& r, const FigureQuery& q) {
  if (r.suite != q.suite || !on_rail(r, q)) return false;
  if (!q.stands_for.empty()) return r.name == q.stands_for && r.variant == q.test;  // a kind named as the test
  if (r.name != q.test) return false;
  if (!q.kind.empty()) return r.variant == q.kind;
  return !contains(q.left_out, r.variant);
}

}  // namespace

// A TCP flow's bytes are what it received in its time, not a message size; a latency's are.
bool bytes_is_message_size(const Record& r) {
  const RecordKind kind = record_kind(r);
  return kind != RecordKind::tcp_flow && kind != RecordKind::tcp_group;
}

int64_t message_size(const Record& r) { return bytes_is_message_size(r) ? r.bytes : 0; }

std::string subject_label(const FactSubject& s) {
  switch (s.kind) {
    case FactSubjectKind::pair: return s.src_host + " -> " + s.dst_host;
    case FactSubjectKind::link: return s.src_host + " <-> " + s.dst_host;
    case FactSubjectKind::host: return s.host.empty() ? "one host" : s.host;
    case FactSubjectKind::gpu: return s.host + " " + s.gpu;
    case FactSubjectKind::group: return s.host.empty() ? "all ranks" : "flows at " + s.host;
  }
  return "";
}

std::vector<std::string> subject_hosts(const FactSubject& s) {
  if (s.kind == FactSubjectKind::pair || s.kind == FactSubjectKind::link) return {s.src_host, s.dst_host};
  if (s.host.empty()) return {};
  return {s.host};
}

std::string subject_noun(FactSubjectKind k, bool plural) {
  const char* one = "group";
  switch (k) {
    case FactSubjectKind::pair: one = "directed pair"; break;
    case FactSubjectKind::link: one = "pair"; break;
    case FactSubjectKind::host: one = "host"; break;
    case FactSubjectKind::gpu: one = "GPU"; break;
    case FactSubjectKind::group: one = "group"; break;
  }
  return plural ? std::string(one) + "s" : std::string(one);
}

std::vector<FigureFact> select_figures(const Report& report, const FigureQuery& q) {
  std::vector<FigureFact> out;
  for (const Record* r : select_records(report, q)) out.push_back(figure_fact(*r, q.metric));
  return out;
}

std::vector<const Record*> select_records(const Report& report, const FigureQuery& q) {
  std::vector<const Record*> out;
  for (const auto& r : report.results)
    if (selected(r, q)) out.push_back(&r);
  return out;
}

bool keeps_baseline_figure(const Record& r) { return r.status == Status::passed && r.figure && r.figure->value > 0; }

FigureFact figure_fact_of(const Record& r) { return figure_fact(r, r.figure ? figure_path(*r.figure) : ""); }

std::string figure_path(const Figure& f) {
  if (f.better == Better::lower) return "time_us.p50";
  if (f.metric == "tcp.goodput") return "extra.goodput_Gbps";
  if (f.metric == "rdma.write.bw") return "extra.bw_Gbps";
  if (metric_label(f) == "busbw") return "busbw_GBps";
  return "algbw_GBps";
}

std::string figure_key(const FigureFact& f) {
  std::string k = f.suite + "/" + f.test;
  for (const auto* part : {&f.kind, &f.dtype, &f.op})
    if (!part->empty()) k += "/" + *part;
  if (f.bytes_is_size) k += "/" + std::to_string(f.bytes) + "B";
  if (f.subject.kind == FactSubjectKind::group) k += "/np" + std::to_string(f.ranks);
  k += " " + f.metric.substr(f.metric.rfind('.') + 1);
  if (f.subject.kind != FactSubjectKind::group || !f.subject.host.empty()) k += " " + subject_label(f.subject);
  return k;
}

TestRule test_rule(const KnownTests& known, const std::string& suite, const std::string& test) {
  for (const auto& t : known)
    if (t.suite == suite && contains(t.kinds, test)) return {t.test, {}, t.rate_figure};
  for (const auto& t : known)
    if (t.suite == suite && (t.test == test || t.open)) return {"", t.left_out, t.rate_figure};
  return {};
}

MetricPath metric_path(const KnownTests& known, const std::string& suite, const std::string& test, const std::string& metric) {
  const KnownTest* t = find_test(known, suite, test);
  std::string names;
  if (t)
    for (const auto& m : t->metrics) {
      const bool any = m.metric == suite + ".*";
      if (m.metric == metric || (any && metric.size() > suite.size() + 1 && metric.rfind(suite + ".", 0) == 0))
        return {m.path, ""};
      names += (names.empty() ? "" : ", ") + m.metric;
    }
  const std::string paths = "busbw_GBps, algbw_GBps, time_us.STAT or extra.KEY";
  if (names.empty())
    return {"", "'" + metric + "' is not a figure (" + suite + "/" + test + " names no metric; use a record path: " + paths + ")"};
  return {"", "'" + metric + "' is not a figure of " + suite + "/" + test + " (its metrics: " + names + "; or a record path: " + paths + ")"};
}

std::optional<NameProblem> unknown_name(const KnownTests& known, const std::string& suite, const std::string& test,
                                        const std::string& kind) {
  std::vector<std::string> suites, tests;
  for (const auto& t : known) {
    if (!contains(suites, t.suite)) suites.push_back(t.suite);
    if (t.suite == suite && !t.open) tests.push_back(t.test);
  }
  const auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (!contains(suites, suite)) return NameProblem{"suite", "'" + suite + "' is not a suite (valid: " + list(suites) + ")"};
  const KnownTest* t = find_test(known, suite, test);
  if (!t) {
    for (const auto& k : known)
      if (k.suite == suite)
        for (const auto& x : k.kinds)
          if (!contains(tests, x)) tests.push_back(x);
    return NameProblem{"name", "'" + test + "' is not a test of suite " + suite + " (valid: " + list(tests) + ")"};
  }
  if (!kind.empty() && !t->kinds.empty() && !contains(t->kinds, kind) && t->test == test)
    return NameProblem{"kind", "'" + kind + "' is not a kind of " + suite + "/" + test + " (valid: " + list(t->kinds) + ")"};
  return std::nullopt;
}

}  // namespace gpunet::report
