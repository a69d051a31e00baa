// report.md: readable in a terminal and on a code host. Every string from a record is escaped.
#include <map>

#include "report/culprits.hpp"
#include "report/networks.hpp"
#include "report/analysis.hpp"

#include "common/strings.hpp"
#include "report/escape.hpp"
#include "report/json_access.hpp"
#include "report/md_table.hpp"
#include "report/renderers.hpp"
#include "report/sections.hpp"
#include "report/text_format.hpp"
#include "report/topology_render.hpp"
#include "report/training_render.hpp"
#include "report/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

using Align = MdTable::Align;

// Ceiling derivations are long; tables cite them as [n] and the list follows the tables.
class Derivations {
 public:
  std::string cite(const CeilingView& c) {
    if (!c.known) return "";
    auto [it, fresh] = index_.try_emplace(std::string(c.derivation), static_cast<int>(order_.size()) + 1);
    if (fresh) order_.emplace_back(c.derivation);
    return format_figure(c.value) + " [" + std::to_string(it->second) + "]";
  }
  std::string render() const {
    std::string out;
    for (size_t i = 0; i < order_.size(); ++i)
      out += "[" + std::to_string(i + 1) + "] " + md_escape(order_[i]) + "  \n";
    return out;
  }
  bool empty() const { return order_.empty(); }

 private:
  std::map<std::string, int> index_;
  std::vector<std::string> order_;
};

std::string eff_text(const CeilingView& c) { return c.efficiency ? format_percent(*c.efficiency) : ""; }

std::string header(const Report& rep) {
  const auto* a = jsonx::object_at(rep.extra, "analysis");
  const auto verdict = a ? jsonx::string(*a, "verdict").value_or("UNKNOWN") : "NOT ANALYSED";
  const auto summary = a ? jsonx::string(*a, "summary").value_or("") : "";
  const auto& p = rep.provenance;
  std::string out = "# gpunet-bench report\n\n**Verdict: " + md_escape(verdict) + "**" +
                    (summary.empty() ? "" : " - " + md_escape(summary)) + "\n\n";
  MdTable t({"run", "value"}, {Align::left, Align::left});
  t.add_row({"version", md_escape(p.version + (p.git_commit.empty() ? "" : " (" + p.git_commit + ")"))});
  t.add_row({"command", md_escape(join(p.argv, " "))});
  std::vector<std::string> hosts;
  for (const auto& h : p.hosts)
    if (hosts.empty() || hosts.back() != h) hosts.push_back(h);
  const size_t shown = std::min<size_t>(hosts.size(), 16);
  std::string host_text = join(std::vector<std::string>(hosts.begin(), hosts.begin() + static_cast<long>(shown)), ", ");
  if (hosts.size() > shown) host_text += ", ... (" + std::to_string(hosts.size()) + " in all)";
  t.add_row({"ranks", std::to_string(p.hosts.size()) + " on " + std::to_string(p.ranks_per_node.size()) + " nodes"});
  t.add_row({"hosts", md_escape(host_text)});
  t.add_row({"time", md_escape(p.start_time + (p.end_time.empty() ? "" : " to " + p.end_time))});
  t.add_row({"libraries", md_escape("MPI " + p.mpi_version + "; hwloc " + p.hwloc_version +
                                    (p.cuda_version.empty() ? "" : "; CUDA " + p.cuda_version) +
                                    (p.nccl_version.empty() ? "" : "; NCCL " + p.nccl_version))});
  t.add_row({"reduction", md_escape(p.reduction + " across ranks")});
  out += t.render();
  out += "\nUnits: GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, times in us. eff = figure / ceiling; ceilings [n] are "
         "derived at the end.\n";
  return out;
}

std::string findings(const Report& rep) {
  std::string out;
  if (rep.findings.is_array())
    for (const auto& f : rep.findings)
      out += "- " + md_escape(jsonx::string(f, "severity").value_or("note")) + ": " +
             md_escape(jsonx::string(f, "message").value_or(f.dump())) + "\n";
  const auto explain = records_to_explain(rep);
  for (size_t i = 0; i < explain.size() && i < kFindingsShown; ++i) {
    const Record* r = explain[i];
    out += "- " + md_escape(r->suite + " " + r->name + (r->variant.empty() ? "" : " " + r->variant)) +
           (r->bytes > 0 ? " at " + md_escape(format_bytes(r->bytes)) : "") + " on " + md_escape(r->host) + ": " +
           md_escape(ceiling_view(*r).explanation) + "\n";
  }
  if (explain.size() > kFindingsShown)
    out += "- ... and " + std::to_string(explain.size() - kFindingsShown) + " more (every explanation is in report.json)\n";
  return out.empty() ? "" : "\n## Findings\n\n" + out;
}

