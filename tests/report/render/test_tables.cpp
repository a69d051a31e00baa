// The table model: every record in exactly one table kind, each kind in its own column set in
// report.md (parsed back here), CV in %, no "carries no bandwidth figure" rows; on a Report built in
// code with a record of every kind, and on the saved report of a default one-machine run
// (tests/data/report/default_np2.json: mpirun -np 2 gpunet-bench, the default suites).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "gpunet/build_config.h"
#include "report/analysis/analysis.hpp"
#include "report/render/console.hpp"
#include "report/render/outputs.hpp"
#include "report/render/renderers.hpp"
#include "report/document/table_model.hpp"
#include "report/render/table_render.hpp"
#include "tests/report/md_table_parse.hpp"

using namespace gpunet::report;
using gpunet::report::testing::MdTableSeen;
using gpunet::report::testing::parse_tables;
using gpunet::json;

namespace {

using Cols = std::vector<std::string>;
const Cols kSweep = {"size (B)",       "count (elements)", "type",     "redop",  "time (us)",
                     "algbw (GB/s)",   "busbw (GB/s)",     "#wrong",   "p50 (us)", "p99 (us)",
                     "CV (%)",         "ceiling (GB/s)",   "efficiency (%)", "status"};
const Cols kPaired = {"size (B)", "count (elements)", "type", "redop",
                      "out-of-place time (us)", "out-of-place algbw (GB/s)", "out-of-place busbw (GB/s)",
                      "out-of-place #wrong", "out-of-place CV (%)", "out-of-place efficiency (%)",
                      "in-place time (us)", "in-place algbw (GB/s)", "in-place busbw (GB/s)", "in-place #wrong",
                      "in-place CV (%)", "in-place efficiency (%)", "ceiling (GB/s)", "status"};
const std::map<std::string, Cols> kColumns = {
    {"Summary", {"path", "figure", "subject", "value", "ceiling", "unit", "efficiency (%)"}},
    {"TCP flows",
     {"sender", "receiver", "test", "streams", "goodput (Gb/s)", "ceiling (Gb/s)", "efficiency (%)", "dips",
      "sender transfer (GB)", "sender bitrate (Gb/s)", "sender Retr", "receiver transfer (GB)", "receiver bitrate (Gb/s)",
      "CPU sender / receiver", "status"}},
    {"TCP one-to-many",
     {"test", "sender", "receiver", "streams", "goodput (Gb/s)", "ceiling (Gb/s)", "efficiency (%)", "received (B)",
      "status"}},
    {"TCP latency",
     {"pair", "size (B)", "samples", "p50 (us)", "p90 (us)", "p99 (us)", "p99.9 (us)", "max (us)", "jitter (us)",
      "status"}},
    {"RDMA latency",
     {"pair", "memory", "size (B)", "iterations", "t_min (us)", "t_max (us)", "t_typical (us)", "t_avg (us)",
      "t_stdev (us)", "99% percentile (us)", "99.9% percentile (us)", "status"}},
    {"RDMA WRITE bandwidth",
     {"pair", "memory", "direction", "size (B)", "BW peak (Gb/s)", "BW average (Gb/s)", "MsgRate (Mpps)",
      "ceiling (Gb/s)", "efficiency (%)", "#wrong", "status"}},
    {"PCIe host-device copies",
     {"host", "GPU", "direction", "host memory", "NUMA node", "size (B)", "bandwidth (GB/s)", "p50 (us)", "CV (%)",
      "link", "ceiling (GB/s)", "efficiency (%)", "#wrong", "status"}},
    {"Host memory bandwidth",
     {"host", "NUMA node", "kernel", "threads", "size (B)", "bandwidth (GB/s)", "p50 (us)", "CV (%)", "samples",
      "check", "status"}},
    {"Checks and skips", {"suite", "name", "variant", "host", "status", "what it says"}},
    {"Other figures", {"suite", "metric", "subject", "value", "unit", "ceiling", "efficiency (%)", "status"}},
};
const std::set<std::string> kUnjudged = {"Run", "Training impact", "Networks measured", "Topology", "What is wrong"};

// Checks every table of report.md against its kind's columns; returns the headings seen.
std::set<std::string> check_columns(const std::string& md) {
  std::set<std::string> seen;
  for (const auto& t : parse_tables(md)) {
    if (kUnjudged.count(t.section)) continue;
    for (const auto& row : t.rows) EXPECT_EQ(row.size(), t.header.size()) << t.heading;
    if (t.section == "Collective sweeps") {
      if (t.header.size() > 4 && t.header[4] == "out-of-place time (us)")
        EXPECT_EQ(t.header, kPaired) << t.heading;
      else
        EXPECT_EQ(t.header, kSweep) << t.heading;
      seen.insert("collective");
      continue;
    }
    if (t.heading.rfind("TCP pair matrix", 0) == 0 || t.heading.rfind("RDMA pair matrix", 0) == 0) {
      EXPECT_EQ(t.header.at(0), "sender / receiver");
      for (size_t i = 1; i < t.header.size(); ++i) EXPECT_NE(t.header[i].find("(Gb/s, %)"), std::string::npos);
      seen.insert(t.heading.substr(0, t.heading.find(" (")));
      continue;
    }
    bool known = false;
    for (const auto& [prefix, cols] : kColumns)
      if (t.heading.rfind(prefix, 0) == 0) {
        EXPECT_EQ(t.header, cols) << t.heading;
        seen.insert(prefix);
        known = true;
      }
    EXPECT_TRUE(known) << "a table of no known kind: " << t.section << " / " << t.heading;
  }
  return seen;
}

const json kLink = {{"kind", "ethernet"}, {"speed_Mbps", 10000}, {"mtu", 1500}, {"shaped_rate_bps", 1e9}};

Record flow(const std::string& src, int sr, const std::string& dst, int dr, const std::string& test, double gbps) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.variant = test;
  r.host = dst;
  r.rank = dr;
  r.bytes = static_cast<int64_t>(gbps * 1e9 / 8);
  r.count = 1;
  r.extra = {{"src_host", src}, {"dst_host", dst}, {"src_rank", sr}, {"dst_rank", dr}, {"link", kLink},
             {"dst_link", kLink}, {"streams", 1}, {"seconds", 1.0}, {"bytes_sent", r.bytes}, {"sender_seconds", 0.9},
             {"tcp_info", json::array({{{"retransmits", 3}}})},
             {"stability", {{"dips", json::array({json::object()})}}}};
  r.figure = rate_figure("tcp.goodput", gbps, "Gb/s", pair_subject(src, sr, dst, dr), PathModel::tcp_flow);
  r.figure->parameters = {{"test", test}, {"streams", "1"}};
  return r;
}

