// Figures: the numbers that promises and baselines judge, each with its identity (metric, subject,
// parameters), its direction and its samples. This is the one place that turns the records' typed
// figures (report/model/figure.hpp: subject, value, unit, direction, samples, ceiling) into the facts the
// acceptance verdicts and the baseline work on (FigureFact). It reads no suite's extra keys: a
// version-1 file gets its figures from report/model/legacy_figure.cpp first.
//
// Identity of a figure:
//   metric      suite + test + figure path, e.g. tcp / bandwidth / extra.goodput_Gbps
//   subject     a directed pair (src host -> dst host), a pair without direction (latency), one host,
//               one GPU of a host, or the group of all ranks (collectives)
//   parameters  the test kind (tcp: neighbours, matrix, one-to-many, many-to-one, retest; other suites:
//               the record's variant), dtype, op, rank count and bytes where bytes is a message size
//               (never for TCP flows, whose bytes are what the flow happened to receive)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

enum class FactSubjectKind { pair, link, host, gpu, group };

struct FactSubject {
  FactSubjectKind kind = FactSubjectKind::group;
  std::string src_host, dst_host;  // pair (directed) and link (undirected: src/dst as measured)
  std::string host;                // host, gpu; the root host of a group flow
  std::string gpu;                 // gpu: its label on the host ("gpu0", a bus id)
};

// "a -> b", "a <-> b", "a", "a gpu0", "all ranks".
std::string subject_label(const FactSubject& s);
// The hosts a subject involves (both ends of a pair, the host of a host or GPU; none for a group).
std::vector<std::string> subject_hosts(const FactSubject& s);
// "directed pair", "pair", "host", "GPU", "group".
std::string subject_noun(FactSubjectKind k, bool plural);

struct FigureFact {
  std::string suite, test, kind;  // kind: the test kind (see above); may be empty
  std::string metric;             // figure path: busbw_GBps, time_us.p99, extra.goodput_Gbps, ...
  FactSubject subject;
  std::string dtype, op;
  int ranks = 0;
  int64_t bytes = 0;              // a message size; 0 when the record's bytes is not one
  int rail = -1;                  // the figure's "rail" parameter on a run with several rails, else -1
  bool bytes_is_size = false;
  Status status = Status::passed; // of the record the figure comes from
  std::string reason;             // the record's reason when it did not pass
  std::optional<double> value;    // nullopt when the record does not carry the figure
  std::string unit;
  bool higher_is_better = true;
  std::optional<double> ceiling;  // in `unit`: the path's detected bottleneck
  std::optional<double> efficiency;  // a fraction (1.0 = 100 %), from the analysis or the suite
  std::string ceiling_note;       // why there is no ceiling, or what it is
  std::vector<double> samples;    // per iteration (times) or per timeline interval (rates), in `unit`
  std::string samples_from;       // "iterations", "timeline", "batches", or "" when the figure has none
  int64_t samples_total = 0;      // how many the run took (>= samples.size())
  double fastest = 0;             // the fastest iteration, for time figures
  std::optional<double> dip;      // from the figure's samples: rates 1 - slowest/median, times 1 - median/p99
};

// What a promise asks for: suite and test (record name, or a test kind of the suite), optionally the
// test kind, the figure path, the size.
struct FigureQuery {
  std::string suite, test, kind, metric;
  std::optional<int64_t> bytes;
  std::optional<int> rail;  // only the flows of this rail (records' extra.rail), else every rail
  std::string iface;        // only the flows between interfaces of this name (extra.src_iface), else any
  // From the suite's description (test_rule): the test a kind named as the test stands for (tcp
  // "matrix": bandwidth records of variant matrix), and the variants a query without a kind leaves out.
  std::string stands_for;
  std::vector<std::string> left_out;
};