std::string sweep_table(const SweepGroup& g, Derivations& d) {
  MdTable t({"size", "count", "type", "redop", "time(us)", "algbw(GB/s)", "busbw(GB/s)", "#wrong", "p50(us)",
             "p99(us)", "cv", "ceiling", "eff", "status"},
            {Align::right, Align::right, Align::left, Align::left, Align::right, Align::right, Align::right,
             Align::right, Align::right, Align::right, Align::right, Align::right, Align::right, Align::left});
  for (const Record* r : g.rows) {
    const auto c = ceiling_view(*r);
    const bool ok = r->status == Status::passed;
    t.add_row({std::to_string(r->bytes), std::to_string(r->count), md_escape(r->dtype), md_escape(r->op),
               ok ? format_fixed(r->time_us.mean, 2) : "", ok ? format_figure(r->algbw_GBps) : "",
               ok ? format_figure(r->busbw_GBps) : "", std::to_string(r->wrong), ok ? format_fixed(r->time_us.p50, 2) : "",
               ok ? format_fixed(r->time_us.p99, 2) : "", ok ? format_fixed(r->time_us.cv, 3) : "", d.cite(c),
               eff_text(c), md_escape(to_string(r->status) + (r->reason.empty() ? "" : ": " + r->reason))});
  }
  return t.render();
}

// A family of many per-rank sweeps: one row per size across ranks, then its slowest sweeps in full.
std::string family_summary(const SweepFamily& f, Derivations& d) {
  const auto rows = family_rows(f);
  std::string unit;
  for (const auto& r : rows)
    if (!r.unit.empty()) unit = r.unit;
  const std::string u = unit.empty() ? "" : "(" + unit + ")";
  MdTable t({"size", "count", "type", "redop", "sweeps", "min" + u, "median" + u, "max" + u, "slowest", "ceiling",
             "eff(median)"},
            {Align::right, Align::right, Align::left, Align::left, Align::right, Align::right, Align::right,
             Align::right, Align::left, Align::right, Align::right});
  for (const auto& r : rows) {
    const bool any = r.n > 0;
    t.add_row({std::to_string(r.first->bytes), std::to_string(r.first->count), md_escape(r.first->dtype),
               md_escape(r.first->op), std::to_string(r.n), any ? format_figure(r.min) : "",
               any ? format_figure(r.median) : "", any ? format_figure(r.max) : "",
               r.slowest ? md_escape(r.slowest->host + " rank " + std::to_string(r.slowest->rank)) : "",
               r.ceiling ? d.cite(*r.ceiling) : "", r.median_efficiency ? format_percent(*r.median_efficiency) : ""});
  }
  std::string out = "\n### " + md_escape(f.title) + ": " + std::to_string(f.groups.size()) +
                    " sweeps, one per rank\n\n" + t.render();
  for (const SweepGroup* g : family_slowest(f, kFamilySlowestShown))
    out += "\n#### Slow: " + md_escape(g->title()) + "\n\n" + sweep_table(*g, d);
  return out;
}

std::string sweeps(const Report& rep, Derivations& d) {
  std::string out;
  const auto groups = sweep_groups(rep);
  for (const auto& f : sweep_families(groups)) {
    if (f.groups.size() > kFamilyDetailLimit) {
      out += family_summary(f, d);
      continue;
    }
    for (const SweepGroup* g : f.groups) out += "\n### " + md_escape(g->title()) + "\n\n" + sweep_table(*g, d);
  }
  return out.empty() ? "" : "\n## Sweeps\n" + out;
}

std::string points(const Report& rep, Derivations& d) {
  MdTable t({"suite", "name", "variant", "host", "rank", "status", "figure", "ceiling", "eff", "notes"},
            {Align::left, Align::left, Align::left, Align::left, Align::right, Align::left, Align::right, Align::right,
             Align::right, Align::left});
  for (const Record* r : point_records(rep)) {
    const auto c = ceiling_view(*r);
    std::string note = r->reason;
    if (!c.known && !c.reason.empty() && r->status != Status::skipped) note.append(note.empty() ? "" : "; ").append(c.reason);
    if (r->time_us.samples > 0 && !record_figure(*r))
      note += (note.empty() ? "" : "; ") + std::string("p50 ") + format_fixed(r->time_us.p50, 2) + " us, p99 " +
              format_fixed(r->time_us.p99, 2) + " us";
    t.add_row({md_escape(r->suite), md_escape(r->name), md_escape(r->variant), md_escape(r->host),
               std::to_string(r->rank), md_escape(to_string(r->status)), md_escape(figure_text(*r)), d.cite(c),
               eff_text(c), md_escape(note)});
  }
  return t.rows() == 0 ? "" : "\n## Other figures\n\n" + t.render();
}

}  // namespace

std::string render_markdown(const Report& rep) {
  Derivations d;
  std::string out = header(rep);
  const auto verdict_end = out.find("\n\n", out.find("**Verdict"));  // what is wrong, before any table
  out.insert(verdict_end == std::string::npos ? out.size() : verdict_end + 1, problems_markdown(rep));
  out += acceptance_markdown(rep);  // acceptance verdicts and baseline comparison
  out += networks_markdown(rep);    // the interfaces measured and their roles
  out += training::training_markdown(rep);  // training impact (report/training_render.hpp)
  out += findings(rep);
  out += sweeps(rep, d);
  out += points(rep, d);
  out += topology_markdown(rep);  // every kind of node (report/topology_render.hpp)
  if (!d.empty()) out += "\n## Ceilings\n\n" + d.render();
  return out;
}

}  // namespace gpunet::report
