// A flow's extra.cpu held typed (report/model/flow_cpu_facts.hpp): only what writes back the very same
// JSON is held, and the flows table and the host-limit rule read it as they read extra.
#include <gtest/gtest.h>

#include "report/analysis/tcp_flow_cpu.hpp"
#include "report/model/flow_cpu_facts.hpp"
#include "report/model/record.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

// As the tcp suite writes it (bench/suites/tcp/json.cpp): core_busy_pct a number or null.
const char* const kWritten[] = {
    R"({"sender": {"user_pct": 0.0, "sys_pct": 99.18928373513519, "cpu": 0, "pinned": true, "core_busy_pct": 98.0392156862745},
        "receiver": {"user_pct": 6.27, "sys_pct": 31.5, "cpu": 1, "pinned": true, "core_busy_pct": null}})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": 3, "pinned": false}, "receiver": null})",  // generated: no core_busy_pct
    R"({"sender": null, "receiver": null})",
};

// Shapes that would not write back the same, or are not the suite's: they stay in extra.
const char* const kOther[] = {
    R"({"sender": {"user_pct": 2, "sys_pct": 40.0, "cpu": 3, "pinned": false}, "receiver": null})",  // an integer percentage
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": 3, "pinned": false, "note": "x"}, "receiver": null})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": "3", "pinned": false}, "receiver": null})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "pinned": false}, "receiver": null})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": 3, "pinned": 1}, "receiver": null})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": 3, "pinned": false, "core_busy_pct": 7}, "receiver": null})",
    R"({"sender": {"user_pct": 2.0, "sys_pct": 40.0, "cpu": 18446744073709551615, "pinned": false}, "receiver": null})",
    R"({"sender": 5, "receiver": null})",
    R"({"sender": null})",
    R"({"sender": null, "receiver": null, "third": null})",
    R"([1, 2])",
};

Record flow_with(const json& cpu) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.extra = {{"src_host", "a"}, {"dst_host", "b"}, {"cpu", cpu}};
  return r;
}

void expect_same(const std::optional<FlowEndCpu>& a, const std::optional<FlowEndCpu>& b) {
  ASSERT_EQ(a.has_value(), b.has_value());
  if (!a) return;
  EXPECT_EQ(a->user_pct, b->user_pct);
  EXPECT_EQ(a->sys_pct, b->sys_pct);
  EXPECT_EQ(a->cpu, b->cpu);
  EXPECT_EQ(a->pinned, b->pinned);
  EXPECT_EQ(a->core_busy_pct, b->core_busy_pct);
}

}  // namespace

TEST(FlowCpuFacts, WhatTheSuiteWritesIsHeldAndWritesBackTheSame) {
  for (const char* text : kWritten) {
    const json cpu = json::parse(text);
    const auto facts = flow_cpu_facts(cpu);
    ASSERT_TRUE(facts) << text;
    EXPECT_EQ(to_json(*facts).dump(), cpu.dump()) << text;

    const Record in_extra = flow_with(cpu);
    Record held = in_extra;
    hold_cpu_apart(held);
    ASSERT_TRUE(held.cpu) << text;
    EXPECT_FALSE(held.extra.contains("cpu"));
    EXPECT_TRUE(extra_held_apart(held));
    EXPECT_EQ(written_extra(held).dump(), in_extra.extra.dump());
    for (const char* end : {"sender", "receiver", "neither"}) expect_same(flow_end_cpu(held, end), flow_end_cpu(in_extra, end));
    EXPECT_EQ(flow_cpu_text(held), flow_cpu_text(in_extra));
    EXPECT_EQ(host_cpu_limit(held), host_cpu_limit(in_extra));
  }
}

TEST(FlowCpuFacts, AnyOtherShapeStaysInExtra) {
  for (const char* text : kOther) {
    const json cpu = json::parse(text);
    EXPECT_FALSE(flow_cpu_facts(cpu)) << text;
    Record r = flow_with(cpu);
    hold_cpu_apart(r);
    EXPECT_FALSE(r.cpu) << text;
    EXPECT_EQ(r.extra.at("cpu").dump(), cpu.dump());
    EXPECT_FALSE(extra_held_apart(r));
  }
}
