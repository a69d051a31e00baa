// In-process fuzzing of every input file kind through the real loaders: each case must load or be
// refused with the loader's input-error type and a one-line message naming the file. A crash, a
// hang (CTest's timeout) or a sanitizer report fails the test. Cases are seeded (GPUNET_FUZZ_SEED)
// and counted (GPUNET_FUZZ_CASES); the files under tests/data/fuzz/<kind> run every time.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <iostream>

#include "tests/support/spec_names.hpp"
#include "report/judge/baseline.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/spec.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tests/fuzz/mutate.hpp"
#include "topology/fabric.hpp"
#include "topology/findings.hpp"
#include "topology/render.hpp"
#include "topology/topology.hpp"

namespace gpunet::fuzz {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Outcome {
  bool loaded = false;
  std::string problem;  // "" when the file loaded or was refused cleanly; else what went wrong
};
using Check = std::function<Outcome(const std::string& path)>;

template <class Error, class Load>
Outcome refused_or_loaded(const std::string& path, Load&& load) {
  try {
    load();
    return {true, ""};
  } catch (const Error& e) {
    return {false, message_problem(e.what(), path)};
  } catch (const std::exception& e) {
    return {false, std::string("escaped as a different exception: ") + e.what()};
  }
}

Outcome check_topology(const std::string& path) {
  return refused_or_loaded<topo::InputError>(path, [&] {
    const topo::NodeTopology t = topo::load_topology_file(path);
    (void)topo::render_matrix(t);
    (void)topo::render_findings(topo::analyze(t, {}));
  });
}

Outcome check_fabric(const std::string& path) {
  return refused_or_loaded<topo::InputError>(path, [&] { (void)topo::fabric_json(topo::load_fabric(path)); });
}

Outcome check_spec(const std::string& path) {
  return refused_or_loaded<report::SpecError>(path, [&] { (void)report::load_spec(path, gpunet::test_support::suite_spec_names()); });
}

Outcome check_baseline(const std::string& path) {
  return refused_or_loaded<report::BaselineError>(path, [&] { (void)report::load_baseline(path); });
}

// As `gpunet-bench report PATH -o DIR` does it: load, then analyse and write every output.
Outcome check_results(const std::string& path) {
  report::LoadedResults loaded = report::load_results(path);
  if (!loaded.report) return {false, message_problem(loaded.error, path)};
  try {
    report::analyze(*loaded.report);
    report::write_analysed_outputs(*loaded.report, path + ".out");
  } catch (const std::exception& e) {
    return {true, std::string("rendering threw: ") + e.what()};
  }
  std::error_code ec;
  fs::remove_all(path + ".out", ec);
  return {true, ""};
}

using Mutate = std::string (*)(const std::string&, Rng&);

struct Kind {
  std::string name;        // the folder under tests/data/fuzz
  std::string extension;   // of the case files
  std::vector<std::string> seeds;
  Mutate mutate;
  Check check;
  uint64_t seed_offset;
};

void run_kind(const Kind& k, std::size_t cases) {
  ScratchDir dir(k.name);
  std::size_t checked = 0, loaded = 0;
  for (const auto& file : regression_files(k.name)) {
    const Outcome o = k.check(file.string());
    EXPECT_EQ(o.problem, "") << "regression file " << file;
    ++checked;
  }
  ASSERT_FALSE(k.seeds.empty());
  for (const auto& seed_text : k.seeds) {  // every seed itself must load
    const std::string path = (dir.path / ("seed" + k.extension)).string();
    write_text(path, seed_text);
    const Outcome o = k.check(path);
    EXPECT_TRUE(o.loaded) << "seed of " << k.name << ": " << o.problem;
  }
  const uint64_t seed = base_seed() + k.seed_offset;
  Rng rng(seed);
  const bool verbose = std::getenv("GPUNET_FUZZ_VERBOSE") != nullptr;
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < cases; ++i) {
    const std::string text = k.mutate(k.seeds[rng.below(k.seeds.size())], rng);
    const std::string path = (dir.path / ("case-" + std::to_string(i) + k.extension)).string();
    write_text(path, text);
    if (verbose) std::cerr << k.name << " case " << i << " (seed " << seed << "): " << path << std::endl;
    const Outcome o = k.check(path);
    loaded += o.loaded ? 1 : 0;
    EXPECT_EQ(o.problem, "") << k.name << " case " << i << " of seed " << seed << " (GPUNET_FUZZ_SEED=" << base_seed()
                           << "); keep it under tests/data/fuzz/" << k.name;
    if (o.problem.empty()) fs::remove(path);
    ++checked;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << k.name << ": " << checked << " cases (" << cases << " mutated, seed " << seed << ", " << loaded
            << " of them loaded) in " << s << " s\n";
}

std::vector<std::string> files(const std::vector<fs::path>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(read_text(p));
  return out;
}

std::vector<std::string> hwloc_seeds() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(source_dir() / "tests/data/topologies"))
    if (e.path().extension() == ".xml" && read_text(e.path()).find("<topology") != std::string::npos) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return files(out);
}

