#include "report/model/legacy_figure.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "report/model/busbw.hpp"
#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

std::vector<double> numbers(const json& extra, const char* key) {
  std::vector<double> out;
  if (const json* a = jsonx::array_at(extra, key))
    for (const auto& v : *a)
      if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

// The pair a record names (src_host/dst_host), else the host that measured it.
Subject subject_of(const Record& r) {
  const auto src = extra_string(r, "src_host"), dst = extra_string(r, "dst_host");
  if (!src || !dst) return host_subject(r.host);
  return pair_subject(*src, extra_integer(r, "src_rank").value_or(-1), *dst, extra_integer(r, "dst_rank").value_or(-1));
}

// Flow tests of the tcp suite name their test in the variant; other records are told apart by it.
void name_the_test(Figure& f, const Record& r) {
  if (r.name == "bandwidth" || r.name == "aggregate" || r.name == "latency") {
    f.parameters["test"] = r.name == "latency" ? "latency" : r.variant;
  } else {
    f.parameters["test"] = r.name;
    if (!r.variant.empty()) f.parameters["variant"] = r.variant;
  }
}

Figure goodput_figure(const Record& r, double goodput) {
  const bool aggregate = r.name == "aggregate";
  const PathModel path = aggregate || !link_facts_at(r, LinkEnd::destination) ? PathModel::tcp_link : PathModel::tcp_flow;
  Figure f = rate_figure(r.suite + ".goodput", goodput, "Gb/s",
                         aggregate ? group_subject(r.variant, jsonx::string(r.extra, "root_host").value_or(r.host), r.ranks)
                                   : subject_of(r),
                         path);
  name_the_test(f, r);
  f.parameters["streams"] = std::to_string(jsonx::integer(r.extra, "streams").value_or(r.count));
  if (jsonx::string(r.extra, "direction") == "bidirectional") f.parameters["direction"] = "bidirectional";
  const int flows = jsonx::integer(r.extra, "concurrent_flows").value_or(1);
  if (r.variant == "one-to-many" && !aggregate) f.sending_share = flows;
  if (r.variant == "many-to-one" && !aggregate) f.receiving_share = flows;
  f.samples = numbers(r.extra, kTimelineKey);
  return f;
}

// An RDMA record names its pair in extra.pair {hosts, ranks}.
Subject rdma_subject(const Record& r) {
  const json& pair = jsonx::section(r.extra, "pair");
  const json* hosts = jsonx::array_at(pair, "hosts");
  const json* ranks = jsonx::array_at(pair, "ranks");
  if (!hosts || !ranks || hosts->size() != 2 || ranks->size() != 2) return host_subject(r.host);
  return pair_subject((*hosts)[0].get<std::string>(), (*ranks)[0].get<int>(), (*hosts)[1].get<std::string>(),
                      (*ranks)[1].get<int>());
}

Figure rdma_figure(const Record& r, std::optional<double> bw) {
  Figure f = bw ? rate_figure("rdma.write.bw", *bw, "Gb/s", rdma_subject(r), PathModel::rdma_port)
                : time_figure("rdma.write.latency", r.time_us.p50, rdma_subject(r));
  f.parameters = {{"bytes", std::to_string(r.bytes)}, {"memory", jsonx::string(r.extra, "memory").value_or("host")}};
  if (!jsonx::object_at(r.extra, "pair")) f.parameters["variant"] = r.variant;
  if (r.name == "write_bw_bidir") f.parameters["direction"] = "bidirectional";
  const auto batches = numbers(r.extra, "samples_us");
  f.samples = bw ? rates_per_batch(*bw, r.time_us.mean, batches) : batches;
  return f;
}

Figure sweep_figure(const Record& r) {
  const int nodes = jsonx::integer(r.extra, "nodes").value_or(0);
  const bool scaling = r.variant.rfind("scaling", 0) == 0 || r.name == "scaling";
  const Subject s = scaling ? group_subject("scaling", "", nodes) : cluster_subject(nodes);
  const std::string memory = r.suite == "mpi" ? "host" : "device";
  const auto batches = numbers(r.extra, "samples_us");
  if (r.name != "scaling") return collective_figure(r.suite, memory, r, s, batches);
  Record named = r;  // a scaling summary point names its collective in the variant
  named.name = r.variant;
  return collective_figure(r.suite, memory, named, s, batches);
}

Figure copy_figure(const Record& r) {
  std::string what = r.name;
  std::replace(what.begin(), what.end(), '_', '.');
  const json* pcie = jsonx::object_at(r.extra, "pcie");
  auto gpu = jsonx::integer(r.extra, "gpu_index");
  if (!gpu && pcie) gpu = jsonx::integer(*pcie, "gpu_index");
  const PathModel path = pcie || r.suite == "pcie" ? PathModel::pcie_link
                         : link_facts_at(r, LinkEnd::own) ? PathModel::tcp_link
                                                            : PathModel::none;
  Figure f = rate_figure(r.suite + "." + what, r.algbw_GBps, "GB/s", gpu ? gpu_subject(r.host, *gpu) : host_subject(r.host),
                         path);
  f.parameters = {{"bytes", std::to_string(r.bytes)}, {"variant", r.variant}};
  f.samples = numbers(r.extra, "repetitions_GBps");
  return f;
}

Figure latency_figure(const Record& r) {
  Figure f = time_figure(r.suite + ".latency", r.time_us.p50, subject_of(r));
  name_the_test(f, r);
  f.parameters["bytes"] = std::to_string(r.bytes);
  f.samples = numbers(r.extra, "samples_us");
  return f;
}

// The kind of a record that does not state one, by its suite and test names, as the suites named
// them before they stated kinds. The first rule that matches wins; a name ending in '*' is a prefix.
struct legacy_kind_rule {
  std::string_view suite, name;
  RecordKind kind;
};
constexpr std::array<legacy_kind_rule, 23> kLegacyKindRules{{
    {"mpi", "*", RecordKind::collective_point},  // a point when it has bytes, else collective_other
    {"nccl", "*", RecordKind::collective_point},
    {"tcp", "bandwidth", RecordKind::tcp_flow},
    {"tcp", "aggregate", RecordKind::tcp_group},
    {"tcp", "matrix", RecordKind::tcp_matrix},
    {"tcp", "latency", RecordKind::tcp_latency},
    {"tcp", "congestion", RecordKind::tcp_congestion},
    {"tcp", "fabric", RecordKind::tcp_fabric},
    {"tcp", "*", RecordKind::tcp_other},
    {"rdma", "write_bw", RecordKind::rdma_bandwidth},
    {"rdma", "write_bw_bidir", RecordKind::rdma_bandwidth},
    {"rdma", "write_lat", RecordKind::rdma_latency},
    {"rdma", "*", RecordKind::rdma_other},
    {"pcie", "h2d", RecordKind::pcie_copy},
    {"pcie", "d2h", RecordKind::pcie_copy},
    {"pcie", "bidir", RecordKind::pcie_copy},
    {"pcie", "pcie_*", RecordKind::pcie_copy},
    {"node", "pcie_*", RecordKind::pcie_copy},
    {"node", "membw_*", RecordKind::host_memory},
    {"topo", "node", RecordKind::topology_node},
    {"topo", "compare", RecordKind::topology_compare},
    {"train", "step", RecordKind::training_step},
    {"*", "*", RecordKind::other},
}};

bool legacy_name_matches(std::string_view pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*') return name.rfind(pattern.substr(0, pattern.size() - 1), 0) == 0;
  return name == pattern;
}

RecordKind legacy_record_kind(const Record& r) {
  for (const auto& rule : kLegacyKindRules) {
    if (!legacy_name_matches(rule.suite, r.suite) || !legacy_name_matches(rule.name, r.name)) continue;
    if (rule.kind == RecordKind::collective_point && r.bytes <= 0) return RecordKind::collective_other;
    return rule.kind;
  }
  return RecordKind::other;
}

}  // namespace

