// metrics.prom: the analysed figures in the Prometheus text exposition format, for node_exporter's
// textfile collector or a Pushgateway. One gauge family per metric and unit; one series per figure of
// a passed record, labelled by its subject and parameters; beside it, its ceiling and efficiency. No
// timestamps (the collector stamps the scrape). Pair figures of a run on more than
// kPromPairSeriesMaxNodes hosts become per-host aggregates (min and median, as sender and as
// receiver), so the series count grows with the nodes, not with their square.
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "report/render/prom_text.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

using prom::Labels;

struct PromSeries {
  Labels labels;
  double value = 0;
};

struct PromFamily {
  std::string help;
  std::vector<PromSeries> series;
  std::set<std::string> seen;  // label sets already present: the first figure of a label set is kept
};

// By name, so the file is stable from run to run.
using PromFamilies = std::map<std::string, PromFamily>;

void add_series(PromFamilies& fams, const std::string& name, const std::string& help, Labels labels, double value) {
  auto& fam = fams[name];
  if (fam.help.empty()) fam.help = help;
  if (!fam.seen.insert(prom::label_set(labels)).second) return;
  fam.series.push_back({std::move(labels), value});
}

Labels subject_labels(const Subject& s) {
  switch (s.kind) {
    case SubjectKind::cluster:
      if (s.nodes > 0) return {{"nodes", std::to_string(s.nodes)}};
      return {};
    case SubjectKind::host: return {{"host", s.host}};
    case SubjectKind::gpu: return {{"host", s.host}, {"gpu", s.device}};
    case SubjectKind::nic: return {{"host", s.host}, {"nic", s.device}};
    case SubjectKind::pair:
      if (s.host == s.dst_host)  // ranks on one host: the ranks tell the ends apart
        return {{"src", s.host}, {"src_rank", std::to_string(s.rank)}, {"dst", s.dst_host}, {"dst_rank", std::to_string(s.dst_rank)}};
      if (!s.iface.empty())  // a rail: each end's interface
        return {{"src", s.host}, {"src_iface", s.iface}, {"dst", s.dst_host}, {"dst_iface", s.dst_iface}};
      return {{"src", s.host}, {"dst", s.dst_host}};
    case SubjectKind::group: {
      Labels l{{"group", s.group}, {"host", s.host}};
      if (s.nodes > 0) l.emplace_back("nodes", std::to_string(s.nodes));
      return l;
    }
  }
  return {};
}

// The figure's parameters as labels (names made valid); one whose name the subject took is left out.
Labels parameter_labels(const Figure& f, const Labels& taken) {
  Labels out;
  for (const auto& [key, value] : f.parameters) {
    const std::string name = prom::name_part(key);
    const auto clash = [&](const auto& l) { return l.first == name; };
    if (name.rfind("__", 0) == 0 || std::any_of(taken.begin(), taken.end(), clash) || std::any_of(out.begin(), out.end(), clash))
      continue;
    out.emplace_back(name, value);
  }
  return out;
}