report::Report fixture_report() {
  auto loaded = report::load_results((source_dir() / "tests/data/report/fixture.json").string());
  EXPECT_TRUE(loaded.report.has_value()) << loaded.error;
  return loaded.report ? *loaded.report : report::Report{};
}

// The fixture as results.jsonl: a provenance line, then one line per record.
std::string fixture_jsonl() {
  const report::Report rep = fixture_report();
  std::string out = json{{"provenance", rep.provenance}}.dump() + "\n";
  for (const auto& r : rep.results) out += json(r).dump() + "\n";
  return out;
}

std::string fixture_baseline() {
  report::Report rep = fixture_report();
  return report::baseline_to_json(report::make_baseline(rep, {})).dump(1);
}

TEST(FuzzInputs, HwlocXml) {
  run_kind({"hwloc", ".xml", hwloc_seeds(), mutate_xml, check_topology, 1}, case_count(500));
}

TEST(FuzzInputs, NcclXml) {
  const auto seed = files({source_dir() / "tests/data/topologies/nccl-azure-ndv4-a100.xml"});
  run_kind({"nccl", ".xml", seed, mutate_xml, check_topology, 2}, case_count(500));
}

TEST(FuzzInputs, Spec) {
  auto seeds = files({source_dir() / "ci/spec-example.json", source_dir() / "tests/data/spec/fabric-spec.json"});
  seeds.push_back(R"({"spec_version": 2, "name": "congestion bound", "congestion": {"max_cif": 3.0}})");
  run_kind({"spec", ".json", seeds, mutate_json, check_spec, 3}, case_count(500));
}

TEST(FuzzInputs, Baseline) {
  run_kind({"baseline", ".json", {fixture_baseline()}, mutate_json, check_baseline, 4}, case_count(500));
}

TEST(FuzzInputs, ReportJson) {
  const auto seeds = files({source_dir() / "tests/data/report/fixture.json", source_dir() / "tests/data/report/hostile.json"});
  run_kind({"report", ".json", seeds, mutate_json, check_results, 5}, case_count(500));
}

TEST(FuzzInputs, ResultsJsonl) {
  run_kind({"jsonl", ".jsonl", {fixture_jsonl()}, mutate_json, check_results, 6}, case_count(500));
}

TEST(FuzzInputs, FabricConf) {
  const std::string seed =
      "# two racks\nSwitchName=leaf0 Nodes=node[01-04]\nSwitchName=leaf1 Nodes=node[05-08] LinkSpeed=100\n"
      "SwitchName=spine Switches=leaf[0-1]\n";
  run_kind({"fabric", ".conf", {seed}, mutate_conf, check_fabric, 7}, case_count(500));
}

}  // namespace
}  // namespace gpunet::fuzz
