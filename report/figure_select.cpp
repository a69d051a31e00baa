// The adapter from today's Records to FigureFacts, and the table of names a spec may use.
#include "report/figure_select.hpp"

#include <algorithm>

#include "report/json_access.hpp"
#include "report/verdicts_facts.hpp"

namespace gpunet::report {

using nlohmann::json;

namespace {

constexpr const char* kTcpPairKinds[] = {"neighbours", "matrix", "one-to-many", "many-to-one", "retest"};

bool is_group_kind(const std::string& kind) { return kind == "one-to-many" || kind == "many-to-one" || kind == "retest"; }

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

const KnownTest* find_test(const std::string& suite, const std::string& test) {
  for (const auto& t : known_tests())
    if (t.suite == suite && (t.test == test || t.open || contains(t.kinds, test))) return &t;
  return nullptr;
}


FactSubject fact_subject_of(const Record& r) {
  FactSubject s;
  const auto src = jsonx::string(r.extra, "src_host");
  const auto dst = jsonx::string(r.extra, "dst_host");
  if (src && dst) {
    s.kind = r.name == "latency" ? FactSubjectKind::link : FactSubjectKind::pair;
    s.src_host = *src, s.dst_host = *dst;
    return s;
  }
  if (const auto root = jsonx::string(r.extra, "root_host")) {
    s.kind = FactSubjectKind::group, s.host = *root;
    return s;
  }
  const json& p = jsonx::section(r.extra, "pcie");
  auto gpu = jsonx::integer(p, "gpu_index");
  if (!gpu) gpu = jsonx::integer(r.extra, "gpu_index");
  if (gpu) {
    s.kind = FactSubjectKind::gpu, s.host = r.host, s.gpu = "gpu" + std::to_string(*gpu);
    return s;
  }
  const bool collective = r.suite == "mpi" || r.suite == "nccl";
  if (collective && r.ranks > 1) return s;  // the group of all ranks
  s.kind = FactSubjectKind::host, s.host = r.host;
  return s;
}

// The test kind: TCP's bandwidth variants; for every other record its variant.
std::string kind_of(const Record& r) { return r.variant; }

double timeline_scale(const std::string& metric) { return metric == "extra.goodput_Gbps" ? 1.0 : 0.0; }

std::vector<double> numbers(const json& arr) {
  std::vector<double> out;
  if (!arr.is_array()) return out;
  for (const auto& v : arr)
    if (v.is_number()) out.push_back(v.get<double>());
  return out;
}

void fill_samples(FigureFact& f, const Record& r) {
  if (f.metric.rfind("time_us.", 0) == 0) {
    if (const auto* s = jsonx::array_at(r.extra, "samples_us")) f.samples = numbers(*s);
    f.samples_total = std::max<int64_t>(r.time_us.samples, static_cast<int64_t>(f.samples.size()));
    f.samples_from = f.samples.empty() ? "" : "iterations";
    return;
  }
  if (timeline_scale(f.metric) > 0)
    if (const auto* t = jsonx::array_at(r.extra, "timeline_Gbps")) f.samples = numbers(*t);
  f.samples_total = static_cast<int64_t>(f.samples.size());
  f.samples_from = f.samples.empty() ? "" : "timeline";
}

// The ceiling and efficiency the analysis attached to the record's figure (report/figure.hpp); a
// version-1 record read by the legacy adapter has its figure too.
void fill_ceiling(FigureFact& f, const Record& r) {
  if (!r.figure || !r.figure->ceiling) return;
  const FigureCeiling& c = *r.figure->ceiling;
  if (c.known) {
    f.ceiling = c.value;
    f.efficiency = r.figure->efficiency;
  } else {
    f.ceiling_note = c.reason;
  }
  if (!c.explanation.empty()) f.ceiling_note = c.explanation;
  // A ceiling in another unit than the figure's (time figures) is no ceiling of the figure.
  if (!c.unit.empty() && f.unit != c.unit) f.ceiling.reset(), f.efficiency.reset();
}

double median_of_values(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The record's dip: from a timeline of rates when there is one, else the slowest 1 % of iterations.
std::optional<double> dip_of(const Record& r) {
  for (const auto& [key, v] : r.extra.items()) {
    if (key.rfind("timeline", 0) != 0) continue;
    const auto rates = numbers(v);
    if (rates.size() < 2) continue;
    const double med = median_of_values(rates);
    if (med > 0) return std::max(0.0, 1 - *std::min_element(rates.begin(), rates.end()) / med);
  }
  if (r.time_us.samples >= 2 && r.time_us.p99 > 0) return std::max(0.0, 1 - r.time_us.p50 / r.time_us.p99);
  return std::nullopt;
}

FigureFact fact(const Record& r, const std::string& metric) {
  FigureFact f;
  f.suite = r.suite, f.test = r.name, f.kind = kind_of(r), f.metric = metric;
  f.subject = fact_subject_of(r);
  f.dtype = r.dtype, f.op = r.op, f.ranks = r.ranks;
  f.bytes_is_size = bytes_is_message_size(r);
  f.bytes = f.bytes_is_size ? r.bytes : 0;
  f.status = r.status, f.reason = r.reason;
  f.value = figure_value(r, metric);
  f.unit = figure_unit(metric);
  f.higher_is_better = metric.rfind("time_us.", 0) != 0 && metric.find("_us") == std::string::npos;
  f.iface = jsonx::string(jsonx::section(r.extra, "link"), "iface").value_or("");
  fill_ceiling(f, r);
  fill_samples(f, r);
  f.dip = dip_of(r);
  f.fastest = r.time_us.min;
  return f;
}

bool selected(const Record& r, const FigureQuery& q) {
  if (r.suite != q.suite) return false;
  const bool tcp_kind = q.suite == "tcp" && std::find(std::begin(kTcpPairKinds), std::end(kTcpPairKinds), q.test) != std::end(kTcpPairKinds);
  if (tcp_kind) return r.name == "bandwidth" && r.variant == q.test;
  if (r.name != q.test) return false;
  if (!q.kind.empty()) return r.variant == q.kind;
  if (q.suite == "tcp" && q.test == "bandwidth") return !is_group_kind(r.variant);
  return true;
}

}  // namespace

// A TCP flow's bytes are what it received in its time, not a message size; a latency's are.
bool bytes_is_message_size(const Record& r) { return !(r.suite == "tcp" && (r.name == "bandwidth" || r.name == "aggregate")); }

std::string subject_label(const FactSubject& s) {
  switch (s.kind) {
    case FactSubjectKind::pair: return s.src_host + " -> " + s.dst_host;
    case FactSubjectKind::link: return s.src_host + " <-> " + s.dst_host;
    case FactSubjectKind::host: return s.host.empty() ? "one host" : s.host;
    case FactSubjectKind::gpu: return s.host + " " + s.gpu;
    case FactSubjectKind::group: return s.host.empty() ? "all ranks" : "flows at " + s.host;
  }
  return "";
}

std::vector<std::string> subject_hosts(const FactSubject& s) {
  if (s.kind == FactSubjectKind::pair || s.kind == FactSubjectKind::link) return {s.src_host, s.dst_host};
  if (s.host.empty()) return {};
  return {s.host};
}

std::string subject_noun(FactSubjectKind k, bool plural) {
  const char* one = "group";
  switch (k) {
    case FactSubjectKind::pair: one = "directed pair"; break;
    case FactSubjectKind::link: one = "pair"; break;
    case FactSubjectKind::host: one = "host"; break;
    case FactSubjectKind::gpu: one = "GPU"; break;
    case FactSubjectKind::group: one = "group"; break;
  }
  return plural ? std::string(one) + "s" : std::string(one);
}

std::vector<FigureFact> select_figures(const Report& report, const FigureQuery& q) {
  std::vector<FigureFact> out;
  for (const auto& r : report.results)
    if (selected(r, q)) out.push_back(fact(r, q.metric));
  return out;
}

std::vector<FigureFact> baseline_figures(const Report& report) {
  std::vector<FigureFact> out;
  for (const auto& r : report.results) {
    if (r.status != Status::passed) continue;
    if (r.extra.contains("goodput_Gbps") && jsonx::number(r.extra, "goodput_Gbps")) {
      out.push_back(fact(r, "extra.goodput_Gbps"));
      continue;
    }
    if (r.time_us.samples > 0 || jsonx::array_at(r.extra, "samples_us")) out.push_back(fact(r, "time_us.p50"));
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const FigureFact& f) { return !f.value; }), out.end());
  return out;
}

