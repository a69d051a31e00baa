// The figure model: what one record measured, in fields every reader takes without guessing.
// A figure is a metric ("tcp.goodput", "mpi.allreduce.busbw", "pcie.h2d", ...), its value and unit,
// the subject it describes (the cluster, a host, a GPU, a NIC, a directed pair, a group), the
// parameters it was measured with, which way is better, and its samples. Metric + subject +
// parameters identify it (figure_key). The suite that builds a record sets its figure; the analysis
// then attaches one ceiling and one efficiency (Figure::ceiling, Figure::efficiency), and every output
// reads those.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/model/figure_parameters.hpp"

namespace gpunet::report {

// Whether a larger value is better (bandwidth) or a smaller one (time).
enum class Better { higher, lower };
std::string to_string(Better b);
Better better_from_string(const std::string& s);  // throws std::invalid_argument

enum class SubjectKind { cluster, host, gpu, nic, pair, group };
std::string to_string(SubjectKind k);
SubjectKind subject_kind_from_string(const std::string& s);  // throws std::invalid_argument

// What a figure is about. Fields that do not apply to the kind stay empty (-1 for indices).
struct Subject {
  SubjectKind kind = SubjectKind::cluster;
  std::string host;      // host, gpu, nic: the host; pair: the source; group: the root (one-to-many etc.)
  int rank = -1;         // pair: the source rank; host: the rank that measured, when it matters
  std::string dst_host;  // pair: the destination
  int dst_rank = -1;
  // pair on one rail of several (tcp --tcp-if with more than one interface): each end's interface;
  // empty in a one-interface run, so its subjects and keys stay as they were.
  std::string iface, dst_iface;
  std::string device;    // gpu: "0", "1", ...; nic: "mlx5_0", "eth0"
  std::string group;     // group: "one-to-many", "many-to-one", "scaling"
  int nodes = 0;         // group / cluster: how many nodes it spans (0 = not stated)
};

// Which ceiling model applies to the path a figure's traffic took. The model reads the path facts the
// record carries (report/analysis/analysis.hpp lists them); none means no ceiling applies.
enum class PathModel { none, tcp_flow, tcp_link, rdma_port, pcie_link, collective };
std::string to_string(PathModel m);
PathModel path_model_from_string(const std::string& s);  // throws std::invalid_argument

// The ceiling the analysis attached to a figure.
struct FigureCeiling {
  bool known = false;
  double value = 0;
  std::string unit;
  std::string derivation;  // in words, ending with the figure
  std::string source;      // where the formula and its inputs come from
  std::string reason;      // why it is not known (when !known)
  std::string explanation; // why the figure is far from it (only below the threshold or above 100 %)
};

struct Figure {
  std::string metric;  // tcp.goodput, tcp.latency, mpi.allreduce.busbw, pcie.h2d, node.membw.triad, ...
  double value = 0;
  std::string unit;    // Gb/s, GB/s, us
  Better better = Better::higher;
  Subject subject;
  // Named parameters (bytes, test, streams, dtype, op, in_place, memory, ranks, ...), values as text so
  // the identity is exact. Not a parameter: anything that varies from run to run (bytes received).
  FigureParameters parameters;
  std::vector<double> samples;  // per iteration, or per timeline interval, in `unit`
  // The path model and, for a flow that shares a link with others, its share of each end.
  PathModel path = PathModel::none;
  int sending_share = 1;    // flows leaving the source host at once (one-to-many: N)
  int receiving_share = 1;  // flows arriving at the destination host at once (many-to-one: N)
  // Set by the analysis (report::analyze), nowhere else. Immutable and shared: the figures of one path
  // with the same explanation of their gap, or none, hold one ceiling (a million flows, a few thousand paths).
  std::shared_ptr<const FigureCeiling> ceiling;
  std::optional<double> efficiency;  // value / ceiling, for a passed record with a known ceiling
};

// Whether the figure has the parameter `name` with exactly `value`.
bool has_parameter(const Figure& f, const char* name, const char* value);

// "tcp.goodput|pair:a/0->b/1|streams=1;test=matrix": stable across runs, unique within one.
std::string subject_key(const Subject& s);
std::string figure_key(const Figure& f);

// A short label of the metric for tables and chart titles: its last part ("goodput", "busbw", "h2d").
std::string metric_label(const Figure& f);

void to_json(gpunet::json& j, const Subject& s);
void from_json(const gpunet::json& j, Subject& s);
void to_json(gpunet::json& j, const FigureCeiling& c);
void from_json(const gpunet::json& j, FigureCeiling& c);
void to_json(gpunet::json& j, const Figure& f);
void from_json(const gpunet::json& j, Figure& f);

// Constructors of the common subjects.
Subject cluster_subject(int nodes);
Subject host_subject(const std::string& host);
Subject gpu_subject(const std::string& host, int gpu);
Subject pair_subject(const std::string& src_host, int src_rank, const std::string& dst_host, int dst_rank);
// The same pair between two interfaces (a rail): "pair:a/0:eth1->b/1:eth1".
Subject rail_pair_subject(const std::string& src_host, int src_rank, const std::string& src_iface,
                          const std::string& dst_host, int dst_rank, const std::string& dst_iface);
// "host:iface", or the host when there is no interface: one end of a pair in verdicts and tables.
std::string end_name(const std::string& host, const std::string& iface);
Subject group_subject(const std::string& group, const std::string& root_host, int nodes);

// A rate figure (better = higher) or a time figure (better = lower, in us) with its subject.
Figure rate_figure(std::string metric, double value, std::string unit, Subject subject, PathModel path);
Figure time_figure(std::string metric, double value_us, Subject subject);

struct Record;
// The figure of one point of a collective sweep (mpi, nccl; memory "host" or "device"):
// <suite>.<collective>.busbw in GB/s from the record's typed fields (name, bytes, dtype, op, ranks,
// variant, busbw_GBps), on `subject` (the cluster, or the nodes of a scaling step). Its samples are
// the busbw of each timed batch (rates_per_batch of the record's batch mean times).
Figure collective_figure(const std::string& suite, const std::string& memory, const Record& r, Subject subject,
                         const std::vector<double>& batch_means_us);

// The rate each timed batch reached, for a rate figure computed from the mean iteration time:
// `rate` was derived as work / mean_us, so batch k reached rate * mean_us / batch_means_us[k] (the
// same work in that batch's mean time). The median of these is not `rate` (the mean of times is not the
// mean of rates); they are the figure's spread, in its unit. Empty when there is no mean time.
std::vector<double> rates_per_batch(double rate, double mean_us, const std::vector<double>& batch_means_us);

}  // namespace gpunet::report
