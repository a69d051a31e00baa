// Latency per pair: TCP ping-pong percentiles and jitter; RDMA WRITE ping-pong in perftest's
// ib_write_lat columns (t_min, t_max, t_typical, t_avg, t_stdev, 99 % and 99.9 % percentiles).
#include "report/document/table_model.hpp"
#include "report/judge/figure_select.hpp"
#include "report/model/json_access.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report {

namespace {

std::string pair_text(const Record& r) {
  if (r.figure && r.figure->subject.kind == SubjectKind::pair) return pair_label(r.figure->subject, "<->");
  return r.host + " " + r.variant;
}

Cell us(const Record& r, const gpunet::json& lat, const char* key, double fallback) {
  if (r.status != Status::passed) return text_cell("");
  return fixed_cell(jsonx::number(lat, key).value_or(fallback), 2);
}

Table tcp_latency(const std::vector<const Record*>& recs) {
  Table t;
  t.kind = TableKind::latency;
  t.title = "TCP latency";
  t.csv = "tcp_latency.csv";
  t.note = std::string(kLatencyMeasure) + " of a ping-pong, as sockperf and osu_latency report it; jitter: the mean absolute "
           "difference of consecutive samples";
  t.columns = {{"pair", "", false},   {"size", "B", true},   {"samples", "", true}, {"p50", "us", true},
               {"p90", "us", true},   {"p99", "us", true},   {"p99.9", "us", true}, {"max", "us", true},
               {"jitter", "us", true}, {"status", "", false}};
  for (const Record* r : recs) {
    const auto& lat = jsonx::section(r->extra, "latency_us");
    TableRow row;
    row.status = r->status;
    row.cells = {text_cell(pair_text(*r)),
                 int_cell(r->bytes),
                 int_cell(jsonx::integer(lat, "samples").value_or(static_cast<int>(r->time_us.samples))),
                 us(*r, lat, "p50", r->time_us.p50),
                 us(*r, lat, "p90", r->time_us.p50),
                 us(*r, lat, "p99", r->time_us.p99),
                 r->status == Status::passed && jsonx::number(lat, "p99_9") ? us(*r, lat, "p99_9", 0) : text_cell(""),
                 us(*r, lat, "max", r->time_us.max),
                 r->status == Status::passed && jsonx::number(lat, "jitter") ? us(*r, lat, "jitter", 0) : text_cell(""),
                 status_cell(*r)};
    if (!jsonx::number(lat, "p90")) row.cells[4] = text_cell("");
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::vector<double> samples_of(const Record& r) {
  std::vector<double> v;
  if (const auto* s = jsonx::array_at(r.extra, "samples_us"))
    for (const auto& x : *s)
      if (x.is_number()) v.push_back(x.get<double>());
  return v;
}

Table rdma_latency(const std::vector<const Record*>& recs) {
  Table t;
  t.kind = TableKind::latency;
  t.title = "RDMA latency";
  t.csv = "rdma_latency.csv";
  t.note = std::string(kLatencyMeasure) + " of a WRITE-with-immediate ping-pong, in perftest's ib_write_lat columns";
  t.columns = {{"pair", "", false},         {"memory", "", false},      {"size", "B", true},
               {"iterations", "", true},    {"t_min", "us", true},      {"t_max", "us", true},
               {"t_typical", "us", true},   {"t_avg", "us", true},      {"t_stdev", "us", true},
               {"99% percentile", "us", true}, {"99.9% percentile", "us", true}, {"status", "", false}};
  for (const Record* r : recs) {
    const bool ok = r->status == Status::passed;
    const auto s = samples_of(*r);
    TableRow row;
    row.status = r->status;
    row.cells = {text_cell(pair_text(*r)),
                 text_cell(jsonx::string(r->extra, "memory").value_or("")),
                 int_cell(r->bytes),
                 int_cell(r->time_us.samples),
                 ok ? fixed_cell(r->time_us.min, 2) : text_cell(""),
                 ok ? fixed_cell(r->time_us.max, 2) : text_cell(""),
                 ok ? fixed_cell(r->time_us.p50, 2) : text_cell(""),
                 ok ? fixed_cell(r->time_us.mean, 2) : text_cell(""),
                 ok ? fixed_cell(r->time_us.stddev, 2) : text_cell(""),
                 ok ? fixed_cell(r->time_us.p99, 2) : text_cell(""),
                 ok && !s.empty() ? fixed_cell(percentile(s, 0.999), 2) : text_cell(""),
                 status_cell(*r)};
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace

std::vector<Table> latency_tables(const Report&, const TableRecords& records) {
  std::vector<const Record*> tcp, rdma;
  for (const Record* r : records.of(TableKind::latency)) (transport_of(record_kind(*r)) == Transport::rdma ? rdma : tcp).push_back(r);
  return {tcp_latency(tcp), rdma_latency(rdma)};
}

}  // namespace gpunet::report
