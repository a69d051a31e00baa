#include "report/record.hpp"

#include <chrono>
#include <ctime>
#include <stdexcept>

namespace gpunet::report {

using nlohmann::json;

std::string to_string(Status s) {
  switch (s) {
    case Status::passed: return "passed";
    case Status::failed: return "failed";
    case Status::skipped: return "skipped";
    case Status::timed_out: return "timed_out";
  }
  return "failed";
}

Status status_from_string(const std::string& s) {
  if (s == "passed") return Status::passed;
  if (s == "failed") return Status::failed;
  if (s == "skipped") return Status::skipped;
  if (s == "timed_out") return Status::timed_out;
  throw std::invalid_argument("unknown status '" + s + "'");
}

void to_json(json& j, const TimeStats& t) {
  j = json{{"min", t.min}, {"p50", t.p50}, {"mean", t.mean}, {"p99", t.p99},
           {"max", t.max}, {"stddev", t.stddev}, {"cv", t.cv}, {"samples", t.samples}};
}

void from_json(const json& j, TimeStats& t) {
  t.min = j.at("min").get<double>();
  t.p50 = j.at("p50").get<double>();
  t.mean = j.at("mean").get<double>();
  t.p99 = j.at("p99").get<double>();
  t.max = j.at("max").get<double>();
  t.stddev = j.at("stddev").get<double>();
  t.cv = j.at("cv").get<double>();
  t.samples = j.at("samples").get<int64_t>();
}

void to_json(json& j, const Record& r) {
  j = json{{"suite", r.suite},   {"name", r.name},         {"variant", r.variant},
           {"bytes", r.bytes},   {"count", r.count},       {"dtype", r.dtype},
           {"op", r.op},         {"ranks", r.ranks},       {"rank", r.rank},
           {"host", r.host},     {"status", to_string(r.status)},
           {"reason", r.reason}, {"time_us", r.time_us},   {"algbw_GBps", r.algbw_GBps},
           {"busbw_GBps", r.busbw_GBps}, {"check", r.check}, {"wrong", r.wrong},
           {"extra", r.extra}};
  if (r.figure) j["figure"] = *r.figure;
}

void from_json(const json& j, Record& r) {
  r.suite = j.at("suite").get<std::string>();
  r.name = j.at("name").get<std::string>();
  r.variant = j.value("variant", "");
  r.bytes = j.value("bytes", int64_t{0});
  r.count = j.value("count", int64_t{0});
  r.dtype = j.value("dtype", "");
  r.op = j.value("op", "");
  r.ranks = j.value("ranks", 0);
  r.rank = j.value("rank", 0);
  r.host = j.value("host", "");
  r.status = status_from_string(j.at("status").get<std::string>());
  r.reason = j.value("reason", "");
  if (j.contains("time_us")) r.time_us = j.at("time_us").get<TimeStats>();
  r.algbw_GBps = j.value("algbw_GBps", 0.0);
  r.busbw_GBps = j.value("busbw_GBps", 0.0);
  r.check = j.value("check", "off");
  r.wrong = j.value("wrong", int64_t{0});
  r.extra = j.value("extra", json::object());
  r.figure.reset();
  if (const auto it = j.find("figure"); it != j.end() && it->is_object()) r.figure = it->get<Figure>();
}

void to_json(json& j, const Provenance& p) {
  j = json{{"argv", p.argv},
           {"hosts", p.hosts},
           {"ranks_per_node", p.ranks_per_node},
           {"reduction", p.reduction},
           {"version", p.version},
           {"git_commit", p.git_commit},
           {"mpi_version", p.mpi_version},
           {"hwloc_version", p.hwloc_version},
           {"cuda_version", p.cuda_version},
           {"nccl_version", p.nccl_version},
           {"start_time", p.start_time},
           {"end_time", p.end_time}};
}

void from_json(const json& j, Provenance& p) {
  p.argv = j.value("argv", std::vector<std::string>{});
  p.hosts = j.value("hosts", std::vector<std::string>{});
  p.ranks_per_node = j.value("ranks_per_node", std::vector<int>{});
  p.reduction = j.value("reduction", "max");
  p.version = j.value("version", "");
  p.git_commit = j.value("git_commit", "");
  p.mpi_version = j.value("mpi_version", "");
  p.hwloc_version = j.value("hwloc_version", "");
  p.cuda_version = j.value("cuda_version", "");
  p.nccl_version = j.value("nccl_version", "");
  p.start_time = j.value("start_time", "");
  p.end_time = j.value("end_time", "");
}

void to_json(json& j, const Report& r) {
  j = json{{"schema_version", r.schema_version},
           {"provenance", r.provenance},
           {"results", r.results},
           {"topology", r.topology},
           {"findings", r.findings},
           {"extra", r.extra}};
}

void from_json(const json& j, Report& r) {
  r.schema_version = j.at("schema_version").get<int>();
  r.provenance = j.at("provenance").get<Provenance>();
  r.results = j.at("results").get<std::vector<Record>>();
  r.topology = j.value("topology", json::object());
  r.findings = j.value("findings", json::array());
  r.extra = j.value("extra", json::object());
}

std::string utc_now_iso8601() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::set<std::string> run_hosts(const Report& rep) {
  std::set<std::string> hosts(rep.provenance.hosts.begin(), rep.provenance.hosts.end());
  if (!hosts.empty()) return hosts;
  for (const auto& r : rep.results) {
    if (!r.host.empty()) hosts.insert(r.host);
    if (r.figure && r.figure->subject.kind == SubjectKind::pair) hosts.insert({r.figure->subject.host, r.figure->subject.dst_host});
  }
  if (rep.topology.is_object())
    for (const auto& [host, section] : rep.topology.items())
      if (host != "nodes") hosts.insert(host);
  hosts.erase("");
  return hosts;
}

}  // namespace gpunet::report
