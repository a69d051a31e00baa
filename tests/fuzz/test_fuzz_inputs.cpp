// In-process fuzzing of every input file kind through the real loaders: each case must load or be
// refused with the loader's input-error type and a one-line message naming the file. A crash, a
// hang (CTest's timeout) or a sanitizer report fails the test. Cases are seeded (GPUNET_FUZZ_SEED)
// and counted (GPUNET_FUZZ_CASES); the files under tests/data/fuzz/<kind> run every time.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <cctype>
#include <iostream>
#include <set>
#include <utility>

#include "tests/support/record_lines.hpp"
#include "tests/support/spec_names.hpp"
#include "report/judge/baseline.hpp"
#include "report/model/json_member_lines.hpp"
#include "report/model/json_lines_parser.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/verdicts_outputs.hpp"
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
using gpunet::json;

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

// The first inf, -inf or nan printed as a word in the Markdown report or a CSV table of `dir`, as
// "report.md: ... -inf ..."; "" when there is none. No figure or derived number may print as one.
std::size_t non_finite_word(const std::string& text) {
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (const char* w : {"inf", "nan", "Infinity", "NaN"}) {
    const std::string word = w;
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
      const bool starts = at == 0 || (!word_char(text[at - 1]) && text[at - 1] != '.');
      const std::size_t end = at + word.size();
      if (starts && (end == text.size() || !word_char(text[end]))) return at;
    }
  }
  return std::string::npos;
}

std::string non_finite_printed(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "report.md" && e.path().extension() != ".csv") continue;
    const std::string text = read_text(e.path());
    if (const std::size_t at = non_finite_word(text); at != std::string::npos)
      return name + ": ..." + text.substr(at > 60 ? at - 60 : 0, 120) + "...";
  }
  return "";
}

