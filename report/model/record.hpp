// The result model: typed records in SI units, and the report document that carries them.
// Everything that measures produces Records; everything that renders consumes a Report.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.hpp"

#include "report/model/figure.hpp"
#include "report/model/flow_cpu_facts.hpp"
#include "report/model/flow_facts.hpp"

namespace gpunet::report {

// 2: every record that measured something carries a typed `figure` (report/model/figure.hpp).
// Version 1 files are read through report/model/legacy_figure.hpp.
inline constexpr int kSchemaVersion = 2;

enum class Status { passed, failed, skipped, timed_out };

std::string to_string(Status s);
Status status_from_string(const std::string& s);  // throws std::invalid_argument

// What a record is, as its suite states it (Record::kind, "kind" in the JSON). The report picks a
// record's table, subject, network and training role by it, never by the suite's name. Adding a
// kind of measurement adds a value here and a case where a reader needs it (report/document/table_model.hpp).
enum class RecordKind {
  unstated,           // a record written before suites stated it: record_kind() derives it
  collective_point,   // one size of a collective sweep or scaling sweep (mpi, nccl)
  collective_other,   // another record of a collective suite: transport, topology, scaling summary, error
  tcp_flow,           // a TCP flow between two ends (neighbours, matrix, one-to-many, ... re-tests)
  tcp_group,          // the aggregate of one-to-many or many-to-one flows
  tcp_matrix,         // the summary record of a TCP matrix
  tcp_latency,        // a TCP ping-pong
  tcp_congestion,     // a congestion impact factor: a victim's figure alone and under load
  tcp_fabric,         // one leaf uplink's oversubscription (the fabric test)
  tcp_other,          // TCP set-up and checks
  rdma_bandwidth,     // an RDMA WRITE bandwidth (one way or both)
  rdma_latency,       // an RDMA WRITE latency
  rdma_other,         // RDMA devices, rails, connections, GPUDirect checks
  pcie_copy,          // a host<->device copy
  host_memory,        // a host memory bandwidth kernel
  topology_node,      // one node's topology
  topology_compare,   // how the nodes' topologies differ
  training_step,      // an emulated training step
  other,              // anything else: counters, checks, descriptions
};
std::string to_string(RecordKind k);
RecordKind record_kind_from_string(const std::string& s);  // throws std::invalid_argument

enum class Transport { none, tcp, rdma };
// The network a record of that kind measured over (tcp: every tcp_* kind; rdma: every rdma_* kind).
Transport transport_of(RecordKind k);

// Statistics of per-iteration times, in microseconds.
struct TimeStats {
  double min = 0, p50 = 0, mean = 0, p99 = 0, max = 0, stddev = 0;
  double cv = 0;      // stddev / mean (a fraction, not percent)
  int64_t samples = 0;
};

// One measured (or skipped) result. What it measured is its `figure` (absent for records that only
// describe: setup, devices, topology, findings); suite-specific data goes in `extra`, with units in
// key names (for example rtt_us), and the path facts the ceiling models read (report/analysis/analysis.hpp).
struct Record {
  std::string suite;   // mpi, topo, tcp, rdma, nccl, pcie, node
  std::string name;    // allreduce, bandwidth, latency, ...
  std::string variant; // out-of-place, in-place, pair label, ...
  int64_t bytes = 0;
  int64_t count = 0;
  std::string dtype;
  std::string op;
  int ranks = 0;       // ranks that took part
  int rank = 0;        // rank that produced the record
  std::string host;    // host that produced the record
  Status status = Status::passed;
  std::string reason;  // why skipped / failed / timed out
  TimeStats time_us;
  double algbw_GBps = 0;
  double busbw_GBps = 0;
  std::string check = "off";  // ok, wrong, off
  int64_t wrong = 0;          // wrong elements found by verification
  gpunet::json extra = gpunet::json::object();
  // extra.link and extra.dst_link, a TCP record's interface facts, when they are held apart from
  // extra: a results.jsonl's reader keeps one copy of equal facts for all its records
  // (report/render/results_jsonl.hpp). Read them through link_facts(), which looks in both places;
  // written, they are in extra again (written_extra()).
  std::shared_ptr<const gpunet::json> link, dst_link;
  // extra.cpu, a TCP flow's CPU cost, when a results.jsonl's reader holds it typed (flow_cpu_facts.hpp);
  // written, it is in extra again.
  std::optional<FlowCpuFacts> cpu;
  // extra.timeline_Gbps, a TCP flow's goodput per interval, when a results.jsonl's reader found it the
  // very figure.samples and keeps it there only; written, it is in extra again.
  bool timeline_in_samples = false;
  // A TCP flow's facts of extra (its numbers, set texts, addresses, stability summary, tcp_info, stream
  // bytes), when a results.jsonl's reader holds them typed (flow_facts.hpp); read them through
  // extra_at() and the extra_number/extra_integer/extra_string below; written, they are in extra again.
  FlowFacts flow;
  std::optional<Figure> figure;
  RecordKind kind = RecordKind::unstated;  // as its suite states it; read it through record_kind()
};

// The record's kind: the one its suite stated, else (a file written before suites stated it)
// derived from its suite and test names by report/model/legacy_figure.cpp, the one reader that knows them.
RecordKind record_kind(const Record& r);

// The two interfaces of a TCP record: its own (extra.link; a flow's sender) and a flow's receiver's
// (extra.dst_link).
enum class LinkEnd { own, destination };
const char* link_key(LinkEnd end);  // "link", "dst_link"
// The record's facts of that interface, held apart or in extra; nullptr when it has none.
const gpunet::json* link_facts_at(const Record& r, LinkEnd end);
// The same; an empty object when it has none.
const gpunet::json& link_facts(const Record& r, LinkEnd end);
// Moves extra's link facts into r.link and r.dst_link; returns each one's text (empty when absent),
// by which a reader of many records finds equal facts and keeps one copy of them.
std::array<std::string, 2> hold_links_apart(Record& r);
// Moves extra.cpu into r.cpu when it has the shape that writes back the same (flow_cpu_facts.hpp).
void hold_cpu_apart(Record& r);
// extra.timeline_Gbps, as the tcp suite writes a flow's goodput per interval beside figure.samples.
inline constexpr const char* kTimelineKey = "timeline_Gbps";
// Drops extra.timeline_Gbps when it is figure.samples to the bit, floats alone (then it writes back the
// same), and says so in r.timeline_in_samples.
void hold_timeline_apart(Record& r);
// Moves a TCP flow's numbers and set texts out of extra into r.flow (a flow with a figure only, so that
// a version-1 file's reading of extra never meets them).
void hold_flow_facts_apart(Record& r);
// The value of extra's top-level `key` wherever the record holds it: in extra, or apart from it (the
// link facts, the CPU cost, the timeline, the flow's facts). One made from typed facts is put in
// `scratch`, which must outlive the use of the pointer. nullptr when the record has none.
const gpunet::json* extra_at(const Record& r, std::string_view key, gpunet::json& scratch);
// extra's top-level `key` wherever the record holds it, read as jsonx reads it from extra (a missing
// key or a value of another type reads as absent).
std::optional<double> extra_number(const Record& r, std::string_view key);
std::optional<int> extra_integer(const Record& r, std::string_view key);
std::optional<std::string> extra_string(const Record& r, std::string_view key);
// What a flow's table row reads of it, without building the JSON of facts held typed: the sum of its
// streams' extra.tcp_info[].`key` integers (0 without any), and the number of its extra.stability.dips.
long long tcp_info_sum(const Record& r, const char* key);
size_t stability_dips(const Record& r);
// Whether anything of extra is held apart from it (the link facts, the CPU cost, the timeline, the
// flow's facts).
bool extra_held_apart(const Record& r);
// extra as a file holds it: with what is held apart put back.
gpunet::json written_extra(const Record& r);

// How busy one node's CPUs were with other work while one suite ran (from the counters records,
// report/judge/host_load.hpp): the run's provenance keeps one per suite and node.
struct HostLoadEntry {
  std::string suite, host;
  double others_pct = 0;  // of all CPU time: other work than this run's processes
  double steal_pct = 0;   // of all CPU time: taken by the hypervisor
  bool busy = false;      // --host-busy-pct exceeded (or steal above a third of it)
};

struct Provenance {
  std::vector<std::string> argv;
  std::vector<std::string> hosts;      // one per rank, by rank
  std::vector<int> ranks_per_node;     // in order of first appearance of each host
  std::string reduction = "max";
  std::string version;
  std::string git_commit;
  std::string mpi_version;
  std::string hwloc_version;
  std::string cuda_version;            // empty when absent
  std::string nccl_version;            // empty when absent
  std::string start_time;              // ISO 8601 UTC
  std::string end_time;
  std::vector<HostLoadEntry> host_load;  // per suite and node; empty: not measured (or an older file)
};

struct Report {
  int schema_version = kSchemaVersion;
  Provenance provenance;
  std::vector<Record> results;
  gpunet::json topology = gpunet::json::object();  // per-node sections, filled by topo
  gpunet::json findings = gpunet::json::array();   // {severity, message, ...}
  gpunet::json extra = gpunet::json::object();      // verdicts, baseline, ... (later stages)
};

void to_json(gpunet::json& j, const TimeStats& t);
void from_json(const gpunet::json& j, TimeStats& t);
void to_json(gpunet::json& j, const Record& r);
void from_json(const gpunet::json& j, Record& r);
void to_json(gpunet::json& j, const Provenance& p);
void from_json(const gpunet::json& j, Provenance& p);
void to_json(gpunet::json& j, const Report& r);

// The hosts the run spanned: the provenance's (one per rank); for a file without it, the records'
// hosts, both ends of every pair figure and the topology's hosts.
std::set<std::string> run_hosts(const Report& rep);
void from_json(const gpunet::json& j, Report& r);

// ISO 8601 UTC timestamp of now, second resolution.
std::string utc_now_iso8601();

}  // namespace gpunet::report
