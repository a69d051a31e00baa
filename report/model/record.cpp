#include "report/model/record.hpp"

#include <bit>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <stdexcept>

#include "report/model/json_access.hpp"
#include "report/model/json_fields.hpp"

namespace gpunet::report {

using gpunet::json;

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
  const FieldReader f(j);
  t.min = f.number("min");
  t.p50 = f.number("p50");
  t.mean = f.number("mean");
  t.p99 = f.number("p99");
  t.max = f.number("max");
  t.stddev = f.number("stddev");
  t.cv = f.number("cv");
  t.samples = f.integer("samples");
}

void to_json(json& j, const Record& r) {
  j = json{{"suite", r.suite},   {"name", r.name},         {"variant", r.variant},
           {"bytes", r.bytes},   {"count", r.count},       {"dtype", r.dtype},
           {"op", r.op},         {"ranks", r.ranks},       {"rank", r.rank},
           {"host", r.host},     {"status", to_string(r.status)},
           {"reason", r.reason}, {"time_us", r.time_us},   {"algbw_GBps", r.algbw_GBps},
           {"busbw_GBps", r.busbw_GBps}, {"check", r.check}, {"wrong", r.wrong},
           {"extra", written_extra(r)}};
  if (r.figure) j["figure"] = *r.figure;
  if (r.kind != RecordKind::unstated) j["kind"] = to_string(r.kind);
}

const char* link_key(LinkEnd end) { return end == LinkEnd::own ? "link" : "dst_link"; }

const json* link_facts_at(const Record& r, LinkEnd end) {
  const auto& apart = end == LinkEnd::own ? r.link : r.dst_link;
  return apart ? apart.get() : jsonx::object_at(r.extra, link_key(end));
}

const json& link_facts(const Record& r, LinkEnd end) {
  const json* facts = link_facts_at(r, end);
  return facts ? *facts : jsonx::empty_object();
}

std::array<std::string, 2> hold_links_apart(Record& r) {
  std::array<std::string, 2> texts;
  for (const LinkEnd end : {LinkEnd::own, LinkEnd::destination}) {
    if (!r.extra.is_object()) break;
    const auto it = r.extra.find(link_key(end));
    if (it == r.extra.end() || !it->is_object()) continue;
    texts[static_cast<size_t>(end)] = it->dump();
    (end == LinkEnd::own ? r.link : r.dst_link) = std::make_shared<const json>(std::move(*it));
    r.extra.erase(it);
  }
  return texts;
}

void hold_cpu_apart(Record& r) {
  if (!r.extra.is_object()) return;
  const auto it = r.extra.find("cpu");
  if (it == r.extra.end()) return;
  if (auto facts = flow_cpu_facts(*it)) {
    r.cpu = std::move(facts);
    r.extra.erase(it);
  }
}

void hold_timeline_apart(Record& r) {
  if (!r.figure || !r.extra.is_object()) return;
  const auto it = r.extra.find(kTimelineKey);
  if (it == r.extra.end() || !it->is_array()) return;
  const std::vector<double>& samples = r.figure->samples;
  if (it->size() != samples.size()) return;
  for (size_t i = 0; i < samples.size(); ++i) {
    const json& v = (*it)[i];
    // A float of the very same bits writes back the same text; an integer would not.
    if (!v.is_number_float() || std::bit_cast<uint64_t>(v.get<double>()) != std::bit_cast<uint64_t>(samples[i])) return;
  }
  r.extra.erase(it);
  r.timeline_in_samples = true;
}

void hold_flow_facts_apart(Record& r) {
  if (r.kind == RecordKind::tcp_flow && r.figure) r.flow.take_from(r.extra);
}

const json* extra_at(const Record& r, std::string_view key, json& scratch) {
  for (const LinkEnd end : {LinkEnd::own, LinkEnd::destination})
    if (key == link_key(end)) return link_facts_at(r, end);
  if (key == "cpu" && r.cpu) return &(scratch = to_json(*r.cpu));
  if (key == kTimelineKey && r.timeline_in_samples && r.figure) return &(scratch = r.figure->samples);
  if (auto held = r.flow.at(key)) return &(scratch = std::move(*held));
  if (!r.extra.is_object()) return nullptr;
  const auto it = r.extra.find(key);
  return it == r.extra.end() ? nullptr : &*it;
}

std::optional<double> extra_number(const Record& r, std::string_view key) {
  json scratch;
  return jsonx::number(extra_at(r, key, scratch));
}

std::optional<int> extra_integer(const Record& r, std::string_view key) {
  json scratch;
  return jsonx::integer(extra_at(r, key, scratch));
}

std::optional<std::string> extra_string(const Record& r, std::string_view key) {
  if (const std::string* held = r.flow.text(key)) return *held;
  json scratch;
  return jsonx::string(extra_at(r, key, scratch));
}

