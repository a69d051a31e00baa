// The "Training impact" section: built from a run's records (all-reduce curves, else the TCP pair
// fallback), its stated defaults, and the same numbers in console, report.md, report.html and
// report.json.
#include <cmath>

#include <gtest/gtest.h>

#include "report/model/figure.hpp"
#include "report/render/renderers.hpp"
#include "report/training/training_inputs.hpp"
#include "report/render/training_render.hpp"
#include "report/training/training_section.hpp"
#include "report/training/training_tables.hpp"

using namespace gpunet::report;
using namespace gpunet::report::training;
using gpunet::json;

namespace {

// The section as report.json carries it (read back typed), and as report::analyse attaches it.
SectionText section_text(const json& s) { return training::section_text(s.get<TrainingResult>()); }
void add_training_section(Report& rep, const TrainingParams& p) {
  if (auto a = training_answer(rep, p)) rep.extra["training"] = *a;
}

constexpr double kBeta = 8 / 9.4e9;  // 9.4 Gb/s

// An MPI all-reduce sweep on `nodes` nodes with `per_node` ranks each that follows the ring model
// exactly (alpha = 0), with the analysis's ceiling attached: 9.4 of 9.415 Gb/s.
Report ring_run(int nodes, int per_node) {
  Report rep;
  for (int i = 0; i < nodes * per_node; ++i)  // one host name per rank
    rep.provenance.hosts.push_back(std::string(1, static_cast<char>('a' + i / per_node)));
  rep.provenance.ranks_per_node.assign(static_cast<size_t>(nodes), per_node);
  const int ranks = nodes * per_node;
  for (int64_t bytes = 1 << 20; bytes <= (256 << 20); bytes *= 2) {
    Record r;
    r.suite = "mpi";
    r.name = "allreduce";
    r.variant = "out-of-place";
    r.bytes = bytes;
    r.ranks = ranks;
    r.host = "a";
    r.time_us.mean = ring_allreduce_s({0, kBeta}, ranks, static_cast<double>(bytes)) * 1e6;
    r.extra = {{"nodes", nodes}};
    r.figure = collective_figure("mpi", "host", r, cluster_subject(nodes), {});
    FigureCeiling ceiling;
    ceiling.known = true, ceiling.value = 9.415 / 8, ceiling.unit = "GB/s", ceiling.derivation = "10GbE";
    r.figure->ceiling = std::make_shared<const FigureCeiling>(ceiling);
    r.figure->efficiency = 9.4 / 9.415;
    rep.results.push_back(r);
  }
  return rep;
}

Report four_node_run() { return ring_run(4, 1); }

Record tcp_record(const std::string& name) {
  Record r;
  r.suite = "tcp";
  r.name = name;
  r.ranks = 2;
  r.extra = {{"src_host", "a"}, {"dst_host", "b"}};
  return r;
}

const json* workload(const json& s, const std::string& name) {
  for (const auto& w : s["workloads"])
    if (w["name"] == name) return &w;
  return nullptr;
}

const json* row(const json& w, int nodes) {
  for (const auto& r : w["rows"])
    if (r["nodes"] == nodes) return &r;
  return nullptr;
}

}  // namespace

TEST(TrainingInputs, SelectsTheAllReduceSweepWithItsNodes) {
  const auto in = select_training_inputs(four_node_run());
  ASSERT_EQ(in.curves.size(), 1u);
  EXPECT_EQ(in.curves[0].source, "mpi allreduce");
  EXPECT_EQ(in.curves[0].path, "between nodes");
  EXPECT_EQ(in.curves[0].nodes, 4);
  EXPECT_EQ(in.curves[0].points.size(), 9u);
  ASSERT_TRUE(in.curves[0].efficiency.has_value());
  EXPECT_FALSE(in.pair.has_value());
}

TEST(TrainingInputs, ScalingSweepBecomesOneCurveAcrossNodeCounts) {
  Report rep;
  for (int nodes : {1, 2, 4}) {
    Record r;
    r.suite = "mpi";
    r.name = "allreduce";
    r.variant = "scaling " + std::to_string(nodes) + " node(s)";
    r.bytes = 1 << 20;
    r.ranks = 2 * nodes;
    r.time_us.mean = 1000.0 * nodes;
    r.extra = {{"nodes", nodes}};
    rep.results.push_back(r);
  }
  const auto in = select_training_inputs(rep);
  ASSERT_EQ(in.curves.size(), 1u);
  EXPECT_EQ(in.curves[0].source, "mpi allreduce scaling sweep");
  EXPECT_EQ(in.curves[0].points.size(), 2u);  // the one-node point has no network in it
  EXPECT_EQ(in.curves[0].nodes, 4);
}

