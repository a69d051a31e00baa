#include "report/render/document_parts.hpp"

#include <future>

#include "report/document/acceptance_section.hpp"
#include "report/document/ceiling_citations.hpp"
#include "report/document/section_order.hpp"
#include "report/judge/verdicts_outputs.hpp"
#include "report/model/json_access.hpp"
#include "report/render/chart_sections.hpp"
#include "report/render/training_render.hpp"

namespace gpunet::report {

namespace {

// "Charts": one subsection per kind of chart drawn, after a line for each chart left out and why.
DocSection charts_section(ChartSections drawn) {
  DocSection s;
  s.title = "Charts";
  s.id = "charts";
  for (const auto& o : drawn.omitted) s.items.push_back("Not drawn: " + o + ".");
  for (auto& c : drawn.sections) {
    DocSection& sub = s.subsections.emplace_back();
    sub.title = std::move(c.title);
    sub.id = std::move(c.id);
    sub.drawings = {c.drawings, std::move(c.html)};
  }
  return s;
}

DocSection training_with_chart(const std::optional<training::TrainingResult>& answer) {
  DocSection s = training_doc_section(answer);
  if (std::string chart = training::training_charts_html(answer); !chart.empty()) s.drawings = {1, std::move(chart)};
  return s;
}

// The sections of one kind, in the document's order; parts.blamed colours the summary and the pair tables.
// `charts`: the charts, drawn beside the other sections.
void add_sections(SectionKind k, const Report& rep, const TableRecords& records,
                  const std::optional<training::TrainingResult>& training, const DocumentParts& parts,
                  std::future<ChartSections>& charts, std::vector<DocSection>& out) {
  const BlamedPairs& blamed = parts.blamed;
  auto add = [&](DocSection s) { out.push_back(std::move(s)); };
  auto add_all = [&](std::vector<DocSection> all) { for (auto& s : all) out.push_back(std::move(s)); };
  switch (k) {
    case SectionKind::verdict: return add(verdict_section(parts.judgement->verdict));
    case SectionKind::problems: return add(problems_section(parts.wrong));
    case SectionKind::acceptance: return add_all(acceptance_sections(rep, *parts.judgement));
    case SectionKind::summary: return add(summary_section(summary_table(rep, records, blamed)));
    case SectionKind::run: return add(run_section(rep));
    case SectionKind::networks: return add(networks_section(rep));
    case SectionKind::training: return add(training_with_chart(training));
    case SectionKind::findings: return add(findings_section(rep));
    case SectionKind::charts: return add(charts_section(charts.get()));
    case SectionKind::tables: return add_all(record_table_sections(report_tables(rep, records, blamed)));
    case SectionKind::topology: return add(topology_section(rep));
    case SectionKind::ceilings: return add(cite_ceilings(out));  // last: what every section before it cites
  }
}

void collect_csv_tables(const DocSection& s, std::vector<const Table*>& out) {
  for (const auto& t : s.tables)
    if (!t.csv.empty()) out.push_back(&t);
  for (const auto& sub : s.subsections) collect_csv_tables(sub, out);
}

DocumentParts parts_of(const Report& rep, std::shared_ptr<const Judgement> j,
                       const std::optional<training::TrainingResult>& training) {
  WhatIsWrong wrong = what_is_wrong(rep, *j);
  BlamedPairs blamed(rep, wrong.bad_nodes);
  const auto* analysis = jsonx::object_at(rep.extra, "analysis");
  const double threshold = analysis ? jsonx::number(*analysis, "threshold").value_or(0.8) : 0.8;
  DocumentParts parts{std::move(j), std::move(wrong), threshold, std::move(blamed), {}, {}};
  // The charts (a heatmap of a million pairs at 1,024 hosts) are drawn on a second thread while the
  // other sections are built; it reads rep and parts.blamed, which nothing changes meanwhile.
  auto charts = std::async(std::launch::async, [&] { return chart_sections(rep, parts.blamed, parts.judgement->fabric); });
  const TableRecords records(rep);
  for (const auto k : kDocumentHead) add_sections(k, rep, records, training, parts, charts, parts.head);
  for (const auto k : kDocumentBody) add_sections(k, rep, records, training, parts, charts, parts.body);
  return parts;
}

}  // namespace

DocumentParts document_parts(const Report& rep, const Judgement& j, const std::optional<training::TrainingResult>& training) {
  return parts_of(rep, std::shared_ptr<const Judgement>(std::shared_ptr<const Judgement>{}, &j), training);  // borrowed
}

DocumentParts document_parts(const Analysed& a) { return document_parts(a.report, a.judgement, a.training); }

DocumentParts document_parts(const Report& rep) {
  return parts_of(rep, std::make_shared<const Judgement>(stored_judgement(rep)), training::training_result_of(rep));
}

std::vector<const Table*> csv_tables(const DocumentParts& parts) {
  std::vector<const Table*> out;
  for (const auto& s : parts.body) collect_csv_tables(s, out);
  return out;
}

}  // namespace gpunet::report
