#include "report/model/figure.hpp"

#include <stdexcept>

#include "report/model/json_fields.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

template <class E, size_t N>
E from_names(const std::string& s, const char* const (&names)[N], const char* what) {
  for (size_t i = 0; i < N; ++i)
    if (s == names[i]) return static_cast<E>(i);
  throw std::invalid_argument(std::string("unknown ") + what + " '" + s + "'");
}

constexpr const char* kBetter[] = {"higher", "lower"};
constexpr const char* kSubjects[] = {"cluster", "host", "gpu", "nic", "pair", "group"};
constexpr const char* kPaths[] = {"none", "tcp_flow", "tcp_link", "rdma_port", "pcie_link", "collective"};

std::string end_key(const std::string& host, int rank, const std::string& iface = "") {
  return host + (rank >= 0 ? "/" + std::to_string(rank) : "") + (iface.empty() ? "" : ":" + iface);
}

}  // namespace

std::string to_string(Better b) { return kBetter[static_cast<int>(b)]; }
Better better_from_string(const std::string& s) { return from_names<Better>(s, kBetter, "direction"); }
std::string to_string(SubjectKind k) { return kSubjects[static_cast<int>(k)]; }
SubjectKind subject_kind_from_string(const std::string& s) { return from_names<SubjectKind>(s, kSubjects, "subject kind"); }
std::string to_string(PathModel m) { return kPaths[static_cast<int>(m)]; }
PathModel path_model_from_string(const std::string& s) { return from_names<PathModel>(s, kPaths, "path model"); }

std::string subject_key(const Subject& s) {
  std::string k = to_string(s.kind) + ":";
  switch (s.kind) {
    case SubjectKind::cluster: return k + std::to_string(s.nodes) + "n";
    case SubjectKind::host: return k + end_key(s.host, s.rank);
    case SubjectKind::gpu:
    case SubjectKind::nic: return k + s.host + "/" + s.device;
    case SubjectKind::pair: return k + end_key(s.host, s.rank, s.iface) + "->" + end_key(s.dst_host, s.dst_rank, s.dst_iface);
    case SubjectKind::group: return k + s.group + "@" + end_key(s.host, -1, s.iface) + "/" + std::to_string(s.nodes) + "n";
  }
  return k;
}

std::string figure_key(const Figure& f) {
  std::string k = f.metric + "|" + subject_key(f.subject) + "|";
  bool first = true;
  for (const auto& [name, value] : f.parameters) {
    k += (first ? "" : ";") + name + "=" + value;
    first = false;
  }
  return k;
}

std::string metric_label(const Figure& f) {
  const auto dot = f.metric.rfind('.');
  return dot == std::string::npos ? f.metric : f.metric.substr(dot + 1);
}

void to_json(json& j, const Subject& s) {
  j = json{{"kind", to_string(s.kind)}};
  if (!s.host.empty()) j["host"] = s.host;
  if (s.rank >= 0) j["rank"] = s.rank;
  if (!s.dst_host.empty()) j["dst_host"] = s.dst_host;
  if (s.dst_rank >= 0) j["dst_rank"] = s.dst_rank;
  if (!s.iface.empty()) j["iface"] = s.iface;
  if (!s.dst_iface.empty()) j["dst_iface"] = s.dst_iface;
  if (!s.device.empty()) j["device"] = s.device;
  if (!s.group.empty()) j["group"] = s.group;
  if (s.nodes > 0) j["nodes"] = s.nodes;
}

void from_json(const json& j, Subject& s) {
  const FieldReader f(j);
  s.kind = f.parsed("kind", subject_kind_from_string);
  s.host = f.text_or("host", "");
  s.rank = f.int32_or("rank", -1);
  s.dst_host = f.text_or("dst_host", "");
  s.dst_rank = f.int32_or("dst_rank", -1);
  s.iface = f.text_or("iface", "");
  s.dst_iface = f.text_or("dst_iface", "");
  s.device = f.text_or("device", "");
  s.group = f.text_or("group", "");
  s.nodes = f.int32_or("nodes", 0);
}

void to_json(json& j, const FigureCeiling& c) {
  if (!c.known) {
    j = json{{"known", false}, {"reason", c.reason}};
    if (!c.explanation.empty()) j["explanation"] = c.explanation;
    return;
  }
  j = json{{"known", true}, {"value", c.value}, {"unit", c.unit}, {"derivation", c.derivation}, {"source", c.source}};
  if (!c.explanation.empty()) j["explanation"] = c.explanation;
}

void from_json(const json& j, FigureCeiling& c) {
  const FieldReader f(j);
  c.known = f.boolean_or("known", false);
  c.value = f.number_or("value", 0.0);
  c.unit = f.text_or("unit", "");
  c.derivation = f.text_or("derivation", "");
  c.source = f.text_or("source", "");
  c.reason = f.text_or("reason", "");
  c.explanation = f.text_or("explanation", "");
}

