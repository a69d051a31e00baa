#include <gtest/gtest.h>

#include <climits>
#include <random>
#include <vector>

#include "report/model/flow_facts.hpp"
#include "report/model/json_access.hpp"
#include "report/model/record.hpp"

using namespace gpunet::report;
using gpunet::json;

namespace {

// A tcp flow record as a results.jsonl holds it (its extra as the tcp suite writes it).
Record flow_record(const char* extra) {
  Record r;
  r.suite = "tcp";
  r.name = "bandwidth";
  r.kind = RecordKind::tcp_flow;
  r.extra = json::parse(extra);
  r.figure = rate_figure("tcp.goodput", 9.5, "Gb/s", pair_subject("a", 0, "b", 1), PathModel::tcp_flow);
  return r;
}

constexpr const char* kFlowExtra =
    R"({"src_host": "a", "dst_host": "b", "src_rank": 0, "dst_rank": -3, "streams": 2, "direction": "bidirectional",
        "goodput_Gbps": 9.5, "seconds": -0.0, "bytes_sent": 18446744073709551615, "sndbuf_bytes": "auto",
        "rcvbuf_bytes": 262144, "started_s": 1.25e-7, "mode": "stability", "path": "network",
        "src_addr": "10.0.0.1", "dst_addr": "10.0.0.2:40000", "stream_bytes": [10, 12.5],
        "stability": {"below_s": 0.0, "dips": [], "intervals": 5, "min_Gbps": 9, "p50_Gbps": 9.5, "threshold_Gbps": 7.6},
        "tcp_info": [{"retransmits": 3, "rtt_us": 41, "timestamps": true}, {"retransmits": 0, "timestamps": false}],
        "cpu_note": {"a": 1}})";

}  // namespace

// Every number keeps its JSON type and bits, each set text its text: held, the flow writes back the very
// same JSON, and each key reads back through extra_at as extra held it.
TEST(FlowFacts, NumbersAndSetTextsAreHeldAndWriteBackTheSame) {
  const Record plain = flow_record(kFlowExtra);
  Record held = plain;
  hold_flow_facts_apart(held);
  EXPECT_FALSE(held.flow.empty());
  EXPECT_TRUE(extra_held_apart(held));
  EXPECT_EQ(held.extra, json::parse(R"({"cpu_note": {"a": 1}})"));
  EXPECT_EQ(json(held).dump(), json(plain).dump());
  EXPECT_EQ(written_extra(held), plain.extra);
  for (const auto& [key, value] : plain.extra.items()) {
    json scratch;
    const json* v = extra_at(held, key, scratch);
    ASSERT_NE(v, nullptr) << key;
    EXPECT_EQ(v->type(), value.type()) << key;
    EXPECT_EQ(v->dump(), value.dump()) << key;
    EXPECT_EQ(extra_number(held, key), jsonx::number(plain.extra, key.c_str())) << key;
    EXPECT_EQ(extra_integer(held, key), jsonx::integer(plain.extra, key.c_str())) << key;
    EXPECT_EQ(extra_string(held, key), jsonx::string(plain.extra, key.c_str())) << key;
  }
  json scratch;
  EXPECT_EQ(extra_at(held, "concurrent_flows", scratch), nullptr);
  EXPECT_EQ(extra_integer(held, "dst_rank"), -3);
  EXPECT_EQ(extra_number(held, "goodput_Gbps"), 9.5);
  EXPECT_EQ(extra_string(held, "direction"), "bidirectional");
  EXPECT_EQ(extra_string(held, "streams"), std::nullopt) << "a number is no text";
  EXPECT_EQ(extra_number(held, "mode"), std::nullopt) << "a text is no number";
  EXPECT_EQ(tcp_info_sum(held, "retransmits"), 3);
  EXPECT_EQ(tcp_info_sum(plain, "retransmits"), 3);
  EXPECT_EQ(tcp_info_sum(held, "rtt_us"), 41);
  EXPECT_EQ(tcp_info_sum(held, "timestamps"), 0) << "a bool is no integer";
  EXPECT_EQ(stability_dips(held), 0u);
  Record dipped = flow_record(R"({"stability": {"dips": [{"start_s": 1}, {"start_s": 3}], "intervals": 5}})");
  hold_flow_facts_apart(dipped);
  EXPECT_EQ(stability_dips(dipped), 2u) << "a summary with dips stays in extra";
}

