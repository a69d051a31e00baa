// Collective sweeps (MPI, NCCL) in nccl-tests' layout: one row per size; out-of-place and in-place side
// by side where both ran; nccl-tests' footer after each suite's last table. A family of many per-rank
// sweeps becomes one table across ranks plus its slowest sweeps.
#include <cstdio>
#include <map>

#include "report/analysis/analysis.hpp"
#include "report/document/table_model.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

bool is_collective(const SweepGroup& g) {
  return !g.rows.empty() && record_table_kind(*g.rows.front()) == TableKind::collective;
}

std::string wrong_text(const Record& r) { return r.check == "off" ? "N/A" : std::to_string(r.wrong); }

std::vector<Column> leading_columns() {
  return {{"size", "B", true}, {"count", "elements", true}, {"type", "", false}, {"redop", "", false}};
}

void lead(std::vector<Cell>& row, const Record& r) {
  row.push_back(int_cell(r.bytes));
  row.push_back(int_cell(r.count));
  row.push_back(text_cell(r.dtype));
  row.push_back(text_cell(r.op));
}

Table single_sweep(const SweepGroup& g, std::string title) {
  Table t;
  t.kind = TableKind::collective;
  t.title = std::move(title);
  t.columns = leading_columns();
  for (Column c : std::vector<Column>{{"time", "us", true},
                                      {"algbw", "GB/s", true},
                                      {"busbw", "GB/s", true},
                                      {"#wrong", "", true},
                                      {"p50", "us", true},
                                      {"p99", "us", true},
                                      {"CV", "%", true},
                                      {"ceiling", "GB/s", true},
                                      {"efficiency", "%", true},
                                      {"status", "", false}})
    t.columns.push_back(std::move(c));
  for (const Record* r : g.rows) {
    const bool ok = r->status == Status::passed;
    const auto c = ceiling_view(*r);
    TableRow row;
    row.status = r->status;
    lead(row.cells, *r);
    row.cells.push_back(ok ? fixed_cell(r->time_us.mean, 2) : text_cell(""));
    row.cells.push_back(ok ? figure_cell(r->algbw_GBps) : text_cell(""));
    row.cells.push_back(ok ? figure_cell(r->busbw_GBps) : text_cell(""));
    row.cells.push_back(text_cell(wrong_text(*r)));
    row.cells.push_back(ok ? fixed_cell(r->time_us.p50, 2) : text_cell(""));
    row.cells.push_back(ok ? fixed_cell(r->time_us.p99, 2) : text_cell(""));
    row.cells.push_back(ok ? percent_cell(r->time_us.cv) : text_cell(""));
    row.cells.push_back(ceiling_cell(c));
    row.cells.push_back(efficiency_cell(c));
    row.cells.push_back(status_cell(*r));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// nccl-tests prints out-of-place and in-place of one size on one line.
Table paired_sweep(const SweepGroup& oop, const SweepGroup& ip, std::string title) {
  Table t;
  t.kind = TableKind::collective;
  t.title = std::move(title);
  t.note = "out-of-place | in-place side by side, as nccl-tests prints them";
  t.columns = leading_columns();
  for (const char* v : {"out-of-place", "in-place"})
    for (Column c : std::vector<Column>{{"time", "us", true}, {"algbw", "GB/s", true}, {"busbw", "GB/s", true},
                                        {"#wrong", "", true}, {"CV", "%", true}, {"efficiency", "%", true}}) {
      c.name = std::string(v) + " " + c.name;
      t.columns.push_back(std::move(c));
    }
  t.columns.push_back({"ceiling", "GB/s", true});
  t.columns.push_back({"status", "", false});
  std::map<int64_t, std::pair<const Record*, const Record*>> by_size;
  for (const Record* r : oop.rows) by_size[r->bytes].first = r;
  for (const Record* r : ip.rows) by_size[r->bytes].second = r;
  for (const auto& [bytes, pair] : by_size) {
    TableRow row;
    lead(row.cells, pair.first ? *pair.first : *pair.second);
    std::string status;
    for (const Record* r : {pair.first, pair.second}) {
      const bool ok = r && r->status == Status::passed;
      row.cells.push_back(ok ? fixed_cell(r->time_us.mean, 2) : text_cell(""));
      row.cells.push_back(ok ? figure_cell(r->algbw_GBps) : text_cell(""));
      row.cells.push_back(ok ? figure_cell(r->busbw_GBps) : text_cell(""));
      row.cells.push_back(text_cell(r ? wrong_text(*r) : ""));
      row.cells.push_back(ok ? percent_cell(r->time_us.cv) : text_cell(""));
      row.cells.push_back(r ? efficiency_cell(ceiling_view(*r)) : text_cell(""));
      if (r && r->status != Status::passed) {
        row.status = r->status;
        status += (status.empty() ? "" : "; ") + r->variant + " " + status_cell(*r).text;
      }
    }
    row.cells.push_back(ceiling_cell(ceiling_view(pair.first ? *pair.first : *pair.second)));
    row.cells.push_back(wrap_cell(status.empty() ? "passed" : status));
    t.rows.push_back(std::move(row));
  }
  return t;
}

// One size of a family across its sweeps: the spread and where the minimum is.
Table family_table(const SweepFamily& f) {
  const auto rows = family_rows(f);
  std::string unit;
  for (const auto& r : rows)
    if (!r.unit.empty()) unit = r.unit;
  Table t;
  t.kind = TableKind::collective;
  t.title = f.title + ": " + std::to_string(f.groups.size()) + " sweeps, one per rank";
  t.columns = leading_columns();
  for (Column c : std::vector<Column>{{"sweeps", "", true},
                                      {"min", unit, true},
                                      {"median", unit, true},
                                      {"max", unit, true},
                                      {"slowest", "", false},
                                      {"ceiling", unit, true},
                                      {"median efficiency", "%", true}})
    t.columns.push_back(std::move(c));
  for (const auto& r : rows) {
    const bool any = r.n > 0;
    TableRow row;
    lead(row.cells, *r.first);
    row.cells.push_back(int_cell(static_cast<long long>(r.n)));
    row.cells.push_back(any ? figure_cell(r.min) : text_cell(""));
    row.cells.push_back(any ? figure_cell(r.median) : text_cell(""));
    row.cells.push_back(any ? figure_cell(r.max) : text_cell(""));
    row.cells.push_back(text_cell(r.slowest ? r.slowest->host + " rank " + std::to_string(r.slowest->rank) : ""));
    row.cells.push_back(r.ceiling ? ceiling_cell(*r.ceiling) : text_cell(""));
    CeilingView median;
    median.efficiency = r.median_efficiency;
    row.cells.push_back(efficiency_cell(median));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string without_variant(const SweepGroup& g) {
  SweepGroup common = g;
  common.variant.clear();
  return common.title();
}

// The in-place sweep that pairs with an out-of-place one: the same test, host and rank.
const SweepGroup* in_place_of(const SweepGroup& g, const std::vector<SweepGroup>& groups) {
  if (g.variant != "out-of-place") return nullptr;
  for (const auto& o : groups)
    if (o.variant == "in-place" && o.suite == g.suite && o.name == g.name && o.dtype == g.dtype && o.op == g.op &&
        o.ranks == g.ranks && o.host == g.host && o.rank == g.rank)
      return &o;
  return nullptr;
}

}  // namespace

std::vector<std::string> collective_footer(const std::vector<const Record*>& rows) {
  int64_t wrong = 0;
  bool checked = false, failed = false;
  double sum = 0;
  int n = 0;
  for (const Record* r : rows) {
    wrong += r->wrong;
    checked = checked || r->check != "off";
    failed = failed || r->check == "wrong" || r->wrong > 0;
    if (r->status != Status::skipped && r->time_us.samples > 0) {  // every measured size, as nccl-tests
      sum += r->busbw_GBps;
      ++n;
    }
  }
  char buf[128];
  std::vector<std::string> out;
  if (checked)
    std::snprintf(buf, sizeof buf, "# Out of bounds values : %lld %s", static_cast<long long>(wrong), failed ? "FAILED" : "OK");
  else
    std::snprintf(buf, sizeof buf, "# Out of bounds values : N/A (data not checked)");
  out.emplace_back(buf);
  std::snprintf(buf, sizeof buf, "# Avg bus bandwidth    : %g ", n ? sum / n : 0.0);
  out.emplace_back(buf);
  return out;
}

std::vector<Table> collective_tables(const Report& rep, const TableRecords&) {
  std::vector<SweepGroup> groups;
  for (auto& g : sweep_groups(rep))
    if (is_collective(g)) groups.push_back(std::move(g));
  std::vector<Table> out;
  std::map<std::string, std::vector<const Record*>> per_suite;
  std::map<std::string, size_t> last_table;
  auto add = [&](Table t, const std::string& suite) {
    last_table[suite] = out.size();
    out.push_back(std::move(t));
  };
  for (const auto& f : sweep_families(groups)) {
    const std::string& suite = f.groups.front()->suite;
    for (const SweepGroup* g : f.groups) per_suite[suite].insert(per_suite[suite].end(), g->rows.begin(), g->rows.end());
    if (f.groups.size() > kFamilyDetailLimit) {
      add(family_table(f), suite);
      for (const SweepGroup* g : family_slowest(f, kFamilySlowestShown)) add(single_sweep(*g, "Slow: " + g->title()), suite);
      continue;
    }
    for (const SweepGroup* g : f.groups) {
      if (g->variant == "in-place") {
        bool paired = false;
        for (const auto& o : groups) paired = paired || in_place_of(o, groups) == g;
        if (paired) continue;  // shown beside its out-of-place sweep
      }
      if (const SweepGroup* ip = in_place_of(*g, groups))
        add(paired_sweep(*g, *ip, without_variant(*g)), suite);
      else
        add(single_sweep(*g, g->title()), suite);
    }
  }
  for (const auto& [suite, rows] : per_suite) {
    Table& t = out[last_table[suite]];
    t.footer.push_back("# " + suite + ": nccl-tests' footer over every sweep above (bus bandwidth in GB/s)");
    for (auto& line : collective_footer(rows)) t.footer.push_back(std::move(line));
  }
  return out;
}

}  // namespace gpunet::report
