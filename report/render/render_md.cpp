// report.md: readable in a terminal and on a code host. Every string from a record is escaped.
#include <map>

#include "report/judge/culprits.hpp"
#include "report/judge/networks.hpp"
#include "report/analysis/analysis.hpp"
#include "report/judge/host_load.hpp"

#include "common/strings.hpp"
#include "report/text/escape.hpp"
#include "report/model/json_access.hpp"
#include "report/render/chart_sections.hpp"
#include "report/render/md_table.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/analysis/sections.hpp"
#include "report/document/section_order.hpp"
#include "report/document/suite_times.hpp"
#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"
#include "report/text/text_format.hpp"
#include "report/render/topology_render.hpp"
#include "report/render/training_render.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {

using Align = MdTable::Align;

// The run's one verdict (report/judge/run_verdict.hpp) and its reasons, before anything else.
std::string verdict(const RunVerdict& v) {
  std::string out = "# gpunet-bench report\n\n**Verdict: " + to_string(v.outcome) + "**\n\n";
  for (const auto& reason : v.reasons) out += "- " + md_escape(reason) + "\n";
  return out;
}

std::string run(const Report& rep) {
  const auto& p = rep.provenance;
  std::string out = "\n## Run\n\n";
  MdTable t({"run", "value"}, {Align::left, Align::left});
  t.add_row({"version", md_escape(p.version + (p.git_commit.empty() ? "" : " (" + p.git_commit + ")"))});
  t.add_row({"command", md_escape(join(p.argv, " "))});
  std::vector<std::string> hosts;
  for (const auto& h : p.hosts)
    if (hosts.empty() || hosts.back() != h) hosts.push_back(h);
  const size_t shown = std::min<size_t>(hosts.size(), 32);  // as report.html
  std::string host_text = join(std::vector<std::string>(hosts.begin(), hosts.begin() + static_cast<long>(shown)), ", ");
  if (hosts.size() > shown) host_text += ", ... (" + std::to_string(hosts.size()) + " in all)";
  t.add_row({"ranks", std::to_string(p.hosts.size()) + " on " + std::to_string(p.ranks_per_node.size()) + " nodes"});
  t.add_row({"hosts", md_escape(host_text)});
  t.add_row({"time", md_escape(p.start_time + (p.end_time.empty() ? "" : " to " + p.end_time))});
  t.add_row({"libraries", md_escape("MPI " + p.mpi_version + "; hwloc " + p.hwloc_version +
                                    (p.cuda_version.empty() ? "" : "; CUDA " + p.cuda_version) +
                                    (p.nccl_version.empty() ? "" : "; NCCL " + p.nccl_version))});
  t.add_row({"reduction", md_escape(p.reduction + " across ranks")});
  if (const auto load = host_load_text(rep); !load.empty()) t.add_row({"other work on the hosts", md_escape(load)});
  if (const auto took = suite_times_text(suite_times_of(rep)); !took.empty()) t.add_row({"time per suite", md_escape(took)});
  out += t.render();
  out += "\nUnits: GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, times in us, CV in % of the mean. efficiency = figure / "
         "ceiling; ceilings [n] are derived at the end.\n";
  return out;
}

std::string findings(const Report& rep) {
  std::string out;
  const auto explain = records_to_explain(rep);
  for (size_t i = 0; i < explain.size() && i < kFindingsShown; ++i) {
    const Record* r = explain[i];
    out += "- " + md_escape(r->suite + " " + r->name + (r->variant.empty() ? "" : " " + r->variant)) +
           (r->bytes > 0 ? " at " + md_escape(format_bytes(r->bytes)) : "") + " on " + md_escape(r->host) + ": " +
           md_escape(ceiling_view(*r).explanation) + "\n";
  }
  if (explain.size() > kFindingsShown)
    out += "- ... and " + std::to_string(explain.size() - kFindingsShown) + " more (every explanation is in report.json)\n";
  return out.empty() ? "" : "\n## Why figures are below their ceiling\n\n" + out;
}

// The chart sections of report.html under the same headings, each saying what is drawn there.
std::string charts_markdown(const ChartSections& drawn) {
  std::string out;
  for (const auto& s : drawn.sections)
    out += "\n### " + md_escape(s.title) + "\n\n" + std::to_string(s.drawings) + (s.drawings == 1 ? " drawing" : " drawings") +
           " in report.html.\n";
  if (!drawn.omitted.empty()) out += "\n";
  for (const auto& o : drawn.omitted) out += "- Not drawn: " + md_escape(o) + ".\n";
  return out.empty() ? "" : "\n## Charts\n" + out;
}

std::string tables(const std::vector<Table>& all, CeilingNotes& notes) {
  std::string out, section;
  for (const auto& t : all) {
    const std::string body = table_markdown(t, notes);
    if (body.empty()) continue;
    if (section != section_title(t.kind)) {
      section = section_title(t.kind);
      out += "\n## " + section + "\n";
    }
    out += body;
  }
  return out;
}


std::string md_ceilings(const CeilingNotes& notes) {
  if (notes.empty()) return "";
  std::string out = "\n## Ceilings\n\n";
  for (size_t i = 0; i < notes.all().size(); ++i) out += "[" + std::to_string(i + 1) + "] " + md_escape(notes.all()[i]) + "  \n";
  return out;
}

// One section in Markdown; `notes` gathers the ceilings the tables cite, in the order they are laid out.
std::string md_section(SectionKind k, const Report& rep, const DocumentParts& parts, CeilingNotes& notes) {
  switch (k) {
    case SectionKind::verdict: return verdict(parts.judgement.verdict);
    case SectionKind::problems: return problems_markdown(parts.wrong);
    case SectionKind::acceptance: return acceptance_markdown(rep, parts.judgement);
    case SectionKind::summary: return table_markdown(parts.summary, notes, "##");
    case SectionKind::run: return run(rep);
    case SectionKind::networks: return networks_markdown(rep);
    case SectionKind::training: return training::training_markdown(rep);
    case SectionKind::findings: return findings(rep);
    case SectionKind::charts: return charts_markdown(parts.charts);
    case SectionKind::tables: return tables(parts.tables, notes);
    case SectionKind::topology: return topology_markdown(rep);
    case SectionKind::ceilings: return md_ceilings(notes);
  }
  return "";
}

}  // namespace

std::string render_markdown(const Report& rep, const DocumentParts& parts) {
  CeilingNotes notes;
  std::string out;
  for (const auto k : kDocumentHead) out += md_section(k, rep, parts, notes);
  for (const auto k : kDocumentBody) out += md_section(k, rep, parts, notes);
  return out;
}

std::string render_markdown(const Report& rep) { return render_markdown(rep, document_parts(rep)); }

}  // namespace gpunet::report