long long tcp_info_sum(const Record& r, const char* key) {
  if (const auto held = r.flow.tcp_info_sum(key)) return *held;
  long long n = 0;
  if (const json* info = jsonx::array_at(r.extra, "tcp_info"))
    for (const auto& stream : *info) n += jsonx::integer(stream, key).value_or(0);
  return n;
}

size_t stability_dips(const Record& r) {
  if (r.flow.holds_stability()) return 0;  // held only without dips
  const auto* dips = jsonx::array_at(jsonx::section(r.extra, "stability"), "dips");
  return dips ? dips->size() : 0;
}

bool extra_held_apart(const Record& r) { return r.link || r.dst_link || r.cpu || r.timeline_in_samples || !r.flow.empty(); }

json written_extra(const Record& r) {
  if (!extra_held_apart(r)) return r.extra;
  json extra = r.extra;
  if (r.link) extra[link_key(LinkEnd::own)] = *r.link;
  if (r.dst_link) extra[link_key(LinkEnd::destination)] = *r.dst_link;
  if (r.cpu) extra["cpu"] = to_json(*r.cpu);
  if (r.timeline_in_samples && r.figure) extra[kTimelineKey] = r.figure->samples;
  r.flow.put_into(extra);
  return extra;
}

void from_json(const json& j, Record& r) {
  const FieldReader f(j);
  r.suite = f.text("suite");
  r.name = f.text("name");
  r.variant = f.text_or("variant", "");
  r.bytes = f.integer_or("bytes", 0);
  r.count = f.integer_or("count", 0);
  r.dtype = f.text_or("dtype", "");
  r.op = f.text_or("op", "");
  r.ranks = f.int32_or("ranks", 0);
  r.rank = f.int32_or("rank", 0);
  r.host = f.text_or("host", "");
  r.status = f.parsed("status", status_from_string);
  r.reason = f.text_or("reason", "");
  if (f.has("time_us")) r.time_us = f.nested<TimeStats>("time_us");
  r.algbw_GBps = f.number_or("algbw_GBps", 0.0);
  r.busbw_GBps = f.number_or("busbw_GBps", 0.0);
  r.check = f.text_or("check", "off");
  r.wrong = f.integer_or("wrong", 0);
  r.extra = f.any_or("extra", json::object());
  r.figure.reset();
  if (f.has("figure")) r.figure = f.nested<Figure>("figure");
  r.kind = f.has("kind") ? f.parsed("kind", record_kind_from_string) : RecordKind::unstated;
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
  if (p.host_load.empty()) return;
  json loads = json::array();
  for (const auto& l : p.host_load)
    loads.push_back({{"suite", l.suite}, {"host", l.host}, {"others_pct", l.others_pct}, {"steal_pct", l.steal_pct}, {"busy", l.busy}});
  j["host_load"] = loads;
}

void from_json(const json& j, Provenance& p) {
  const FieldReader f(j);
  p.argv = f.texts_or_empty("argv");
  p.hosts = f.texts_or_empty("hosts");
  p.ranks_per_node = f.int32s_or_empty("ranks_per_node");
  p.reduction = f.text_or("reduction", "max");
  p.version = f.text_or("version", "");
  p.git_commit = f.text_or("git_commit", "");
  p.mpi_version = f.text_or("mpi_version", "");
  p.hwloc_version = f.text_or("hwloc_version", "");
  p.cuda_version = f.text_or("cuda_version", "");
  p.nccl_version = f.text_or("nccl_version", "");
  p.start_time = f.text_or("start_time", "");
  p.end_time = f.text_or("end_time", "");
  p.host_load.clear();
  if (const auto it = j.find("host_load"); it != j.end() && it->is_array())
    for (const auto& e : *it) {
      if (!e.is_object()) continue;
      HostLoadEntry l;
      l.suite = e.value("suite", std::string{}), l.host = e.value("host", std::string{});
      l.others_pct = e.contains("others_pct") && e["others_pct"].is_number() ? e["others_pct"].get<double>() : 0;
      l.steal_pct = e.contains("steal_pct") && e["steal_pct"].is_number() ? e["steal_pct"].get<double>() : 0;
      l.busy = e.contains("busy") && e["busy"].is_boolean() && e["busy"].get<bool>();
      p.host_load.push_back(std::move(l));
    }
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
  const FieldReader f(j);
  r.schema_version = static_cast<int>(f.integer("schema_version"));
  r.provenance = f.nested<Provenance>("provenance");
  r.results = f.nested<std::vector<Record>>("results");
  r.topology = f.any_or("topology", json::object());
  r.findings = f.array_or("findings", json::array());
  r.extra = f.any_or("extra", json::object());
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
