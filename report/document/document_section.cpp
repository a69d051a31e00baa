#include "report/document/document_section.hpp"

#include <algorithm>

#include "common/strings.hpp"
#include "report/analysis/analysis.hpp"
#include "report/analysis/sections.hpp"
#include "report/document/suite_times.hpp"
#include "report/judge/host_load.hpp"
#include "report/judge/networks.hpp"
#include "report/judge/scheduler_lines.hpp"
#include "report/text/text_format.hpp"
#include "report/training/training_tables.hpp"

namespace gpunet::report {

namespace {

constexpr size_t kHostsShown = 32;  // hosts the Run section names before "... (N in all)"

std::string hosts_text(const Provenance& p) {
  std::vector<std::string> hosts;
  for (const auto& h : p.hosts)
    if (hosts.empty() || hosts.back() != h) hosts.push_back(h);
  const size_t shown = std::min(hosts.size(), kHostsShown);
  std::string text = join(std::vector<std::string>(hosts.begin(), hosts.begin() + static_cast<long>(shown)), ", ");
  if (hosts.size() > shown) text += ", ... (" + std::to_string(hosts.size()) + " in all)";
  return text;
}

Table topology_table(const TopoTable& tt) {
  Table t = text_table(tt.title, tt.header);
  for (size_t c = 0; c < t.columns.size() && c < tt.numeric.size(); ++c) t.columns[c].number = tt.numeric[c];
  t.note = tt.note;
  for (const auto& row : tt.rows) {
    add_row(t, row);
    if (tt.wrap_last && !t.rows.back().cells.empty()) t.rows.back().cells.back().wrap = true;
  }
  return t;
}

}  // namespace

Table text_table(std::string title, const std::vector<std::string>& headers) {
  Table t;
  t.kind = TableKind::text;
  t.title = std::move(title);
  for (const auto& h : headers) t.columns.emplace_back(h, "", false);
  return t;
}

TableRow& add_row(Table& t, std::vector<std::string> texts, Status status) {
  TableRow& row = t.rows.emplace_back();
  row.status = status;
  for (auto& text : texts) row.cells.push_back(text_cell(std::move(text)));
  return row;
}

bool empty(const DocSection& s) {
  const bool no_tables = std::none_of(s.tables.begin(), s.tables.end(), [](const Table& t) { return shows_anything(t); });
  return s.paragraphs.empty() && s.items.empty() && no_tables && s.drawings.count == 0 && s.banner.empty() &&
         std::all_of(s.subsections.begin(), s.subsections.end(), [](const DocSection& sub) { return empty(sub); });
}

DocSection verdict_section(const RunVerdict& v) {
  DocSection s;
  s.banner = to_string(v.outcome);
  s.title = "Verdict: " + s.banner;
  s.items = v.reasons;
  return s;
}

DocSection problems_section(const WhatIsWrong& w) {
  DocSection s;
  s.title = "What is wrong";
  s.prominent = true;
  s.items = w.sentences;
  if (w.sentences.empty()) return s;
  s.code = slurm_lines(w.bad_nodes);
  if (!s.code.empty())
    s.closing.push_back("For the scheduler (bad-nodes.txt lists the same hosts; gpunet-bench drains nothing itself):");
  return s;
}

DocSection run_section(const Report& rep) {
  const auto& p = rep.provenance;
  DocSection s;
  s.title = "Run";
  Table t = text_table("", {"run", "value"});
  add_row(t, {"version", p.version + (p.git_commit.empty() ? "" : " (" + p.git_commit + ")")});
  add_row(t, {"command", join(p.argv, " ")});
  add_row(t, {"ranks", std::to_string(p.hosts.size()) + " on " + std::to_string(p.ranks_per_node.size()) + " nodes"});
  add_row(t, {"hosts", hosts_text(p)});
  add_row(t, {"time", p.start_time + (p.end_time.empty() ? "" : " to " + p.end_time)});
  add_row(t, {"libraries", "MPI " + p.mpi_version + "; hwloc " + p.hwloc_version +
                               (p.cuda_version.empty() ? "" : "; CUDA " + p.cuda_version) +
                               (p.nccl_version.empty() ? "" : "; NCCL " + p.nccl_version)});
  add_row(t, {"reduction", p.reduction + " across ranks"});
  if (const auto load = host_load_text(rep); !load.empty()) add_row(t, {"other work on the hosts", load});
  if (const auto took = suite_times_text(suite_times_of(rep)); !took.empty()) add_row(t, {"time per suite", took});
  if (const auto in_part = flows_in_part_text(rep); !in_part.empty()) add_row(t, {"records read", in_part});
  s.tables.push_back(std::move(t));
  s.closing.push_back("Units: GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, times in microseconds (us), CV in % of the mean. "
                      "efficiency = figure / ceiling; the ceilings the tables cite by number are derived at the end.");
  return s;
}

std::string flows_in_part_text(const Report& rep) {
  const gpunet::json* s = jsonx::object_at(rep.extra, kFlowsInPartKey);
  if (!s) return "";
  const auto n = [&](const char* k) { return std::to_string(static_cast<long long>(jsonx::number(*s, k).value_or(0))); };
  return "report.json kept " + n("whole") + " of " + n("flows") +
         " TCP flows whole and summarised the rest by host; re-render from the run's results.jsonl for every flow";
}

DocSection networks_section(const Report& rep) {
  DocSection s;
  s.title = "Networks measured";
  const auto all = interfaces_used(rep);
  if (all.empty()) return s;
  Table t = text_table("", {"host", "interface", "role", "figures"});
  t.columns.back().number = true;
  for (const auto& u : all) add_row(t, {u.host, u.iface, roles_text(u), std::to_string(u.figures)});
  s.tables.push_back(std::move(t));
  return s;
}

DocSection findings_section(const Report& rep) {
  DocSection s;
  s.title = "Why figures are below their ceiling";
  const auto explain = records_to_explain(rep);
  for (size_t i = 0; i < explain.size() && i < kFindingsShown; ++i) {
    const Record& r = *explain[i];
    s.items.push_back(r.suite + " " + r.name + (r.variant.empty() ? "" : " " + r.variant) +
                      (r.bytes > 0 ? " at " + format_bytes(r.bytes) : "") + " on " + r.host + ": " +
                      std::string(ceiling_view(r).explanation));
  }
  if (explain.size() > kFindingsShown)
    s.items.push_back("... and " + std::to_string(explain.size() - kFindingsShown) +
                      " more (every explanation is in report.json)");
  return s;
}

DocSection training_doc_section(const std::optional<training::TrainingResult>& answer) {
  DocSection s;
  s.title = "Training impact";
  if (!answer) return s;
  const auto text = training::section_text(*answer);
  s.paragraphs.push_back(text.headline);
  s.items = text.notes;
  for (const auto& tt : text.tables) {
    Table t = text_table(tt.title, tt.headers);
    for (size_t i = 1; i < t.columns.size(); ++i) t.columns[i].number = true;
    for (const auto& row : tt.rows) add_row(t, row);
    s.tables.push_back(std::move(t));
  }
  return s;
}

DocSection topology_section(const TopoSectionText& text) {
  DocSection s;
  s.title = "Topology";
  s.id = "topology";
  if (!text.empty_reason.empty()) {
    s.paragraphs.push_back(text.empty_reason);
    return s;
  }
  for (const auto& k : text.kinds) {
    DocSection kind;
    kind.title = k.heading;
    kind.items = k.summary;
    for (const auto& t : k.tables) kind.tables.push_back(topology_table(t));
    DocSection found;
    found.title = "Topology findings";
    found.items = k.findings.empty() ? std::vector<std::string>{"none recorded"} : k.findings;
    kind.subsections.push_back(std::move(found));
    s.subsections.push_back(std::move(kind));
  }
  if (!text.across_nodes.empty()) {
    DocSection across;
    across.title = "Across nodes";
    across.items = text.across_nodes;
    s.subsections.push_back(std::move(across));
  }
  return s;
}

DocSection topology_section(const Report& rep) { return topology_section(topology_text(rep)); }

std::vector<DocSection> record_table_sections(std::vector<Table> tables) {
  std::vector<DocSection> out;
  for (auto& t : tables) {
    const bool shown = shows_anything(t);
    if (out.empty() || (shown && out.back().title != section_title(t.kind) && !empty(out.back()))) out.emplace_back();
    if (shown) out.back().title = section_title(t.kind);
    out.back().tables.push_back(std::move(t));
  }
  return out;
}

DocSection summary_section(Table summary) {
  DocSection s;
  s.title = std::move(summary.title);
  summary.title.clear();
  s.tables.push_back(std::move(summary));
  return s;
}

}  // namespace gpunet::report
