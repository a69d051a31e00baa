#include <gtest/gtest.h>

#include "report/model/json_fields.hpp"
#include "report/model/record.hpp"

using namespace gpunet::report;

TEST(Record, JsonRoundTrip) {
  Record r;
  r.suite = "mpi";
  r.name = "allreduce";
  r.variant = "out-of-place";
  r.bytes = 1 << 20;
  r.count = (1 << 20) / 4;
  r.dtype = "float";
  r.op = "sum";
  r.ranks = 4;
  r.rank = 0;
  r.host = "node-a";
  r.status = Status::timed_out;
  r.reason = "step exceeded --timeout";
  r.time_us = TimeStats{1, 2, 3, 4, 5, 0.5, 0.1, 42};
  r.algbw_GBps = 1.25;
  r.busbw_GBps = 1.875;
  r.check = "ok";
  r.wrong = 0;
  r.extra = {{"goodput_Gbps", 0.95}};
  const gpunet::json j = r;
  const auto back = j.get<Record>();
  EXPECT_EQ(gpunet::json(back), j);
  EXPECT_EQ(back.status, Status::timed_out);
  EXPECT_EQ(back.time_us.samples, 42);
  EXPECT_DOUBLE_EQ(back.extra.at("goodput_Gbps").get<double>(), 0.95);
  EXPECT_EQ(j.at("status"), "timed_out");
}

TEST(Record, RejectsUnknownStatus) {
  gpunet::json j = {{"suite", "mpi"}, {"name", "x"}, {"status", "great"}};
  EXPECT_THROW(j.get<Record>(), FieldError);
}

TEST(Report, RoundTrip) {
  Report rep;
  rep.provenance.argv = {"gpunet-bench", "-b", "8"};
  rep.provenance.hosts = {"a", "a", "b"};
  rep.provenance.ranks_per_node = {2, 1};
  rep.results.push_back(Record{});
  rep.results[0].suite = "mpi";
  rep.results[0].name = "allreduce";
  const gpunet::json j = rep;
  EXPECT_EQ(j.at("schema_version"), kSchemaVersion);
  EXPECT_EQ(gpunet::json(j.get<Report>()), j);
}