// A report with a record of every table kind.
Report every_kind() {
  Report rep;
  rep.provenance.hosts = {"a", "b", "c"};
  rep.provenance.ranks_per_node = {1, 1, 1};
  for (const char* v : {"out-of-place", "in-place"})
    for (int64_t bytes : {1024, 1 << 20}) {
      Record r;
      r.suite = "mpi";
      r.name = "allreduce";
      r.variant = v;
      r.bytes = bytes;
      r.count = bytes / 4;
      r.dtype = "float";
      r.op = "sum";
      r.ranks = 3;
      r.host = "a";
      r.check = "ok";
      r.time_us = {10, 11, 12, 20, 30, 3, 0.25, 50};
      r.algbw_GBps = r.busbw_GBps = static_cast<double>(bytes) / 1e4;
      r.figure = collective_figure("mpi", "host", r, cluster_subject(3), {});
      rep.results.push_back(r);
    }
  const std::vector<std::string> h = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j) rep.results.push_back(flow(h[i], i, h[j], j, "matrix", j == 2 || i == 2 ? 0.3 : 0.9));
  rep.results.push_back(flow("a", 0, "c", 2, "retest", 0.31));
  for (int j = 1; j < 3; ++j) rep.results.push_back(flow("a", 0, h[j], j, "one-to-many", 0.45));
  Record agg;
  agg.suite = "tcp";
  agg.name = "aggregate";
  agg.variant = "one-to-many";
  agg.host = "a";
  agg.extra = {{"flows", 2}, {"link", kLink}};
  agg.figure = rate_figure("tcp.goodput", 0.9, "Gb/s", group_subject("one-to-many", "a", 3), PathModel::tcp_link);
  rep.results.push_back(agg);
  Record lat;
  lat.suite = "tcp";
  lat.name = "latency";
  lat.variant = "ping-pong";
  lat.bytes = 14;
  lat.host = "a";
  lat.time_us = {7, 8, 9, 20, 40, 2, 0.3, 1000};
  lat.extra = {{"latency_us", {{"p50", 8.0}, {"p90", 9.0}, {"p99", 20.0}, {"p99_9", 30.0}, {"max", 40.0}, {"jitter", 1.5},
                               {"samples", 1000}}}};
  lat.figure = time_figure("tcp.latency", 8.0, pair_subject("a", 0, "b", 1));
  rep.results.push_back(lat);
  Record rl = lat;
  rl.suite = "rdma";
  rl.name = "write_lat";
  rl.extra = {{"memory", "host"}, {"samples_us", {1.0, 2.0, 3.0}}};
  rl.figure = time_figure("rdma.write.latency", 2.0, pair_subject("a", 0, "b", 1));
  rep.results.push_back(rl);
  Record rb;
  rb.suite = "rdma";
  rb.name = "write_bw";
  rb.bytes = 65536;
  rb.host = "a";
  rb.time_us.samples = 10;
  rb.extra = {{"memory", "host"}, {"bw_Gbps", 90.0}, {"bw_peak_Gbps", 95.0}, {"src_host", "a"}, {"dst_host", "b"},
              {"rdma", {{"link_layer", "InfiniBand"}, {"rate_Gbps", 100}}}};
  rb.figure = rate_figure("rdma.write.bw", 90, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::rdma_port);
  rep.results.push_back(rb);
  Record pc;
  pc.suite = "pcie";
  pc.name = "h2d";
  pc.variant = "gpu0 pinned local";
  pc.bytes = 1 << 28;
  pc.host = "a";
  pc.algbw_GBps = 24;
  pc.time_us.cv = 0.02;
  pc.extra = {{"gpu_index", 0}, {"host_memory", "pinned"}, {"numa_placement", "local"},
              {"pcie", {{"gen", 4}, {"width", 16}, {"gpu_index", 0}, {"host_numa", 0}}}};
  pc.figure = rate_figure("pcie.h2d", 24, "GB/s", gpu_subject("a", 0), PathModel::pcie_link);
  rep.results.push_back(pc);
  for (int t : {1, 2}) {
    Record m;
    m.suite = "node";
    m.name = "membw_triad";
    m.variant = "numa0 " + std::to_string(t) + " threads";
    m.bytes = 1 << 27;
    m.host = "a";
    m.algbw_GBps = 10.0 * t;
    m.time_us.cv = 0.5;
    m.extra = {{"numa_node", 0}, {"kernel", "triad"}, {"threads", t}};
    rep.results.push_back(m);
  }
  Record topo;
  topo.suite = "topo";
  topo.name = "node";
  topo.host = "a";
  rep.results.push_back(topo);
  Record skip;
  skip.suite = "nccl";
  skip.name = "collectives";
  skip.status = Status::skipped;
  skip.reason = "no usable GPU";
  rep.results.push_back(skip);
  Record train;
  train.suite = "train";
  train.name = "step";
  train.figure = time_figure("train.step", 120.0, cluster_subject(3));
  rep.results.push_back(train);
  rep.findings = json::array({{{"severity", "warn"}, {"message", "GPU 0 is on the far socket"}}});
  analyze(rep);
  return rep;
}

}  // namespace