void to_json(json& j, const Figure& f) {
  j = json{{"metric", f.metric},         {"value", f.value},           {"unit", f.unit},
           {"better", to_string(f.better)}, {"subject", f.subject},    {"parameters", f.parameters},
           {"samples", f.samples},       {"path", to_string(f.path)}};
  if (f.sending_share > 1) j["sending_share"] = f.sending_share;
  if (f.receiving_share > 1) j["receiving_share"] = f.receiving_share;
  if (f.ceiling) j["ceiling"] = *f.ceiling;
  if (f.efficiency) j["efficiency"] = *f.efficiency;
}

void from_json(const json& j, Figure& fig) {
  const FieldReader f(j);
  fig.metric = f.text("metric");
  fig.value = f.number("value");
  fig.unit = f.text("unit");
  fig.better = f.has("better") ? f.parsed("better", better_from_string) : Better::higher;
  fig.subject = f.nested<Subject>("subject");
  fig.parameters = f.text_map_or_empty("parameters");
  fig.samples = f.numbers_or_empty("samples");
  fig.path = f.has("path") ? f.parsed("path", path_model_from_string) : PathModel::none;
  fig.sending_share = f.int32_or("sending_share", 1);
  fig.receiving_share = f.int32_or("receiving_share", 1);
  fig.ceiling.reset();
  if (f.has("ceiling")) fig.ceiling = std::make_shared<const FigureCeiling>(f.nested<FigureCeiling>("ceiling"));
  fig.efficiency.reset();
  // A null efficiency (not computed; a NaN is written as null) reads as none.
  if (f.has("efficiency") && !j.at("efficiency").is_null()) fig.efficiency = f.number("efficiency");
}

bool has_parameter(const Figure& f, const char* name, const char* value) {
  const auto it = f.parameters.find(name);
  return it != f.parameters.end() && it->second == value;
}

Subject cluster_subject(int nodes) {
  Subject s;
  s.nodes = nodes;
  return s;
}

Subject host_subject(const std::string& host) {
  Subject s;
  s.kind = SubjectKind::host;
  s.host = host;
  return s;
}

Subject gpu_subject(const std::string& host, int gpu) {
  Subject s;
  s.kind = SubjectKind::gpu;
  s.host = host;
  s.device = std::to_string(gpu);
  return s;
}

Subject pair_subject(const std::string& src_host, int src_rank, const std::string& dst_host, int dst_rank) {
  Subject s;
  s.kind = SubjectKind::pair;
  s.host = src_host;
  s.rank = src_rank;
  s.dst_host = dst_host;
  s.dst_rank = dst_rank;
  return s;
}

Subject rail_pair_subject(const std::string& src_host, int src_rank, const std::string& src_iface,
                          const std::string& dst_host, int dst_rank, const std::string& dst_iface) {
  Subject s = pair_subject(src_host, src_rank, dst_host, dst_rank);
  s.iface = src_iface;
  s.dst_iface = dst_iface;
  return s;
}

std::string end_name(const std::string& host, const std::string& iface) { return iface.empty() ? host : host + ":" + iface; }

Subject group_subject(const std::string& group, const std::string& root_host, int nodes) {
  Subject s;
  s.kind = SubjectKind::group;
  s.group = group;
  s.host = root_host;
  s.nodes = nodes;
  return s;
}

Figure rate_figure(std::string metric, double value, std::string unit, Subject subject, PathModel path) {
  Figure f;
  f.metric = std::move(metric);
  f.value = value;
  f.unit = std::move(unit);
  f.subject = std::move(subject);
  f.path = path;
  return f;
}

std::vector<double> rates_per_batch(double rate, double mean_us, const std::vector<double>& batch_means_us) {
  std::vector<double> out;
  if (!(mean_us > 0) || !(rate > 0)) return out;
  out.reserve(batch_means_us.size());
  for (const double t : batch_means_us)
    if (t > 0) out.push_back(rate * mean_us / t);
  return out;
}

Figure collective_figure(const std::string& suite, const std::string& memory, const Record& r, Subject subject,
                         const std::vector<double>& batch_means_us) {
  Figure f = rate_figure(suite + "." + r.name + ".busbw", r.busbw_GBps, "GB/s", std::move(subject), PathModel::collective);
  // busbw is busbw_factor x bytes / mean time, so each batch's busbw scales with 1 / its mean time.
  f.samples = rates_per_batch(r.busbw_GBps, r.time_us.mean, batch_means_us);
  f.parameters = {{"bytes", std::to_string(r.bytes)}, {"dtype", r.dtype},     {"op", r.op},
                  {"ranks", std::to_string(r.ranks)}, {"variant", r.variant}, {"memory", memory}};
  return f;
}

Figure time_figure(std::string metric, double value_us, Subject subject) {
  Figure f;
  f.metric = std::move(metric);
  f.value = value_us;
  f.unit = "us";
  f.better = Better::lower;
  f.subject = std::move(subject);
  return f;
}

}  // namespace gpunet::report