// What it cannot write back the same stays in extra, whole: another text, null, an array, an object; a stability summary with dips or a key of its own; a stream's
// tcp_info with another key or a text; stream bytes that are not all numbers; an address that is no text.
TEST(FlowFacts, OtherValuesStayInExtra) {
  const char* kept = R"({"direction": "sideways", "seconds": null, "started_s": [1], "mode": {"a": 1},
      "stability": {"dips": [{"start_s": 0.1}], "p50_Gbps": 9.5}, "path": 5,
      "tcp_info": [{"retransmits": 3}, {"retransmits": 0, "note": 1}], "stream_bytes": [1, "2"]})";
  Record r = flow_record(kept);
  r.extra["goodput_Gbps"] = 1.5;
  hold_flow_facts_apart(r);
  EXPECT_EQ(r.extra, json::parse(kept));
  EXPECT_EQ(extra_string(r, "direction"), "sideways");
  EXPECT_EQ(extra_number(r, "goodput_Gbps"), 1.5);
  for (const char* other : {R"({"stability": {"dips": [], "p50_Gbps": 9.5, "median": 9}})", R"({"stability": {"p50_Gbps": 9.5}})",
                            R"({"tcp_info": [{"rtt_us": "41"}]})", R"({"stability": {"dips": [], "p50_Gbps": "9"}})"}) {
    Record o = flow_record(other);
    hold_flow_facts_apart(o);
    EXPECT_EQ(o.extra, json::parse(other)) << other;
    EXPECT_TRUE(o.flow.empty()) << other;
  }
  Record none = flow_record(R"({"tcp_info": [], "stream_bytes": [], "streams": true})");
  const std::string written = json(none).dump();
  hold_flow_facts_apart(none);
  EXPECT_EQ(none.extra, json::object()) << "empty lists and a bool are held too";
  EXPECT_EQ(json(none).dump(), written);
  EXPECT_EQ(extra_integer(none, "streams"), std::nullopt) << "a bool is no number, held or not";
}

// Only a TCP flow with a figure: a version 1 file's records have their figure made from extra, which must
// find everything where it was.
TEST(FlowFacts, OnlyAFlowWithAFigureIsHeld) {
  Record no_figure = flow_record(kFlowExtra);
  no_figure.figure.reset();
  hold_flow_facts_apart(no_figure);
  EXPECT_TRUE(no_figure.flow.empty());
  EXPECT_EQ(no_figure.extra, json::parse(kFlowExtra));

  Record group = flow_record(kFlowExtra);
  group.kind = RecordKind::tcp_group;
  hold_flow_facts_apart(group);
  EXPECT_TRUE(group.flow.empty());

  Record scalar_extra = flow_record("5");
  hold_flow_facts_apart(scalar_extra);
  EXPECT_TRUE(scalar_extra.flow.empty());
  EXPECT_EQ(scalar_extra.extra, json(5));
}

// Random extras over every key it may hold, each value of a random JSON type (numbers of each type and
// their edges, set texts and others, bools, null, lists, objects, stability and tcp_info shapes near the
// held ones): held, each writes back the very same JSON, and every key reads back through extra_at as
// extra held it.
TEST(FlowFacts, AnyExtraWritesBackTheSameAndReadsTheSame) {
  std::mt19937 rng(29);
  const auto pick = [&rng](size_t n) { return static_cast<size_t>(rng() % n); };
  const std::vector<json> scalars = {json(0),        json(-7),     json(uint64_t{18446744073709551615ULL}), json(INT64_MIN),
                                     json(2.5),      json(-0.0),   json(1e308),   json(true),  json(false),
                                     json(nullptr),  json("auto"), json("bidirectional"), json("sideways"), json(""),
                                     json::array(),  json::object()};
  const auto scalar = [&] { return scalars[pick(scalars.size())]; };
  const auto object_over = [&](auto keys, bool dips) {
    json o = json::object();
    for (const auto key : keys)
      if (pick(3) != 0) o[std::string(key)] = pick(5) == 0 ? scalar() : json(pick(2) ? json(1.5) : json(int64_t(pick(100))));
    if (dips) o["dips"] = pick(4) == 0 ? json::parse(R"([{"start_s": 1}])") : json::array();
    if (pick(8) == 0) o["other"] = 1;
    return o;
  };
  std::vector<std::string> keys(kFlowFactKeys.begin(), kFlowFactKeys.end());
  keys.insert(keys.end(), kFlowTextKeys.begin(), kFlowTextKeys.end());
  for (int round = 0; round < 2000; ++round) {
    json extra = json::object();
    for (const auto& key : keys)
      if (pick(2) != 0) extra[key] = pick(3) == 0 ? json("10.0.0." + std::to_string(pick(255))) : scalar();
    if (pick(2) != 0) extra["stability"] = pick(5) == 0 ? scalar() : object_over(kStabilityKeys, pick(5) != 0);
    if (pick(2) != 0) {
      json info = json::array();
      for (size_t i = pick(3); i > 0; --i) info.push_back(pick(6) == 0 ? scalar() : object_over(kTcpInfoKeys, false));
      extra["tcp_info"] = info;
    }
    if (pick(2) != 0) extra["stream_bytes"] = pick(4) == 0 ? json::array({1, "2"}) : json::array({uint64_t{3}, -4, 5.5});
    Record r = flow_record("{}");
    r.extra = extra;
    const Record plain = r;
    const std::string written = json(r).dump();
    hold_flow_facts_apart(r);
    ASSERT_EQ(json(r).dump(), written) << extra.dump();
    for (const char* key : {"retransmits", "rtt_us", "timestamps"})
      ASSERT_EQ(tcp_info_sum(r, key), tcp_info_sum(plain, key)) << key << " in " << extra.dump();
    ASSERT_EQ(stability_dips(r), stability_dips(plain)) << extra.dump();
    for (const auto& [key, value] : extra.items()) {
      json scratch;
      const json* v = extra_at(r, key, scratch);
      ASSERT_NE(v, nullptr) << key << " in " << extra.dump();
      ASSERT_EQ(v->dump(), value.dump()) << key;
      ASSERT_EQ(v->type(), value.type()) << key;
    }
  }
}
