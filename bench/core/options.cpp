#include "bench/core/options.hpp"

#include <algorithm>
#include <sstream>

#include <CLI/CLI.hpp>

#include "bench/core/cli_float.hpp"
#include "bench/core/cli_size.hpp"
#include "bench/core/evidence_options.hpp"
#include "bench/core/size_limits.hpp"
#include "bench/core/sizes.hpp"
#include "bench/core/suite.hpp"
#include "bench/core/time_budget.hpp"
#include "bench/core/training_options.hpp"
#include "common/quote.hpp"
#include "common/strings.hpp"
#include "gpunet/build_config.h"

namespace gpunet::bench {

std::string to_string(Reduction r) {
  switch (r) {
    case Reduction::max: return "max";
    case Reduction::mean: return "mean";
    case Reduction::min: return "min";
  }
  return "max";
}

namespace {

// The directory a report's input lies in: "." for a bare name, "/" for a file in the root.
std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Where `gpunet-bench report PATH` writes without -o: a folder of its own beside the input, so that a
// re-render never replaces the run's own report.json (its provenance, topology and findings).
std::string rerender_dir_of(const std::string& input) {
  const std::string dir = directory_of(input);
  return (dir == "/" ? "" : dir) + "/rerendered";
}

// An empty path given on purpose (an unset shell variable) is an error, never "none given": the job
// would differ from the one asked for. Empty when every path option given holds a path.
std::string empty_path_problem(const CLI::App& app, const Config& c) {
  const CLI::App* rep = app.get_subcommand("report");
  const struct {
    const char* name;
    const std::string& value;
  } paths[] = {{"--spec", c.spec_path},
               {"--baseline", c.baseline_path},
               {"--save-baseline", c.save_baseline_path},
               {"--learn-baseline", c.learn_baseline_path},
               {"--history", c.history_path},
               {"--topology-xml", c.topology_xml}};
  for (const auto& p : paths) {
    const bool given = app.count(p.name) > 0 || (rep->get_option_no_throw(p.name) && rep->count(p.name) > 0);
    if (given && p.value.empty())
      return std::string(p.name) + ": empty path (give a FILE, or leave the option out; is a shell variable unset?)";
  }
  return "";
}

// --check once took 0 or 1 (data verification, as in nccl-tests); that is -c/--verify now.
std::string old_check_spelling(const std::vector<std::string>& args) {
  for (size_t i = 1; i < args.size(); ++i) {
    const bool valued = args[i].rfind("--check=", 0) == 0;
    const bool followed = args[i] == "--check" && i + 1 < args.size() && (args[i + 1] == "0" || args[i + 1] == "1");
    if (valued || followed)
      return "--check takes no value: it checks the inputs without measuring; to turn data verification on or off "
             "use -c/--verify 0|1";
  }
  return "";
}

// The traffic counters read during every suite.
void add_counter_options(CLI::App& app, Config& c, std::string& expect_ifaces) {
  add_float_option(app, "--counters-interval", c.counters_interval_s, 0.0, 60.0,
                   "Seconds between readings of interface, RDMA and NVML counters during each suite; 0 turns them off");
  add_float_option(app, "--host-busy-pct", c.host_busy_pct, 1.0, 100.0,
                   "A node whose CPUs spent more than this % on other work during a suite (or a third of it stolen by "
                   "a hypervisor) is busy: its SLOWER baseline figures become UNCERTAIN; 100 turns that off");
  app.add_option("--expect-if", expect_ifaces,
                 "Interfaces benchmark traffic should take (names, or prefixes ending in *); traffic elsewhere is flagged")
      ->type_name("LIST");
}

std::string suites_help(SuiteList suites) {
  std::string out = "Comma list of suites to run, in order:";
  for (const auto& s : suites) out += "\n  " + s.name + ": " + s.help;
  return out;
}

// `gpunet-bench history FILE [-o DIR] [--since T] [--figure S] [--save-baseline OUT --last N]` and
// `gpunet-bench history import FILE REPORT...` (report/history/history_command.hpp).
void add_history_subcommand(CLI::App& app, Config& c) {
  auto& h = c.history;
  auto* hist = app.add_subcommand("history", "The run history (--history FILE): history.md and history.html with a trend "
                                             "per figure, step changes and when figures drop (hour of day, day of week)");
  hist->add_option("file", h.file, "The history file (SQLite)")->type_name("FILE.sqlite");
  hist->add_option("-o,--output", h.out_dir, "Directory for history.md and history.html (default: the history file's)");
  hist->add_option("--since", h.since, "Only runs that started at or after this UTC time (YYYY-MM-DD[THH:MM[:SS]Z])")->type_name("TIME");
  hist->add_option("--figure", h.figure, "Only figures whose name contains this text (e.g. 'tcp goodput', 'vm:0 -> vm:1')")->type_name("TEXT");
  hist->add_option("--save-baseline", h.save_baseline,
                   "Instead of the reports: write a --baseline file from the last --last runs without a FAIL verdict "
                   "(the newest run's figures, the others' values as their noise history)")
      ->type_name("FILE");
  hist->add_option("--last", h.last, "With --save-baseline: how many good runs")->check(CLI::Range(1, 1000))->capture_default_str();
  auto* imp = hist->add_subcommand("import", "Add earlier runs (report.json or results.jsonl files) with their own start times");
  imp->add_option("file", h.file, "The history file (SQLite; created if missing)")->type_name("FILE.sqlite")->required();
  imp->add_option("reports", h.reports, "report.json or results.jsonl files")->type_name("REPORT")->required();
}

// The history subcommand's request, or one line saying what is missing.
std::string finish_history_request(const CLI::App& app, Config& c) {
  const CLI::App* hist = app.get_subcommand("history");
  if (!app.got_subcommand("history")) return "";
  auto& h = c.history;
  const bool import = hist->got_subcommand("import");
  h.action = import ? report::history::HistoryRequest::Action::import : report::history::HistoryRequest::Action::render;
  if (h.file.empty()) return "history: give the history file (gpunet-bench history FILE.sqlite, or history import FILE.sqlite REPORT.json...)";
  if (import && (hist->count("--since") || hist->count("--figure") || hist->count("--save-baseline") || hist->count("-o")))
    return "history import: -o, --since, --figure and --save-baseline belong to `gpunet-bench history FILE`";
  if (hist->count("--last") && h.save_baseline.empty()) return "history: --last goes with --save-baseline FILE";
  for (const auto& r : h.reports)
    if (r.empty()) return "history import: empty report path (is a shell variable unset?)";
  return "";
}

void build_app(CLI::App& app, Config& c, SuiteList known, std::string& suites, std::string& reduction) {
  app.set_version_flag("--version", std::string("gpunet-bench ") + GPUNET_VERSION + " (" + GPUNET_GIT_COMMIT + ")");
  app.get_formatter()->column_width(34);
  app.footer(
      "Sizes take binary suffixes: K=2^10, M=2^20, G=2^30. Units in output: GB/s = 1e9 B/s, Gb/s = 1e9 bit/s, us.\n"
      "Exit codes: 0 all good; 1 wrong result or failed verdict; 2 usage or input error;\n"
      "3 runtime failure (dead rank, timeout, MPI error, an output that cannot be written);\n"
      "4 a promise of --spec could not be judged (INCOMPLETE).");

  app.add_option("--suites", suites, suites_help(known))->type_name("LIST")->default_str(suite_names(known));

  add_size_option(app, "-b,--minbytes", c.min_bytes, "Smallest message size")->default_str("1K");
  add_size_option(app, "-e,--maxbytes", c.max_bytes, "Largest message size")->default_str("64M");
  add_float_option(app, "-f,--stepfactor", c.step_factor, 1.000001, 1e6, "Multiply the size by this factor between sizes");
  add_size_option(app, "-i,--stepbytes", c.step_bytes, "Add this many bytes between sizes instead of -f");
  app.add_option("-n,--iters", c.iters, "Minimum timed iterations per size (more if the budget allows)")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("-w,--warmup_iters", c.warmup_iters, "Untimed warm-up iterations per size")
      ->check(CLI::Range(0, 100000000))
      ->capture_default_str();
  app.add_option("-c,--verify", c.check, "Verify results (1) or not (0)")
      ->check(CLI::Range(0, 1))
      ->capture_default_str();
  app.add_option("-d,--datatype", c.dtype, "Element type: float, double, int32, int64")
      ->check(CLI::IsMember({"float", "double", "int32", "int64"}))
      ->capture_default_str();
  app.add_option("--op", c.op, "Reduction operation: sum, max, min")
      ->check(CLI::IsMember({"sum", "max", "min"}))
      ->capture_default_str();
  add_float_option(app, "--budget", c.budget_s, 0.0, 3600.0,
                   "Time budget per size in seconds; iterations grow from -n up to this budget");
  app.add_option("--max-iters", c.max_iters, "Upper bound on timed iterations per size")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--reduce", reduction,
                 "How per-iteration times combine across ranks: max (default; a collective ends when "
                 "its slowest rank ends), mean or min")
      ->check(CLI::IsMember({"max", "mean", "min"}))
      ->default_str("max");
  add_float_option(app, "--timeout", c.timeout_s, 0.1, 1e6,
                   "Seconds any single step may take before the whole job is ended (exit code 3)");
  app.add_option("--control-if", c.control_if,
                 "Interface (name or CIDR) of the watchdog's own TCP channel to rank 0; default: the one "
                 "Open MPI's wire-up uses (oob_tcp_if_include), else loopback on one node, else the first "
                 "IPv4 address. Not the data interface under test.")
      ->type_name("IF|CIDR");
  app.add_option("-o,--output", c.output_dir, "Directory for results.jsonl and the reports")
      ->capture_default_str();
  app.add_flag("-q,--quiet", c.quiet, "Print only the final summary and errors");
  app.add_option("--progress", c.progress,
                 "Progress line with the time left: line (rewritten in place), plain (log lines at most every few "
                 "seconds), off; auto = line on a terminal, else plain")
      ->check(CLI::IsMember({"auto", "line", "plain", "off"}))
      ->capture_default_str();
  app.add_flag("--check", c.check_inputs,
               "Check the options, --spec, --baseline, --fabric, --topology-xml (and a report's input) without measuring: "
               "one line per problem, exit 0 or 2; no MPI; then the run's plan (its estimated time)");
  app.add_option("--nodes", c.plan_nodes, "With --check: the node count the plan is for (one rank per node)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_option("--topology-xml", c.topology_xml,
                 "Analyse an hwloc XML export or an NCCL topology file instead of this machine: print the "
                 "path matrix and the findings, then exit (no MPI needed)")
      ->type_name("FILE");
  app.add_option("--fabric", c.fabric_path,
                 "The fabric between the nodes, in Slurm's topology.conf syntax (SwitchName=leaf1 Nodes=node[01-16], "
                 "SwitchName=spine Switches=leaf[1-2]): a slow switch uplink is then named instead of the nodes "
                 "(docs/fabric.md)")
      ->type_name("FILE");
  // --- acceptance and regression ---
  app.add_option("--spec", c.spec_path,
                 "Acceptance spec (JSON, see ci/SPEC.md): adds a PASS/FAIL/SKIP verdict table; a FAIL exits 1")
      ->type_name("FILE");
  app.add_option("--baseline", c.baseline_path,
                 "Compare every figure with this stored baseline (SAME/FASTER/SLOWER/UNCERTAIN); SLOWER exits 1")
      ->type_name("FILE");
  app.add_option("--save-baseline", c.save_baseline_path, "Store this run's figures as a baseline in FILE")
      ->type_name("FILE");
  app.add_option("--learn-baseline", c.learn_baseline_path,
                 "With --baseline: store it in FILE with this run's SAME figures added to their history (its values "
                 "unchanged), so the run-to-run spread is learned even on a night that failed elsewhere")
      ->type_name("FILE");