Labels joined(Labels a, const Labels& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// What one figure puts into the file: its value and, when known, ceiling and efficiency.
struct PromPoint {
  double value = 0;
  std::optional<double> ceiling, efficiency;
};

std::optional<PromPoint> point_of(const Figure& f) {
  const prom::Unit u = prom::unit_of(f.unit);
  if (!std::isfinite(f.value)) return std::nullopt;
  PromPoint p{u.apply(f.value), std::nullopt, std::nullopt};
  if (f.ceiling && f.ceiling->known && f.ceiling->unit == f.unit) p.ceiling = u.apply(f.ceiling->value);
  if (f.efficiency) p.efficiency = *f.efficiency;
  return p;
}

void add_point(PromFamilies& fams, const Figure& f, const Labels& labels, const PromPoint& p, const std::string& what) {
  const std::string unit = f.unit.empty() ? "" : " in " + f.unit + (prom::unit_of(f.unit).converts() ? " converted to " + prom::unit_of(f.unit).suffix : "");
  add_series(fams, prom::metric_name(f.metric, f.unit), f.metric + unit + ", " + what, labels, p.value);
  if (p.ceiling)
    add_series(fams, prom::ceiling_name(f.metric, f.unit),
               "The ceiling of " + f.metric + unit + ": the most its path can carry (report.json figure.ceiling), " + what,
               labels, *p.ceiling);
  if (p.efficiency)
    add_series(fams, prom::efficiency_name(f.metric), f.metric + " divided by its ceiling, " + what, labels, *p.efficiency);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The labels a pair figure of a large run is aggregated under, besides its parameters.
const Labels kAggregateLabels = {{"host", ""}, {"role", ""}, {"stat", ""}};

// What names a pair figure's series but its host and role: its family and its parameters as labels,
// worked out once for each metric, unit and parameters of the run (a million flows share a few).
struct PairIdentity {
  const Figure* figure = nullptr;
  int subject_shape = 0;    // which labels subject_labels gives the pair (they may hide a parameter)
  std::string name;         // prom::metric_name
  Labels params;            // parameter_labels, beside the subject's labels
  std::string params_text;  // ",k=\"v\"" for each, as prom::label_set writes them
};

class PairIdentities {
 public:
  const PairIdentity& of(const Figure& f) {
    const Subject& s = f.subject;
    const int shape = s.host == s.dst_host ? 1 : !s.iface.empty() ? 2 : 0;
    for (const auto& id : known_)
      if (id.subject_shape == shape && id.figure->metric == f.metric && id.figure->unit == f.unit &&
          id.figure->parameters == f.parameters)
        return id;
    PairIdentity id{&f, shape, prom::metric_name(f.metric, f.unit),
                    parameter_labels(f, joined(subject_labels(s), kAggregateLabels)), ""};
    for (const auto& [key, value] : id.params) id.params_text += "," + key + "=\"" + prom::label_value(value) + "\"";
    return known_.emplace_back(std::move(id));
  }

 private:
  std::deque<PairIdentity> known_;  // a deque: what `of` returned stays where it is
};

// Pair figures of a large run, gathered per host, role and the rest of the figure's identity.
struct PairGroup {
  const Figure* first = nullptr;  // metric, unit, parameters
  Labels labels;                  // host, role, parameters
  std::vector<double> values, ceilings, efficiencies;
};

void add_pair_aggregates(PromFamilies& fams, const std::map<std::string, PairGroup>& groups) {
  const std::string what = "min and median over the host's pairs (per-pair series only up to " +
                           std::to_string(kPromPairSeriesMaxNodes) + " nodes)";
  for (const auto& [key, g] : groups) {
    for (const char* stat : {"min", "median"}) {
      const bool min = std::string(stat) == "min";
      auto pick = [&](const std::vector<double>& v) -> std::optional<double> {
        if (v.empty()) return std::nullopt;
        return min ? *std::min_element(v.begin(), v.end()) : median_of(v);
      };
      const PromPoint p{*pick(g.values), pick(g.ceilings), pick(g.efficiencies)};
      add_point(fams, *g.first, joined(g.labels, {{"stat", stat}}), p, what);
    }
  }
}

}  // namespace

void render_prom(const Report& rep, const RunVerdict& verdict, std::ostream& out) {
  PromFamilies fams;
  const size_t nodes = run_hosts(rep).size();
  const bool pairs_aggregated = nodes > static_cast<size_t>(kPromPairSeriesMaxNodes);
  std::map<std::string, PairGroup> pair_groups;
  PairIdentities identities;
  std::map<std::string, int> statuses;
  for (const auto& r : rep.results) {
    ++statuses[to_string(r.status)];
    if (!r.figure || r.status != Status::passed) continue;
    const Figure& f = *r.figure;
    const auto p = point_of(f);
    if (!p) continue;
    if (!pairs_aggregated || f.subject.kind != SubjectKind::pair) {
      const Labels subject = subject_labels(f.subject);
      add_point(fams, f, joined(subject, parameter_labels(f, joined(subject, kAggregateLabels))), *p,
                "one series per figure of the run");
      continue;
    }
    const PairIdentity& id = identities.of(f);
    for (const auto& [host, role] : {std::pair{f.subject.host, "sender"}, std::pair{f.subject.dst_host, "receiver"}}) {
      // As prom::label_set writes host, role and then the parameters.
      auto& g = pair_groups[id.name + "{host=\"" + prom::label_value(host) + "\",role=\"" + role + "\"" + id.params_text + "}"];
      if (!g.first) {
        g.first = &f;
        g.labels = joined({{"host", host}, {"role", role}}, id.params);
      }
      g.values.push_back(p->value);
      if (p->ceiling) g.ceilings.push_back(*p->ceiling);
      if (p->efficiency) g.efficiencies.push_back(*p->efficiency);
    }
  }
  add_pair_aggregates(fams, pair_groups);
  for (const auto& [status, n] : statuses)
    add_series(fams, "gpunet_results", "Records of the run by status", {{"status", status}}, n);
  add_series(fams, "gpunet_nodes", "Hosts the run spanned", {}, static_cast<double>(nodes));
  for (const auto o : {RunOutcome::pass, RunOutcome::warn, RunOutcome::incomplete, RunOutcome::fail})
    add_series(fams, "gpunet_run_verdict", "The run's one verdict (report.md's first line), 1 for the one it has",
               {{"verdict", to_string(o)}}, o == verdict.outcome ? 1 : 0);  // 1 for the run's verdict
  add_series(fams, "gpunet_run_exit_code", "The exit code the run's verdict gives", {}, verdict.exit_code());

  for (const auto& [name, fam] : fams) {
    out << "# HELP " << name << " " << prom::help_text(fam.help) << "\n# TYPE " << name << " gauge\n";
    for (const auto& s : fam.series) out << name << prom::label_set(s.labels) << " " << prom::number(s.value) << "\n";
  }
}

std::string render_prom(const Report& rep) {
  std::ostringstream out;
  render_prom(rep, stored_judgement(rep).verdict, out);
  return out.str();
}

}  // namespace gpunet::report