RecordKind record_kind(const Record& r) { return r.kind != RecordKind::unstated ? r.kind : legacy_record_kind(r); }

// What version 1 judged a record by, in its order: goodput_Gbps, bw_Gbps, busbw, algbw; a record
// with only times is a latency figure.
std::optional<Figure> legacy_figure(const Record& r) {
  if (r.status == Status::skipped) return std::nullopt;
  if (const auto g = jsonx::number(r.extra, "goodput_Gbps")) return goodput_figure(r, *g);
  if (const auto bw = jsonx::number(r.extra, "bw_Gbps")) return rdma_figure(r, bw);
  if (r.busbw_GBps > 0) return sweep_figure(r);
  if (r.algbw_GBps > 0) return copy_figure(r);
  if (r.time_us.samples > 0)
    return transport_of(record_kind(r)) == Transport::rdma ? rdma_figure(r, std::nullopt) : latency_figure(r);
  return std::nullopt;
}

// The ceiling a version-1 report.json stored, kept until the figure is analysed again: extra.ceiling
// as an object, or (the tcp suite's) the derivation in extra.ceiling with extra.ceiling_Gbps and
// extra.efficiency beside it.
void keep_stored_ceiling(Figure& f, const json& extra) {
  static const json kNone;
  const auto found = extra.find("ceiling");
  const json& stored = found != extra.end() ? *found : kNone;
  if (const auto gbps = jsonx::number(extra, "ceiling_Gbps"); gbps && !stored.is_object()) {
    FigureCeiling c;
    c.known = true, c.value = *gbps, c.unit = "Gb/s", c.source = "stored by a version-1 report";
    c.derivation = stored.is_string() ? stored.get<std::string>() : "";
    f.ceiling = std::make_shared<const FigureCeiling>(std::move(c));
    if (const auto e = jsonx::number(extra, "efficiency")) f.efficiency = *e;
    return;
  }
  if (!stored.is_object()) return;
  FigureCeiling c = stored.get<FigureCeiling>();
  if (!stored.contains("known") && jsonx::number(stored, "value")) c.known = true;  // a value is a known ceiling
  if (c.known && c.source.empty()) c.source = "stored by a version-1 report";
  f.ceiling = std::make_shared<const FigureCeiling>(std::move(c));
  if (const auto e = jsonx::number(stored, "efficiency")) f.efficiency = *e;
}

void upgrade_legacy_report(Report& rep) {
  if (rep.schema_version >= 2) return;
  for (Record& r : rep.results) {
    if (!r.figure) r.figure = legacy_figure(r);
    if (r.figure && r.extra.is_object() && (r.extra.contains("ceiling") || r.extra.contains("ceiling_Gbps")))
      keep_stored_ceiling(*r.figure, r.extra);
    if (r.extra.is_object())
      for (const char* stale : {"ceiling", "ceiling_Gbps", "efficiency", "ceiling_derivation", "ceiling_unknown"})
        r.extra.erase(stale);
  }
  rep.schema_version = kSchemaVersion;
}

}  // namespace gpunet::report
