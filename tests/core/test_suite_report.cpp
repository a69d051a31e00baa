// What the suites tell the report: each record's kind (stated by its suite, derived the same way for
// files written before), the tests a spec may name, and nccl-tests' footer, one function for the
// console and the report.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bench/core/console_lines.hpp"
#include "bench/core/suite.hpp"
#include "bench/suites/suite_list.hpp"
#include "report/judge/figure_select.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::bench {
namespace {

using report::Record;
using report::RecordKind;

Record named(const std::string& suite, const std::string& name, int64_t bytes = 0) {
  Record r;
  r.suite = suite;
  r.name = name;
  r.bytes = bytes;
  return r;
}

TEST(SuiteReport, EverySuiteStatesItsRecordsKindAsOldFilesAreRead) {
  const std::vector<Record> samples{
      named("mpi", "allreduce", 1024), named("mpi", "scaling"),      named("nccl", "alltoall", 8), named("nccl", "transport"),
      named("tcp", "bandwidth"),       named("tcp", "aggregate"),    named("tcp", "matrix"),       named("tcp", "latency"),
      named("tcp", "setup"),           named("rdma", "write_bw"),    named("rdma", "write_bw_bidir"), named("rdma", "write_lat"),
      named("rdma", "devices"),        named("pcie", "h2d"),         named("pcie", "bidir"),       named("node", "pcie_d2h"),
      named("node", "membw_copy"),     named("node", "gbench"),      named("topo", "node"),        named("topo", "compare"),
      named("train", "step"),          named("train", "compute")};
  for (const auto& r : samples) {
    const Suite* suite = find_suite(suite_list(), r.suite);
    ASSERT_NE(suite, nullptr) << r.suite;
    const Record stated = with_stated_kind(r, suite);
    EXPECT_NE(stated.kind, RecordKind::unstated) << r.suite << "/" << r.name;
    EXPECT_EQ(stated.kind, report::record_kind(r)) << r.suite << "/" << r.name << ": stated "
                                                   << report::to_string(stated.kind) << ", derived "
                                                   << report::to_string(report::record_kind(r));
  }
  // A stated kind wins over the names, and travels through the JSON.
  Record odd = named("tcp", "bandwidth");
  odd.kind = RecordKind::other;
  EXPECT_EQ(report::record_kind(odd), RecordKind::other);
  const Record back = gpunet::json(with_stated_kind(named("tcp", "latency"), find_suite(suite_list(), "tcp"))).get<Record>();
  EXPECT_EQ(back.kind, RecordKind::tcp_latency);
  EXPECT_FALSE(gpunet::json(named("tcp", "latency")).contains("kind"));  // unstated: not written
  EXPECT_THROW((void)gpunet::json::parse(R"({"suite":"tcp","name":"x","status":"passed","kind":"tcp_flows"})").get<Record>(),
               std::exception);
}

TEST(SuiteReport, WhatASpecMayNameComesFromEverySuite) {
  const auto names = spec_names(suite_list());
  for (const auto& s : suite_list()) {
    const bool listed = std::any_of(names.begin(), names.end(), [&](const report::KnownTest& t) { return t.suite == s.name; });
    EXPECT_TRUE(listed) << s.name << " describes no test a spec may name";
  }
  EXPECT_FALSE(report::unknown_name(names, "train", "step", ""));
  EXPECT_FALSE(report::unknown_name(names, "tcp", "matrix", ""));
  EXPECT_FALSE(report::unknown_name(names, "node", "membw_copy", ""));
  const auto typo = report::unknown_name(names, "train", "stpe", "");
  ASSERT_TRUE(typo);
  EXPECT_EQ(typo->message, "'stpe' is not a test of suite train (valid: compute, allreduce, step)");
  // A kind named as the test stands for the test it is a kind of; a promise naming no kind of tcp
  // bandwidth leaves out the re-tests and the shared ends; tcp's bandwidth promise reads goodput.
  EXPECT_EQ(report::test_rule(names, "tcp", "matrix").stands_for, "bandwidth");
  EXPECT_EQ(report::test_rule(names, "tcp", "bandwidth").left_out,
            (std::vector<std::string>{"one-to-many", "many-to-one", "retest"}));
  EXPECT_EQ(report::test_rule(names, "tcp", "latency").rate_figure, "extra.goodput_Gbps");
  EXPECT_EQ(report::test_rule(names, "nccl", "allreduce").rate_figure, "");
}

Record sweep_point(const std::string& variant, int64_t bytes, double busbw, int64_t wrong, report::Status status) {
  Record r = named("nccl", "allreduce", bytes);
  r.variant = variant;
  r.count = bytes / 4;
  r.dtype = "float";
  r.op = "sum";
  r.ranks = 2;
  r.host = "a";
  r.status = status;
  r.busbw_GBps = busbw;
  r.algbw_GBps = busbw;
  r.check = wrong > 0 ? "wrong" : "ok";
  r.wrong = wrong;
  if (status != report::Status::skipped) r.time_us = {1, 2, 2, 3, 3, 0.5, 0.25, 10};
  return r;
}

// nccl-tests' rule: the mean bus bandwidth of every measured row, both variants, failed checks
// included, skips left out; the wrong elements summed. The console and the report print the same.
TEST(SuiteReport, ConsoleAndReportPrintOneNcclTestsFooter) {
  report::Report rep;
  rep.results = {sweep_point("out-of-place", 1024, 1.0, 0, report::Status::passed),
                 sweep_point("in-place", 1024, 2.0, 0, report::Status::passed),
                 sweep_point("out-of-place", 4096, 6.0, 3, report::Status::failed),
                 sweep_point("in-place", 4096, 0.0, 0, report::Status::skipped)};
  const std::string console = sweep_footer(rep.results, "nccl");
  EXPECT_EQ(console, "# Out of bounds values : 3 FAILED\n# Avg bus bandwidth    : 3 \n#\n");
  std::vector<std::string> report_footer;
  for (const auto& t : report::collective_tables(rep, report::TableRecords(rep)))
    for (const auto& line : t.footer)
      if (line.rfind("# Out of bounds", 0) == 0 || line.rfind("# Avg bus", 0) == 0) report_footer.push_back(line);
  EXPECT_EQ(report_footer, (std::vector<std::string>{"# Out of bounds values : 3 FAILED", "# Avg bus bandwidth    : 3 "}));
}

}  // namespace
}  // namespace gpunet::bench