TEST(TrainingSection, AnswersTheWorkedExample) {
  TrainingParams p;
  p.step_compute_s = 0.5;
  const json s = training_section(four_node_run(), p);
  ASSERT_TRUE(s["available"].get<bool>());
  EXPECT_EQ(s["model"]["measured_nodes"], 4);
  EXPECT_NEAR(s["model"]["alpha_s"].get<double>(), 0, 1e-9);
  EXPECT_NEAR(s["model"]["bandwidth_GBps"].get<double>() * 8, 9.4, 1e-6);
  const json* w = workload(s, "7B");
  ASSERT_NE(w, nullptr);
  const json* r4 = row(*w, 4);
  ASSERT_NE(r4, nullptr);
  EXPECT_EQ((*r4)["kind"], "measured node count");
  EXPECT_NEAR((*r4)["bytes_per_node"].get<double>(), 21e9, 1);
  EXPECT_NEAR((*r4)["wait_no_overlap"].get<double>(), 0.9728, 1e-3);
  EXPECT_EQ((*w)["comm_exceeds_compute_at"], 2);
  EXPECT_EQ((*row(*w, 32))["kind"], "projection");
  // 100GbE at this run's efficiency: 94 Gb/s, ~78 % waiting with no overlap.
  for (const auto& l : s["link_speeds"]) {
    if (l["rate_Gbps"] != 100) continue;
    const auto& run = l["at_run_efficiency"];
    EXPECT_NEAR(run["bandwidth_GBps"].get<double>() * 8, 94.0, 0.01);
    EXPECT_NEAR((*row(run, 4))["wait_no_overlap"].get<double>(), 0.7814, 1e-3);
    EXPECT_NEAR(l["at_capped_efficiency"]["efficiency"].get<double>(), kTypicalEfficiency, 1e-12);
  }
  const auto text = section_text(s);
  EXPECT_NE(text.headline.find("97.3 %"), std::string::npos) << text.headline;
  EXPECT_NE(text.headline.find("78.1 %"), std::string::npos) << text.headline;
  EXPECT_NE(text.headline.find("21 GB per node"), std::string::npos) << text.headline;
  EXPECT_EQ(text.headline.find("default"), std::string::npos) << text.headline;
}

TEST(TrainingSection, WithoutStepComputeStatesTheDefault) {
  const json s = training_section(four_node_run(), {});
  EXPECT_TRUE(s["inputs"]["step_compute_is_default"].get<bool>());
  EXPECT_EQ(s["inputs"]["step_compute_s"], kDefaultStepComputeS);
  EXPECT_NE(section_text(s).headline.find("the default: give --step-compute-s"), std::string::npos);
}

TEST(TrainingSection, UserModelComesFirstAndDrivesTheLinkSpeeds) {
  TrainingParams p;
  p.model_params = 1e9;
  p.grad_bytes_per_param = 4;
  p.bucket_bytes = 1 << 20;
  const json s = training_section(four_node_run(), p);
  EXPECT_EQ(s["workloads"][0]["name"], "your model");
  EXPECT_EQ(s["workloads"][0]["grad_bytes"], 4e9);
  EXPECT_EQ(s["workloads"][0]["buckets"], 3815);  // ceil(4e9 / 2^20)
  EXPECT_EQ(s["link_speeds_workload"], "your model");
  EXPECT_EQ(params_from_json(s["inputs"]).model_params, 1e9);
}

TEST(TrainingSection, FallsBackToTheTcpPair) {
  Report rep;
  Record bw = tcp_record("bandwidth");
  bw.extra["goodput_Gbps"] = 0.94;
  Record lat = tcp_record("latency");
  lat.time_us.p50 = 40;
  lat.time_us.p99 = 60;
  rep.results = {bw, lat};
  const json s = training_section(rep, {});
  ASSERT_TRUE(s["available"].get<bool>());
  EXPECT_TRUE(s["model"]["fallback"].get<bool>());
  EXPECT_NEAR(s["model"]["alpha_s"].get<double>(), 40e-6, 1e-15);
  EXPECT_NEAR(s["model"]["beta_s_per_byte"].get<double>(), 8 / 0.94e9, 1e-18);
  ASSERT_EQ(s["latency"].size(), 1u);
  EXPECT_EQ(s["latency"][0]["p99_rtt_us"], 120.0);  // twice the half round trip
  EXPECT_FALSE(s["latency"][0]["within_threshold"].get<bool>());  // default threshold 100 us
}