  app.add_option("--history", c.history_path,
                 "Append every analysed figure of this run to this SQLite file (created if missing); see "
                 "`gpunet-bench history`")
      ->type_name("FILE.sqlite");
  add_history_subcommand(app, c);

  auto* rep = app.add_subcommand("report", "Re-render every output from a report.json or results.jsonl, without MPI");
  rep->add_option("path", c.report_input, "report.json or results.jsonl")->required();
  rep->add_option("-o,--output", c.output_dir, "Directory for the rendered outputs (default: rerendered/ beside the input; never the run's own files)");
  rep->add_option("--spec", c.spec_path, "Judge the stored run against this acceptance spec (same exit codes as a run)")
      ->type_name("FILE");
  rep->add_option("--baseline", c.baseline_path, "Compare the stored run with this baseline")->type_name("FILE");
  rep->add_option("--fabric", c.fabric_path, "Read the stored run against this fabric (Slurm topology.conf)")->type_name("FILE");
  rep->add_option("--save-baseline", c.save_baseline_path, "Store the stored run's figures as a baseline in FILE")
      ->type_name("FILE");
  rep->add_option("--history", c.history_path, "Append the stored run's analysed figures to this SQLite file")
      ->type_name("FILE.sqlite");
  rep->add_option("--learn-baseline", c.learn_baseline_path,
                  "With --baseline: store it in FILE with the stored run's SAME figures added to their history")
      ->type_name("FILE");
}

}  // namespace

