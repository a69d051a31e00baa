// sweeps.csv: every collective sweep record (MPI, NCCL), one row each, in sweep order (RFC 4180); and
// one CSV file per table kind of the other records (report/document/table_model.hpp).
#include <cstdio>
#include <sstream>

#include "common/strings.hpp"
#include "report/analysis/analysis.hpp"
#include "report/text/escape.hpp"
#include "report/render/renderers.hpp"
#include "report/analysis/sections.hpp"
#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"

namespace gpunet::report {

namespace {

std::string num(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

}  // namespace

void render_csv(const Report& rep, std::ostream& os) {
  os << "suite,name,variant,host,rank,ranks,bytes,count,dtype,op,status,time_us_mean,time_us_p50,time_us_p99,"
      "time_us_cv,samples,algbw_GBps,busbw_GBps,wrong,figure,figure_unit,ceiling,ceiling_unit,efficiency\n";
  for (const auto& g : sweep_groups(rep)) {
    for (const Record* r : g.rows) {
      if (record_table_kind(*r) != TableKind::collective) continue;
      const auto c = ceiling_view(*r);
      const auto f = record_figure(*r);
      const std::vector<std::string> cells{
          csv_field(r->suite), csv_field(r->name), csv_field(r->variant), csv_field(r->host),
          std::to_string(r->rank), std::to_string(r->ranks), std::to_string(r->bytes), std::to_string(r->count),
          csv_field(r->dtype), csv_field(r->op), to_string(r->status), num(r->time_us.mean), num(r->time_us.p50),
          num(r->time_us.p99), num(r->time_us.cv), std::to_string(r->time_us.samples), num(r->algbw_GBps),
          num(r->busbw_GBps), std::to_string(r->wrong), f ? num(f->value) : "", f ? f->unit : "",
          c.known ? num(c.value) : "", std::string(c.known ? c.unit : ""), c.efficiency ? num(*c.efficiency) : ""};
      os << join(cells, ",") << '\n';
    }
  }
}

std::vector<std::pair<std::string, std::string>> render_table_csvs(const DocumentParts& parts) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& f : table_csv_files(csv_tables(parts))) {
    std::ostringstream os;
    write_csv(f, os);
    out.emplace_back(f.name, std::move(os).str());
  }
  return out;
}

std::string render_csv(const Report& rep) {
  std::ostringstream os;
  render_csv(rep, os);
  return std::move(os).str();
}

}  // namespace gpunet::report
