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
#include "report/render/section_render.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/analysis/sections.hpp"
#include "report/document/section_order.hpp"
#include "report/document/suite_times.hpp"
#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"
#include "report/text/text_format.hpp"
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
std::string md_section(SectionKind k, const DocumentParts& parts, CeilingNotes& notes) {
  switch (k) {
    case SectionKind::verdict: return verdict(parts.judgement.verdict);
    case SectionKind::problems: return section_markdown(parts.problems, notes);
    case SectionKind::acceptance: return section_markdown(parts.acceptance, notes);
    case SectionKind::summary: return table_markdown(parts.summary, notes, "##");
    case SectionKind::run: return section_markdown(parts.run, notes);
    case SectionKind::networks: return section_markdown(parts.networks, notes);
    case SectionKind::training: return section_markdown(parts.training, notes);
    case SectionKind::findings: return section_markdown(parts.findings, notes);
    case SectionKind::charts: return charts_markdown(parts.charts);
    case SectionKind::tables: return tables(parts.tables, notes);
    case SectionKind::topology: return section_markdown(parts.topology, notes);
    case SectionKind::ceilings: return md_ceilings(notes);
  }
  return "";
}

}  // namespace

std::string render_markdown(const DocumentParts& parts) {
  CeilingNotes notes;
  std::string out;
  for (const auto k : kDocumentHead) out += md_section(k, parts, notes);
  for (const auto k : kDocumentBody) out += md_section(k, parts, notes);
  return out;
}

std::string render_markdown(const Report& rep) { return render_markdown(document_parts(rep)); }

}  // namespace gpunet::report