TEST(Tables, EveryRecordHasOneKindAndEveryKindItsColumns) {
  const Report rep = every_kind();
  std::map<TableKind, int> kinds;
  for (const auto& r : rep.results) ++kinds[record_table_kind(r)];
  EXPECT_EQ(kinds[TableKind::collective], 4);
  EXPECT_EQ(kinds[TableKind::flows], 7);
  EXPECT_EQ(kinds[TableKind::group_flows], 3);
  EXPECT_EQ(kinds[TableKind::latency], 2);
  EXPECT_EQ(kinds[TableKind::rdma_bandwidth], 1);
  EXPECT_EQ(kinds[TableKind::pcie], 1);
  EXPECT_EQ(kinds[TableKind::host_memory], 2);
  EXPECT_EQ(kinds[TableKind::checks], 2);
  EXPECT_EQ(kinds[TableKind::other_figures], 1);

  const std::string md = render_markdown(rep);
  const auto seen = check_columns(md);
  for (const char* k : {"Summary", "TCP pair matrix", "RDMA pair matrix", "TCP flows", "TCP one-to-many", "TCP latency",
                        "RDMA latency", "RDMA WRITE bandwidth", "PCIe host-device copies", "Host memory bandwidth",
                        "Checks and skips", "Other figures"})
    EXPECT_TRUE(seen.count(k)) << k << " missing from\n" << md;
  EXPECT_EQ(md.find("carries no bandwidth figure"), std::string::npos);
  // The summary comes first, before the run's provenance, with the topology finding under it.
  EXPECT_LT(md.find("## Summary"), md.find("## Run"));
  EXPECT_NE(md.find("- warn: GPU 0 is on the far socket"), std::string::npos);
}