TEST(TrainingSection, NothingToModelAddsNoSection) {
  Report rep;
  add_training_section(rep, {});
  EXPECT_FALSE(rep.extra.contains("training"));
  EXPECT_EQ(render_markdown(rep).find("Training impact"), std::string::npos);
  EXPECT_EQ(training_console(training_result_of(rep)), "");
}

TEST(TrainingSection, StoredParametersSurviveReRendering) {
  Report rep = four_node_run();
  TrainingParams p;
  p.step_compute_s = 1.25;
  p.dataset_bytes = 5e11;
  p.latency_threshold_us = 250;
  add_training_section(rep, p);
  const TrainingParams back = stored_params(rep);
  EXPECT_EQ(back.step_compute_s, 1.25);
  EXPECT_EQ(back.dataset_bytes, 5e11);
  EXPECT_EQ(back.latency_threshold_us, 250);
  EXPECT_FALSE(stored_params(Report{}).step_compute_s.has_value());
}

TEST(TrainingSection, SameNumbersInEveryOutput) {
  Report rep = four_node_run();
  TrainingParams p;
  p.step_compute_s = 0.5;
  add_training_section(rep, p);
  const std::string md = render_markdown(rep), html = render_html(rep), console = training_console(training_result_of(rep));
  const json j = json::parse(render_json(rep));
  EXPECT_EQ(j["extra"]["training"], rep.extra["training"]);
  const auto text = section_text(rep.extra["training"]);
  EXPECT_NE(md.find("## Training impact"), std::string::npos);
  EXPECT_NE(html.find("<h2>Training impact</h2>"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(console.find(text.headline), std::string::npos);
  EXPECT_NE(md.find(text.headline), std::string::npos);
  EXPECT_NE(html.find(text.headline), std::string::npos);
  // Every cell of the focus workload's table and of the link-speed table, in all three text outputs.
  size_t checked = 0;
  for (const auto& t : text.tables) {
    if (t.title.rfind("Workload 7B:", 0) != 0 && t.title.rfind("Estimates", 0) != 0) continue;
    for (const auto& r : t.rows)
      for (const auto& cell : r) {
        EXPECT_NE(md.find(cell), std::string::npos) << cell;
        EXPECT_NE(html.find(cell), std::string::npos) << cell;
        EXPECT_NE(console.find(cell), std::string::npos) << cell;
        ++checked;
      }
  }
  EXPECT_GT(checked, 50u);
  // And the JSON number behind the headline's waiting fraction prints as the headline's text.
  const json* r4 = row(*workload(j["extra"]["training"], "7B"), 4);
  EXPECT_NE(md.find(percent_text((*r4)["wait_no_overlap"].get<double>())), std::string::npos);
}

// report.json's section reads back into the same answer: every field the documents format survives.
TEST(TrainingSection, ReadsBackAsWritten) {
  TrainingParams p;
  p.step_compute_s = 0.7;
  p.model_params = 3e9;
  p.alpha_us = 12;
  Report rep = four_node_run();
  const auto answer = training_answer(rep, p);
  ASSERT_TRUE(answer && answer->available);
  const json written = *answer;
  EXPECT_EQ(json(written.get<TrainingResult>()), written);
  rep.extra["training"] = written;
  EXPECT_EQ(json(*training_result_of(rep)), written);
  // A hostile section reads as far as it can; inputs of the wrong type keep their defaults.
  rep.extra["training"] = json{{"available", true}, {"workloads", 3}, {"model", "x"}, {"link_speeds", json::array({1, json::object()})}};
  EXPECT_TRUE(training_result_of(rep)->available);
  EXPECT_EQ(training::section_text(*training_result_of(rep)).headline, "");  // no workload to answer for
  rep.extra["training"] = json{{"inputs", {{"bucket_bytes", "big"}, {"grad_bytes_per_param", 4}, {"alpha_us", false},
                                            {"step_compute_is_default", "no"}, {"latency_threshold_us", "x"}}}};
  const TrainingParams read = training_result_of(rep)->inputs;
  EXPECT_EQ(read.bucket_bytes, TrainingParams{}.bucket_bytes);
  EXPECT_EQ(read.grad_bytes_per_param, 4);
  EXPECT_FALSE(read.alpha_us || read.step_compute_s);
  EXPECT_EQ(read.latency_threshold_us, kDefaultLatencyThresholdUs);
  EXPECT_EQ(stored_params(rep).bucket_bytes, TrainingParams{}.bucket_bytes);
}

TEST(TrainingChart, OneSeriesPerLinkSpeedPlusThisNetwork) {
  TrainingParams p;
  p.step_compute_s = 0.5;
  const auto c = waiting_chart(training_section(four_node_run(), p));
  ASSERT_EQ(c.series.size(), 1u + std::size(kLinkSpeedsGbps));
  EXPECT_EQ(c.series[0].points.size(), std::size(kWhatIfNodes));  // 4 is both measured and what-if
  EXPECT_NEAR(c.series[0].points[1].second, 100 * 0.9722, 0.1);    // 4 nodes, fixed model
}

TEST(TrainingSection, OneNodeRunAnswersAsAProjection) {
  Report rep = four_node_run();
  for (auto& r : rep.results) r.extra["nodes"] = 1;
  const json s = training_section(rep, {});
  EXPECT_EQ(s["model"]["path"], "within a node");
  EXPECT_EQ((*row(*workload(s, "7B"), 4))["kind"], "projection");
  const auto headline = section_text(s).headline;
  EXPECT_NE(headline.find("within one node only"), std::string::npos) << headline;
  EXPECT_NE(headline.find("over 4 nodes"), std::string::npos) << headline;
}

TEST(TrainingSection, FullShardingMovesOneAndAHalfTimesAndSurvivesReRendering) {
  // The worked example's 4 nodes at 9.4 Gb/s, alpha 0, sharded: 3·3/4 × 14 GB = 31.5 GB per node,
  // 31.5e9 × 8 / 9.4e9 = 26.81 s of collectives against 0.5 s compute: 26.81 / 27.31 = 98.2 % waiting.
  Report rep = four_node_run();
  TrainingParams p;
  p.step_compute_s = 0.5;
  p.sharding = Sharding::full;
  add_training_section(rep, p);
  const json& s = rep.extra["training"];
  EXPECT_EQ(s["inputs"]["sharding"], "full");
  const json* r4 = row(*workload(s, "7B"), 4);
  ASSERT_NE(r4, nullptr);
  EXPECT_NEAR((*r4)["bytes_per_node"].get<double>(), 31.5e9, 1);
  EXPECT_NEAR((*r4)["comm_s"].get<double>(), 31.5e9 * 8 / 9.4e9, 1e-3);
  EXPECT_NEAR((*r4)["wait_no_overlap"].get<double>(), 26.809 / 27.309, 1e-3);
  EXPECT_EQ(stored_params(rep).sharding, Sharding::full);
  EXPECT_EQ(stored_params(four_node_run()).sharding, Sharding::none);
  // Fitted on 4 nodes: no 2-rank note.
  EXPECT_FALSE(s["model"].contains("note"));
}

TEST(TrainingSection, TwoRankNoteFollowsTheRingNotTheNodes) {
  // 2 nodes x 1 rank: left and right neighbour coincide, the note says so; 2 nodes x 2 ranks is a
  // ring of 4 whose network links each carry one direction: no note, and the same per-link model.
  const json one = training_section(ring_run(2, 1), {});
  const json two = training_section(ring_run(2, 2), {});
  EXPECT_TRUE(one["model"].contains("note"));
  EXPECT_FALSE(two["model"].contains("note"));
  EXPECT_EQ(two["model"]["measured_nodes"], 2);
  EXPECT_NEAR(two["model"]["beta_s_per_byte"].get<double>(), kBeta, kBeta * 1e-9);
  EXPECT_NEAR(one["model"]["beta_s_per_byte"].get<double>(), kBeta, kBeta * 1e-9);
}

TEST(TrainingSection, OneHostMakesNoClaimAboutNodes) {
  // Two ranks on one host talk over shared memory or loopback: no network between nodes was measured.
  Report rep = four_node_run();
  rep.provenance.hosts.assign(rep.provenance.hosts.size(), "a");
  const json s = training_section(rep, {});
  EXPECT_FALSE(s.value("available", true));
  const auto headline = section_text(s).headline;
  EXPECT_NE(headline.find("the run spanned one host"), std::string::npos) << headline;
  EXPECT_EQ(headline.find("between nodes,"), std::string::npos) << headline;
  EXPECT_EQ(headline.find("measured node count"), std::string::npos) << headline;
}

namespace {

// The 4-node MPI sweep beside a tcp pair on eth0, with the counters saying which interface each suite's
// traffic crossed (MPI's, `mpi_iface`).
Report with_networks(const std::string& mpi_iface, double half_rtt_us) {
  Report rep = four_node_run();
  Record bw = tcp_record("bandwidth");
  bw.extra["goodput_Gbps"] = 0.94;
  bw.extra["link"] = {{"iface", "eth0"}};
  Record lat = tcp_record("latency");
  lat.time_us.p50 = half_rtt_us;
  lat.time_us.p99 = half_rtt_us * 2;
  rep.results.push_back(bw);
  rep.results.push_back(lat);
  for (const auto& [suite, iface] : {std::pair{"mpi", mpi_iface}, std::pair{"tcp", std::string("eth0")}})
    for (const char* host : {"a", "b", "c", "d"}) {
      Record c;
      c.suite = "counters";
      c.name = suite;
      c.host = host;
      c.extra["traffic"] = {{"carried_by", {iface}}};
      rep.results.push_back(c);
    }
  return rep;
}

}  // namespace

TEST(TrainingSection, ACurveOverAnotherNetworkIsPassedOverForTheDataNetwork) {
  // MPI over the control network (ctl0) while the tcp suite measured eth0: fit from eth0's pairs.
  const json s = training_section(with_networks("ctl0", 40), {});
  ASSERT_TRUE(s["available"].get<bool>());
  EXPECT_TRUE(s["model"]["fallback"].get<bool>());
  EXPECT_EQ(s["model"]["network"], "eth0 on 4 hosts");
  EXPECT_EQ(s["model"]["passed_over"],
            "the mpi allreduce crossed ctl0, not eth0, the network the tcp suite measured; the model is fitted from "
            "eth0's pair goodput and latency instead");
  const auto notes = section_text(s).notes;
  EXPECT_NE(std::find(notes.begin(), notes.end(), "Network: " + s["model"]["passed_over"].get<std::string>() + "."),
            notes.end());
  // Over eth0 itself, the all-reduce curve is the model, and says what it crossed.
  const json same = training_section(with_networks("eth0", 40), {});
  EXPECT_FALSE(same["model"]["fallback"].get<bool>());
  EXPECT_EQ(same["model"]["network"], "eth0 on 4 hosts");
  EXPECT_FALSE(same["model"].contains("passed_over"));
}

TEST(TrainingSection, LinkSpeedAlphaIsTheNetworksLatencyBoundedOrTheUsers) {
  json s = training_section(with_networks("eth0", 40), {});
  EXPECT_NEAR(s["alpha_sensitivity"]["alpha_s"].get<double>(), 40e-6, 1e-12);
  EXPECT_EQ(s["alpha_sensitivity"]["from"], "the tcp latency test's p50 on eth0 (half the round trip)");
  const auto& w = s["alpha_sensitivity"]["waits"];
  ASSERT_EQ(w.size(), 3u);
  EXPECT_LT(w[0]["wait_no_overlap"].get<double>(), w[2]["wait_no_overlap"].get<double>());  // more alpha, more waiting
  // A CPU-starved host's 2 ms is not a network's latency: bounded, and said so.
  s = training_section(with_networks("eth0", 2000), {});
  EXPECT_NEAR(s["alpha_sensitivity"]["alpha_s"].get<double>(), kMaxProjectionAlphaS, 1e-12);
  EXPECT_NE(s["alpha_sensitivity"]["from"].get<std::string>().find("bounded to 100 us from 2000 us"), std::string::npos);
  TrainingParams p;
  p.alpha_us = 5;
  s = training_section(with_networks("eth0", 2000), p);
  EXPECT_NEAR(s["alpha_sensitivity"]["alpha_s"].get<double>(), 5e-6, 1e-15);
  EXPECT_EQ(s["alpha_sensitivity"]["from"], "given (--alpha-us)");
  EXPECT_EQ(stored_params([&] { Report r = four_node_run(); add_training_section(r, p); return r; }()).alpha_us, 5);
}

TEST(TrainingSection, TheTrainSuitesMeasuredStepIsShownWithItsError) {
  Report rep = four_node_run();
  Record step;
  step.suite = "train";
  step.name = "step";
  step.variant = "cpu emulated";
  step.time_us.mean = 1.27e6;
  step.extra = {{"nodes", 4}, {"predicted", {{"model_s", 1.0}}}, {"within_bounds", true}};
  rep.results.push_back(step);
  const json s = training_section(rep, {});
  ASSERT_EQ(s["measured_steps"].size(), 1u);
  EXPECT_NEAR(s["measured_steps"][0]["error"].get<double>(), 0.27, 1e-9);
  const auto notes = section_text(s).notes;
  EXPECT_NE(std::find(notes.begin(), notes.end(),
                      "The train suite measured a step (cpu emulated, 4 nodes) at 1.27 s against the model's 1 s: "
                      "+27.0 %, between the perfect-overlap and no-overlap steps."),
            notes.end())
      << notes.size();
}
