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

// A flow's extra.timeline_Gbps that is its figure.samples to the bit is kept there only, and written
// back the same; anything else stays in extra.
TEST(Record, ATimelineThatIsTheSamplesIsHeldOnceAndWritesBackTheSame) {
  const auto flow = [](const char* timeline, std::vector<double> samples) {
    Record r;
    r.suite = "tcp";
    r.name = "bandwidth";
    r.extra = {{"src_host", "a"}, {"timeline_Gbps", gpunet::json::parse(timeline)}};
    r.figure = rate_figure("tcp.goodput", 9.5, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::tcp_flow);
    r.figure->samples = std::move(samples);
    return r;
  };
  Record held = flow("[9.25, 22.337, 0.0]", {9.25, 22.337, 0.0});
  const std::string written = gpunet::json(held).dump();
  hold_timeline_apart(held);
  EXPECT_TRUE(held.timeline_in_samples);
  EXPECT_FALSE(held.extra.contains("timeline_Gbps"));
  EXPECT_TRUE(extra_held_apart(held));
  EXPECT_EQ(gpunet::json(held).dump(), written);

  for (auto kept : {flow("[9, 22.337, 0.0]", {9.0, 22.337, 0.0}),     // an integer writes back otherwise
                    flow("[9.25, 22.337, -0.0]", {9.25, 22.337, 0.0}),  // -0.0 is not 0.0 on paper
                    flow("[9.25, 22.337]", {9.25, 22.337, 0.0}), flow("[9.25, 22.3]", {9.25, 22.337}),
                    flow("{\"a\": 1}", {})}) {
    const std::string text = kept.extra.at("timeline_Gbps").dump();
    hold_timeline_apart(kept);
    EXPECT_FALSE(kept.timeline_in_samples) << text;
    EXPECT_EQ(kept.extra.at("timeline_Gbps").dump(), text);
  }
  Record no_figure = flow("[1.5]", {});
  no_figure.figure.reset();
  hold_timeline_apart(no_figure);
  EXPECT_TRUE(no_figure.extra.contains("timeline_Gbps")) << "a version 1 record's figure is made from it";
}
