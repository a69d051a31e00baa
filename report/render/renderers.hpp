// The output formats. Each renderer is a pure function of an analysed Report (see analysis.hpp) and
// lives in its own file: render_json.cpp, render_md.cpp, render_html.cpp, render_junit.cpp,
// render_csv.cpp. The formats that grow with every record (JSON, JUnit, CSV) also stream to an
// ostream, record by record, so a large run is never held twice in memory.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "report/model/record.hpp"
#include "report/render/document_parts.hpp"
#include "report/render/json_flows_kept.hpp"

namespace gpunet::report {

// Each takes the run's judgement (report/judge/judgement.hpp) from report::analyse; the forms without
// it use the one the report stored (stored_judgement), for tests and a report analysed elsewhere.

// report.json: the complete Report, checked against report/schema/report.schema.json, with the run
// verdict as extra.run_verdict.
std::string render_json(const Report& rep);
void render_json(const Report& rep, const RunVerdict& verdict, std::ostream& out);
// The same, keeping whole only the records kept.whole marks (json_flows_kept.hpp), with its summary.
void render_json(const Report& rep, const RunVerdict& verdict, const FlowsKept& kept, std::ostream& out);
// report.md: verdict, provenance, nccl-tests-like sweep tables with p50/p99/cv and ceiling/efficiency.
// The forms with DocumentParts lay out the document built once for every format (document_parts.hpp).
std::string render_markdown(const Report& rep);
std::string render_markdown(const DocumentParts& parts);
// report.html: one self-contained page (no scripts, no network) with inline SVG charts.
std::string render_html(const Report& rep);
std::string render_html(const DocumentParts& parts);
// junit.xml: one testcase per record; failed/timed_out -> failure, skipped -> skipped.
std::string render_junit(const Report& rep);
void render_junit(const Report& rep, const Judgement& j, std::ostream& out);
// The same at scale: one testcase per record report.json keeps whole (and every failure), and one per
// host and interface for the flows it summarises (kept.summary, or the summary of a report.json
// that was written in part).
void render_junit(const Report& rep, const Judgement& j, const FlowsKept& kept, std::ostream& out);
// sweeps.csv: every collective sweep record (MPI, NCCL), one row each.
std::string render_csv(const Report& rep);
void render_csv(const Report& rep, std::ostream& out);
// metrics.prom: the analysed figures, their ceilings and efficiencies in the Prometheus text format
// (render_prom.cpp); pair series up to kPromPairSeriesMaxNodes hosts, per-host aggregates beyond.
inline constexpr int kPromPairSeriesMaxNodes = 16;
std::string render_prom(const Report& rep);
void render_prom(const Report& rep, const RunVerdict& verdict, std::ostream& out);
// One CSV per table kind of the other records: (file name, text), every file even without rows. Held
// whole: write_analysed_outputs streams them instead (report/render/table_render.hpp).
std::vector<std::pair<std::string, std::string>> render_table_csvs(const DocumentParts& parts);

}  // namespace gpunet::report