// The figures of every record of suite/test (all statuses; callers judge status and value). A test
// that names a kind of the suite's test (tcp "matrix") selects that kind. Without a kind, a TCP
// bandwidth query takes the flows that had their path to themselves (not one-to-many, many-to-one or
// the re-tests of suspects).
std::vector<FigureFact> select_figures(const Report& report, const FigureQuery& q);
// The records select_figures reads, in the same order: a caller that judges a million flows makes
// their facts one at a time (figure_fact) instead of holding them all.
std::vector<const Record*> select_records(const Report& report, const FigureQuery& q);
// The fact select_figures makes of a selected record, for the query's figure path `metric`.
FigureFact figure_fact(const Record& r, const std::string& metric);

// What a latency test's times are (the tcp and rdma ping-pongs' time_us, their tables, the latency
// promises), in the words every output uses.
inline constexpr const char* kLatencyMeasure = "half the round trip";

// Whether a baseline keeps the record's figure: a passed record with a positive figure (with its
// samples, figure_fact_of). Read one record at a time: a million facts are never held at once.
bool keeps_baseline_figure(const Record& r);
// The one figure of a record that a baseline keeps (the record's own figure, samples included).
FigureFact figure_fact_of(const Record& r);

// The spec's name of a figure's value (ci/SPEC.md, "Figures"): extra.goodput_Gbps for tcp.goodput,
// extra.bw_Gbps for rdma.write.bw, busbw_GBps for a collective, algbw_GBps for another GB/s rate,
// time_us.p50 for a time. A query with this name reads the figure itself, samples included.
std::string figure_path(const Figure& f);

// Whether a record's bytes is a message size (false for TCP flows: what the flow received).
bool bytes_is_message_size(const Record& r);
// The record's message size (a FigureFact's bytes): its bytes when they are one, else 0.
int64_t message_size(const Record& r);

// Stable identity: metric, subject, parameters; no measured quantity in it.
std::string figure_key(const FigureFact& f);

// A test a spec may name, as its suite describes it (bench/core/suite.hpp, Suite::spec_tests; the
// suite list hands every suite's to the spec reader).
// A figure a test's records carry, as a spec may name it: its metric and the record path the
// judges read it at ("tcp.goodput" at extra.goodput_Gbps, "mpi.allreduce.busbw" at busbw_GBps). A
// suite states it without its own name ("goodput"); bench::spec_names prefixes the suite. "*": any
// metric of the suite (the suite names its figures at run time).
struct KnownMetric {
  std::string metric;
  std::string path;
};

struct KnownTest {
  std::string suite, test;
  std::vector<std::string> kinds;     // test kinds (record variants) that may stand in for the test name
  std::vector<std::string> left_out;  // the kinds a query that names none leaves out (re-tests, groups)
  std::string rate_figure;            // what a bandwidth promise reads when it names no figure ("": busbw_GBps)
  bool open = false;                  // the suite names its records at run time (any name accepted)
  std::vector<KnownMetric> metrics;   // the figures its records carry, by metric
};
using KnownTests = std::vector<KnownTest>;

// nullopt when suite/test(/kind) names something a suite produces, else the field at fault ("suite",
// "name" or "kind") and the problem with the valid choices ("'bandwith' is not a test of suite tcp
// (valid: bandwidth, ...)").
struct NameProblem {
  std::string field;
  std::string message;
};
std::optional<NameProblem> unknown_name(const KnownTests& known, const std::string& suite, const std::string& test,
                                        const std::string& kind);

// How a query for suite/test selects records: the test a kind stands for, the kinds left out, and
// the figure a bandwidth promise reads by default.
struct TestRule {
  std::string stands_for;
  std::vector<std::string> left_out;
  std::string rate_figure;
};
TestRule test_rule(const KnownTests& known, const std::string& suite, const std::string& test);

// The record path of the metric a spec names for suite/test ("tcp.goodput" -> extra.goodput_Gbps);
// else the problem, with the metrics the test's records carry.
struct MetricPath {
  std::string path;
  std::string problem;  // empty when found
};
MetricPath metric_path(const KnownTests& known, const std::string& suite, const std::string& test, const std::string& metric);

}  // namespace gpunet::report