ParseResult parse_options(const std::vector<std::string>& args, SuiteList known) {
  Config c;
  c.argv = args;
  std::string suites = suite_names(known);
  std::string reduction = "max";
  std::string expect_ifaces;
  std::string time_budget;
  CLI::App app{"gpunet-bench: GPU cluster network and PCIe benchmark. Run as: mpirun -np N gpunet-bench [options]",
               "gpunet-bench"};
  build_app(app, c, known, suites, reduction);
  add_counter_options(app, c, expect_ifaces);
  app.add_option("--time-budget", time_budget,
                 "Fit the run's plan into this wall time (30m, 1h30m, 90s; start-up excluded, re-tests counted at their "
                 "most): shorter tcp flows, sampled matrix pairs, fewer sizes, as needed; the plan line says what was "
                 "given up. With --check, a budget the cheapest plan cannot meet is exit 2 (docs/running.md)")
      ->type_name("D");
  std::vector<OptionText> suite_text(known.size());
  for (size_t i = 0; i < known.size(); ++i)
    if (known[i].add_options) known[i].add_options(app, c, suite_text[i]);
  TrainingOptionText training_text;
  add_training_options(app, training_text);
  add_training_options(*app.get_subcommand("report"), training_text);  // re-rendering may change them
  add_evidence_options(app, c);

  // A value is quoted up to 120 characters (clip_quoted): a 100 KB value does not make a 100 KB line.
  auto fail = [](const std::string& m) {
    return ParseResult{std::nullopt, 2, clip_quoted("gpunet-bench: error: " + m + " (see gpunet-bench --help)", 120)};
  };
  if (const auto why = old_check_spelling(args); !why.empty()) return fail(why);
  std::vector<std::string> rev(args.rbegin(), args.rend() - (args.empty() ? 0 : 1));
  try {
    app.parse(rev);
  } catch (const CLI::CallForHelp&) {
    return {std::nullopt, 0, app.help()};
  } catch (const CLI::CallForAllHelp&) {
    return {std::nullopt, 0, app.help("", CLI::AppFormatMode::All)};
  } catch (const CLI::CallForVersion&) {
    return {std::nullopt, 0, app.version()};
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    std::replace(msg.begin(), msg.end(), '\n', ' ');
    return fail(msg);
  }

  if (app.got_subcommand("report")) {
    if (c.report_input.empty()) return fail("report: empty path (give a report.json or a results.jsonl)");
    if (app.get_subcommand("report")->count("-o") == 0) c.output_dir = rerender_dir_of(c.report_input);
  }
  if (const auto why = finish_history_request(app, c); !why.empty()) return fail(why);
  if (const auto why = empty_path_problem(app, c); !why.empty()) return fail(why);
  if (const auto why = finish_evidence_options(app, c)) return fail(*why);
  c.suites = split_list(suites);
  if (!time_budget.empty()) {
    const auto budget = parse_duration_text(time_budget);
    if (!budget) return fail("--time-budget: '" + time_budget + "' is not a duration (give e.g. 30m, 1h30m, 90s)");
    c.time_budget_s = *budget;
  }
  c.spec_names = spec_names(known);
  if (c.suites.empty()) return fail("--suites: empty list");
  for (const auto& s : c.suites)
    if (!find_suite(known, s))
      return fail("--suites: unknown suite '" + s + "' (known: " + suite_names(known) + "; " + suite_names(known, false) +
                  " on request)");
  if (c.max_bytes < c.min_bytes)
    return fail("-e/--maxbytes (" + std::to_string(c.max_bytes) + ") is smaller than -b/--minbytes (" + std::to_string(c.min_bytes) + ")");
  c.reduction = reduction == "mean" ? Reduction::mean : reduction == "min" ? Reduction::min : Reduction::max;
  if (c.output_dir.empty())
    return fail("-o/--output: empty directory name (give a DIR, or leave the option out; is a shell variable unset?)");
  c.expect_ifaces = split_list(expect_ifaces);
  for (size_t i = 0; i < known.size(); ++i)
    if (const auto& s = known[i]; s.finish_options)
      if (const auto why = s.finish_options(c, suite_text[i], app); !why.empty()) return fail(why);
  if (const auto why = size_limit_problem(c, physical_memory_bytes()); !why.empty()) return fail(why);
  if (const auto err = finish_training_options(training_text, c.training)) return fail(*err);
  return {std::move(c), 0, ""};
}

}  // namespace gpunet::bench