// As `gpunet-bench report PATH -o DIR` does it: load, then analyse and write every output.
Outcome check_results(const std::string& path) {
  report::LoadedResults loaded = report::load_results(path);
  if (!loaded.report) return {false, message_problem(loaded.error, path)};
  std::string printed;
  try {
    report::analyze(*loaded.report);
    report::write_analysed_outputs(report::stored_analysis(std::move(*loaded.report)), path + ".out");
    printed = non_finite_printed(path + ".out");
  } catch (const std::exception& e) {
    return {true, std::string("rendering threw: ") + e.what()};
  }
  std::error_code ec;
  fs::remove_all(path + ".out", ec);
  return {true, printed.empty() ? "" : "a non-finite number printed: " + printed};
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

// The lines of a results.jsonl are read by simdjson, with parse_json_text for whatever it does not take
// (report/model/json_lines_parser.hpp): on mutated lines, both give the same tree, the same refusal and
// the same words, line after line through one parser. A record read without its tree is the record its
// tree gives (a line the tree refuses is never read without it).
TEST(FuzzInputs, JsonLinesParserAgreesWithTheCarefulParser) {
  std::vector<std::string> lines;
  // the fixture (records of version 1's shape) and a run's tcp records as this version writes them
  const std::string text = fixture_jsonl() + read_text(source_dir() / "tests/data/report/loopback_tcp.jsonl");
  for (std::size_t begin = 0, end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1)
    lines.push_back(text.substr(begin, end - begin));
  Rng rng(base_seed() + 7);
  report::JsonLinesParser parser;
  const std::vector<report::HeldPath> held_paths = {{"extra", "link"}, {"extra", "dst_link"}};
  report::JsonLinesParser holding(held_paths);  // a reader's: the link facts held apart
  report::JsonLinesParser direct(held_paths);   // a reader's, for records without their tree
  const std::size_t cases = case_count(500);
  std::size_t refused = 0, holding_apart = 0, read_directly = 0;
  for (std::size_t i = 0; i < cases; ++i) {
    std::string line = mutate_json(lines[rng.below(lines.size())], rng);
    std::replace(line.begin(), line.end(), '\n', ' ');  // one line, as a results.jsonl holds it
    const report::JsonParsed careful = report::parse_json_text(line);
    const report::JsonParsed fast = parser.parse(line);
    ASSERT_EQ(fast.error, careful.error) << "case " << i << ": " << line.substr(0, 300);
    ASSERT_EQ(fast.key_or_number_refused, careful.key_or_number_refused) << "case " << i;
    ASSERT_EQ(fast.value.dump(), careful.value.dump()) << "case " << i << ": " << line.substr(0, 300);
    report::JsonLineParsed held = holding.parse_holding_apart(line);
    for (std::size_t h = 0; h < held.held.size(); ++h)
      if (held.held[h].value) held.parsed.value[held_paths[h].parent][held_paths[h].key] = *held.held[h].value, ++holding_apart;
    ASSERT_EQ(held.parsed.error, careful.error) << "case " << i << ": " << line.substr(0, 300);
    ASSERT_EQ(held.parsed.value.dump(), careful.value.dump()) << "case " << i << ": " << line.substr(0, 300);
    refused += !careful.ok();
    if (const auto record = direct.parse_record(line)) {
      ++read_directly;
      report::JsonLineParsed again = holding.parse_holding_apart(line);
      ASSERT_TRUE(again.parsed.ok()) << "case " << i << ": " << line.substr(0, 300);
      std::optional<report::RecordLine> tree;
      ASSERT_NO_THROW(tree = report::JsonLinesParser::record_of_tree(again)) << "case " << i << ": " << line.substr(0, 300);
      ASSERT_TRUE(test_support::same_record_line(*record, *tree)) << "case " << i << ": " << line.substr(0, 300);
    }
  }
  std::cout << "json lines: " << cases << " mutated lines, " << refused << " refused by both parsers, " << holding_apart
            << " link facts held apart, " << read_directly << " records read without their tree\n";
  EXPECT_GT(refused, 0u);
  EXPECT_GT(read_directly, 0u);
  EXPECT_GT(holding_apart, 0u);
  EXPECT_LT(refused, cases);
}

// `written` (a baseline as write_baseline writes it) with one figure's value mutated, on its one line.
std::string with_one_figure_mutated(const std::string& written, Rng& rng) {
  std::vector<std::size_t> starts;  // of each figure's line, at its line break
  for (auto at = written.find("\n  \"", written.find("\"figures\": {")); at != std::string::npos; at = written.find("\n  \"", at + 1))
    starts.push_back(at);
  if (starts.empty()) return written;
  const std::size_t begin = starts[rng.below(starts.size())], end = written.find('\n', begin + 1);
  const std::string line = written.substr(begin, end - begin);
  const bool comma = line.back() == ',';
  const std::size_t value_at = line.find("\": ") + 3;
  std::string value = mutate_json(line.substr(value_at, line.size() - value_at - (comma ? 1 : 0)), rng);
  std::replace(value.begin(), value.end(), '\n', ' ');
  return written.substr(0, begin) + line.substr(0, value_at) + value + (comma ? "," : "") + written.substr(end);
}

// A baseline laid out as write_baseline writes it is read a figure a line by the JSON lines parser
// (report/model/json_member_lines.hpp), and whatever that way does not take by the whole-text parser:
// mutated, it reads as the same baseline, or says the same words, as the whole text read by the
// careful parser alone (a space after the first brace: the layout the line reader leaves alone).
TEST(FuzzInputs, BaselineReadALineAtATimeAgreesWithTheWholeText) {
  report::Report rep = fixture_report();
  const std::string written = report::baseline_text(report::make_baseline(rep, {}));
  const auto read = [](const std::string& text) {
    try {
      return report::baseline_text(report::baseline_from_text(text, "b.json"));
    } catch (const report::BaselineError& e) {
      return std::string("refused: ") + e.what();
    }
  };
  Rng rng(base_seed() + 8);
  const std::size_t cases = case_count(500);
  std::size_t by_lines = 0, refused = 0;
  for (std::size_t i = 0; i < cases; ++i) {
    const std::string text = i % 2 ? mutate_json(written, rng) : with_one_figure_mutated(written, rng);
    if (text.rfind("{\n", 0) != 0) continue;
    const std::string said = read(text);
    ASSERT_EQ(said, read("{ " + text.substr(1))) << "case " << i << " (GPUNET_FUZZ_SEED=" << base_seed() << ")";
    by_lines += report::read_member_lines(text, "figures", [](std::string&&, json&&) { return true; }).has_value();
    refused += said.rfind("refused: ", 0) == 0;
  }
  std::cout << "baseline lines: " << cases << " mutated, " << by_lines << " laid out to be read a line at a time, "
            << refused << " refused\n";
  EXPECT_GT(by_lines, 0u);
  EXPECT_GT(refused, 0u);
  EXPECT_LT(refused, cases);
}

// Load and analyse only (the mutation tests above also render): a reader's check of one field.
Outcome check_read(const std::string& path) {
  report::LoadedResults loaded = report::load_results(path);
  if (!loaded.report) return {false, message_problem(loaded.error, path)};
  try {
    report::analyze(*loaded.report);
  } catch (const std::exception& e) {
    return {true, std::string("analysis threw: ") + e.what()};
  }
  return {true, ""};
}

// A null in place of each field (one level into objects) of one record per suite and test, and of the
// provenance, in a report.json and as results.jsonl: read, or refused with one line naming the file
// (for results.jsonl also the line), never a library's words (it once said "type must be number, but
// is null" and exited 3).
TEST(FuzzInputs, NullInEachField) {
  ScratchDir dir("nulls");
  const json doc = json::parse(read_text(source_dir() / "tests/data/report/fixture.json"));
  std::size_t cases = 0;
  const auto check_both = [&](const json& d, const std::string& what) {
    const std::string report = (dir.path / "report.json").string();
    write_text(report, d.dump());
    EXPECT_EQ(check_read(report).problem, "") << "report.json, null at " << what;
    std::string lines = json{{"provenance", d.at("provenance")}}.dump() + "\n";
    for (const auto& r : d.at("results")) lines += r.dump() + "\n";
    const std::string jsonl = (dir.path / "results.jsonl").string();
    write_text(jsonl, lines);
    EXPECT_EQ(check_read(jsonl).problem, "") << "results.jsonl, null at " << what;
    ++cases;
  };
  const auto nulls_in = [&](const json& object, const std::function<json&(json&)>& at, const std::string& where) {
    for (const auto& [key, value] : object.items()) {
      json d = doc;
      at(d)[key] = nullptr;
      check_both(d, where + key);
      if (!value.is_object() || key == "extra") continue;
      for (const auto& [inner, ignored] : value.items()) {
        json e = doc;
        at(e)[key][inner] = nullptr;
        check_both(e, where + key + "." + inner);
      }
    }
  };
  std::set<std::string> seen;
  const json& results = doc.at("results");
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!seen.insert(results[i].value("suite", "") + "/" + results[i].value("name", "")).second) continue;
    nulls_in(results[i], [i](json& d) -> json& { return d["results"][i]; }, "results[" + std::to_string(i) + "].");
  }
  nulls_in(doc.at("provenance"), [](json& d) -> json& { return d["provenance"]; }, "provenance.");
  std::cout << "nulls: " << cases << " documents, each as report.json and as results.jsonl\n";
  EXPECT_GT(cases, 50u);
}

TEST(FuzzInputs, FabricConf) {
  const std::string seed =
      "# two racks\nSwitchName=leaf0 Nodes=node[01-04]\nSwitchName=leaf1 Nodes=node[05-08] LinkSpeed=100\n"
      "SwitchName=spine Switches=leaf[0-1]\n";
  run_kind({"fabric", ".conf", {seed}, mutate_conf, check_fabric, 7}, case_count(500));
}

}  // namespace
}  // namespace gpunet::fuzz