TEST(Tables, CollectiveSweepsSideBySideWithTheNcclTestsFooter) {
  const std::string md = render_markdown(every_kind());
  const auto tables = parse_tables(md);
  const MdTableSeen* paired = nullptr;
  for (const auto& t : tables)
    if (t.heading.rfind("mpi allreduce", 0) == 0) paired = &t;
  ASSERT_NE(paired, nullptr) << md;
  EXPECT_EQ(paired->heading, "mpi allreduce, float sum, 3 ranks, a");  // one table for both variants
  EXPECT_EQ(paired->header[4], "out-of-place time (us)");
  EXPECT_EQ(paired->header[10], "in-place time (us)");
  ASSERT_EQ(paired->rows.size(), 2u);
  EXPECT_EQ(paired->rows[0][8], "25.0");  // CV 0.25 is shown as 25.0 %
  EXPECT_NE(md.find("# Out of bounds values : 0 OK"), std::string::npos);
  EXPECT_NE(md.find("# Avg bus bandwidth    : 52.48 "), std::string::npos);  // mean of 0.1024, 104.8576 twice
}

TEST(Tables, MatrixFromMatrixFlowsOnlyRowsSendColumnsReceive) {
  const auto tables = parse_tables(render_markdown(every_kind()));
  const MdTableSeen* m = nullptr;
  for (const auto& t : tables)
    if (t.heading.rfind("TCP pair matrix", 0) == 0) m = &t;
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->rows.size(), 3u);
  EXPECT_EQ(m->header[3], "c (Gb/s, %)");
  EXPECT_EQ(m->rows[0][0], "a");
  EXPECT_EQ(m->rows[0][1], "");             // no flow from a host to itself
  EXPECT_EQ(m->rows[0][2].rfind("0.9 (", 0), 0u) << m->rows[0][2];
  EXPECT_EQ(m->rows[0][3].rfind("0.3 (", 0), 0u) << m->rows[0][3];  // the matrix flow, not the re-test's 0.31
}

// iperf3 ends a test with its sender and receiver lines (Transfer, Bitrate, Retr): the flows table
// carries both, the sender's bitrate over its own clock, the receiver's over the goodput's.
TEST(Tables, FlowsCarryIperf3sFinalSenderAndReceiverLines) {
  const auto tables = parse_tables(render_markdown(every_kind()));
  const MdTableSeen* f = nullptr;
  for (const auto& t : tables)
    if (t.heading == "TCP flows") f = &t;
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->rows.empty());
  std::map<std::string, std::string> row;  // a -> b, matrix, 0.9 Gb/s: 0.1125 GB received in 1 s, sent in 0.9 s
  for (size_t i = 0; i < f->header.size(); ++i) row[f->header[i]] = f->rows[0][i];
  EXPECT_EQ(row["sender"] + " -> " + row["receiver"], "a -> b");
  EXPECT_EQ(row["sender transfer (GB)"], "0.1125");
  EXPECT_EQ(row["sender bitrate (Gb/s)"], "1");
  EXPECT_EQ(row["sender Retr"], "3");
  EXPECT_EQ(row["receiver transfer (GB)"], "0.1125");
  EXPECT_EQ(row["receiver bitrate (Gb/s)"], "0.9");
  EXPECT_EQ(row["receiver bitrate (Gb/s)"], row["goodput (Gb/s)"]);
}