std::string figure_key(const FigureFact& f) {
  std::string k = f.suite + "/" + f.test;
  for (const auto* part : {&f.kind, &f.dtype, &f.op})
    if (!part->empty()) k += "/" + *part;
  if (f.bytes_is_size) k += "/" + std::to_string(f.bytes) + "B";
  if (f.subject.kind == FactSubjectKind::group) k += "/np" + std::to_string(f.ranks);
  k += " " + f.metric.substr(f.metric.rfind('.') + 1);
  if (f.subject.kind != FactSubjectKind::group || !f.subject.host.empty()) k += " " + subject_label(f.subject);
  return k;
}

const std::vector<KnownTest>& known_tests() {
  static const std::vector<KnownTest> table{
      {"topo", "node", {}, false},
      {"topo", "compare", {}, false},
      {"tcp", "bandwidth", {"neighbours", "matrix", "one-to-many", "many-to-one", "retest"}, false},
      {"tcp", "aggregate", {"one-to-many", "many-to-one"}, false},
      {"tcp", "latency", {}, false},
      {"tcp", "matrix", {}, false},
      {"mpi", "allreduce", {}, false},
      {"mpi", "allgather", {}, false},
      {"mpi", "reduce_scatter", {}, false},
      {"mpi", "broadcast", {}, false},
      {"mpi", "reduce", {}, false},
      {"mpi", "alltoall", {}, false},
      {"mpi", "sendrecv", {}, false},
      {"mpi", "scaling", {}, false},
      {"nccl", "allreduce", {}, false},
      {"nccl", "allgather", {}, false},
      {"nccl", "reduce_scatter", {}, false},
      {"nccl", "broadcast", {}, false},
      {"nccl", "reduce", {}, false},
      {"nccl", "alltoall", {}, false},
      {"nccl", "sendrecv", {}, false},
      {"nccl", "scaling", {}, false},
      {"nccl", "transport", {}, false},
      {"rdma", "write_bw", {}, false},
      {"rdma", "write_bw_bidir", {}, false},
      {"rdma", "write_lat", {}, false},
      {"rdma", "latency", {}, false},
      {"rdma", "connect", {}, false},
      {"rdma", "gpudirect", {}, false},
      {"rdma", "devices", {}, false},
      {"pcie", "h2d", {}, false},
      {"pcie", "d2h", {}, false},
      {"pcie", "bidir", {}, false},
      {"node", "*", {}, true},
  };
  return table;
}

std::optional<NameProblem> unknown_name(const std::string& suite, const std::string& test, const std::string& kind) {
  std::vector<std::string> suites, tests;
  for (const auto& t : known_tests()) {
    if (!contains(suites, t.suite)) suites.push_back(t.suite);
    if (t.suite == suite && !t.open) tests.push_back(t.test);
  }
  const auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (!contains(suites, suite)) return NameProblem{"suite", "'" + suite + "' is not a suite (valid: " + list(suites) + ")"};
  const KnownTest* t = find_test(suite, test);
  if (!t) {
    for (const auto& k : known_tests())
      if (k.suite == suite)
        for (const auto& x : k.kinds)
          if (!contains(tests, x)) tests.push_back(x);
    return NameProblem{"name", "'" + test + "' is not a test of suite " + suite + " (valid: " + list(tests) + ")"};
  }
  if (!kind.empty() && suite == "tcp" && !t->kinds.empty() && !contains(t->kinds, kind) && t->test == test)
    return NameProblem{"kind", "'" + kind + "' is not a kind of " + suite + "/" + test + " (valid: " + list(t->kinds) + ")"};
  return std::nullopt;
}

}  // namespace gpunet::report