TEST(Tables, ConsoleAndCsvRenderTheSameModel) {
  const Report rep = every_kind();
  const std::string console = console_summary(rep);
  EXPECT_EQ(console.rfind("# Summary", 0), 0u) << console;
  EXPECT_NE(console.find("efficiency (%)"), std::string::npos);
  const auto csvs = render_table_csvs(document_parts(rep));
  std::set<std::string> names;
  for (const auto& [name, text] : csvs) names.insert(name);
  std::set<std::string> listed;
  for (const char* f : kOutputFiles)
    if (std::string(f).find(".csv") != std::string::npos && std::string(f) != "sweeps.csv") listed.insert(f);
  EXPECT_EQ(names, listed);  // every CSV written is listed among the outputs, and only those
  for (const auto& [name, text] : csvs)
    if (name == "tcp_flows.csv") {
      EXPECT_EQ(text.substr(0, text.find('\n')),
                "sender,receiver,test,streams,goodput_Gb_s,ceiling_Gb_s,efficiency_pct,dips,sender_transfer_GB,"
                "sender_bitrate_Gb_s,sender_Retr,receiver_transfer_GB,receiver_bitrate_Gb_s,CPU_sender_receiver,status");
      EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 7);
    }
  // sweeps.csv keeps its columns and holds the collective sweeps alone.
  const std::string sweeps = render_csv(rep);
  EXPECT_EQ(sweeps.rfind("suite,name,variant,host,rank,ranks,bytes,count,dtype,op,status,time_us_mean", 0), 0u);
  EXPECT_EQ(std::count(sweeps.begin(), sweeps.end(), '\n'), 1 + 4);
}

TEST(Tables, DefaultOneMachineRunHasNoColumnThatDoesNotApply) {
  const auto path = std::filesystem::path(GPUNET_SOURCE_DIR) / "tests/data/report/default_np2.json";
  auto loaded = load_results(path.string());
  ASSERT_TRUE(loaded.report) << loaded.error;
  Report rep = *loaded.report;
  analyze(rep);
  const std::string md = render_markdown(rep);
  const auto seen = check_columns(md);
  for (const char* k : {"Summary", "TCP pair matrix", "TCP flows", "TCP latency", "Host memory bandwidth", "Checks and skips"})
    EXPECT_TRUE(seen.count(k)) << k;
  EXPECT_EQ(seen.count("Other figures"), 0u);  // every record of the default suites has a table of its kind
  EXPECT_EQ(md.find("carries no bandwidth figure"), std::string::npos);
  const std::string html = render_html(rep);
  EXPECT_EQ(html.find("carries no bandwidth figure"), std::string::npos);
  EXPECT_EQ(html.find("Other figures"), std::string::npos);
}

TEST(Tables, AnEfficiencyAboveItsCeilingIsNeverGreenAndANamedSlowPathIsLow) {
  Cell c = percent_cell(1.3);
  c.efficiency = 1.3;
  EXPECT_STREQ(efficiency_tone(c, 0.8), "above");
  c.flagged = true;
  EXPECT_STREQ(efficiency_tone(c, 0.8), "low");
  c.efficiency = 0.95;
  EXPECT_STREQ(efficiency_tone(c, 0.8), "low") << "named slow: low whatever its efficiency";
  c.flagged = false;
  EXPECT_STREQ(efficiency_tone(c, 0.8), "ok");
  c.efficiency = 0.5;
  EXPECT_STREQ(efficiency_tone(c, 0.8), "low");
  c.efficiency = 1.0002;  // at the ceiling within a measurement's noise (a tbf burst): not a defect
  EXPECT_STREQ(efficiency_tone(c, 0.8), "ok");
}

// A CSV of rows made on demand is written a block at a time on two threads: every row, once, in
// order, across many blocks (a wide table has smaller blocks), with the shown rows left alone.
TEST(Tables, RowsMadeOnDemandAreWrittenInOrderAcrossBlocks) {
  for (const size_t width : {3u, 1025u}) {
    Table t;
    t.csv = "many.csv";
    for (size_t c = 0; c < width; ++c) t.columns.push_back({"c" + std::to_string(c), "", true});
    t.rows.push_back({{text_cell("shown")}, Status::passed});
    const size_t rows = width == 3 ? 200000 : 1100;
    t.every_row = {rows, [width](size_t i) {
                     TableRow row;
                     for (size_t c = 0; c < width; ++c) row.cells.push_back(int_cell(static_cast<long long>(i * 10 + c % 10)));
                     return row;
                   }};
    std::ostringstream out;
    write_csv({t.csv, {&t}}, out);
    std::istringstream lines(out.str());
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line.rfind("c0,c1,c2", 0), 0u) << width;
    size_t n = 0;
    while (std::getline(lines, line)) {
      ASSERT_EQ(line.substr(0, line.find(',')), std::to_string(n * 10)) << "row " << n << " of " << width << " columns";
      ASSERT_EQ(static_cast<size_t>(std::count(line.begin(), line.end(), ',')), width - 1);
      ++n;
    }
    EXPECT_EQ(n, rows) << width;
  }
}
