// Baseline construction from a run, and the baseline file (strict to read).
#include "report/baseline.hpp"

#include <cstdio>
#include <fstream>

#include "report/baseline_stats.hpp"
#include "report/file_write.hpp"
#include "report/json_file.hpp"
#include "report/spec_reader.hpp"

namespace gpunet::report {

using nlohmann::json;
using Reader = StrictReader<BaselineError>;

namespace {

std::string base_key(const Record& r) {
  std::string k = r.suite + "/" + r.name;
  for (const auto* part : {&r.variant, &r.dtype, &r.op})
    if (!part->empty()) k += "/" + *part;
  return k + "/" + std::to_string(r.bytes) + "B/np" + std::to_string(r.ranks);
}

std::vector<double> samples_of(const Record& r) {
  std::vector<double> out;
  const auto it = r.extra.find("samples_us");
  if (it == r.extra.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (!v.is_number()) return {};
    out.push_back(v.get<double>());
  }
  return out;
}

TimeStats time_stats(const Reader& rd, const json& j, const std::string& path) {
  rd.object(j, path, {"min", "p50", "mean", "p99", "max", "stddev", "cv", "samples"});
  TimeStats t;
  const auto num = [&](const char* key, double& out) {
    const auto& v = rd.required(j, path, key);
    out = rd.number(v, Reader::join(path, key), 0, 1e18, false);
  };
  num("min", t.min), num("p50", t.p50), num("mean", t.mean), num("p99", t.p99);
  num("max", t.max), num("stddev", t.stddev), num("cv", t.cv);
  const auto& s = rd.required(j, path, "samples");
  t.samples = rd.integer(s, Reader::join(path, "samples"), 0, INT64_MAX);
  return t;
}

BaselineFigure figure(const Reader& rd, const json& j, const std::string& path) {
  rd.object(j, path, {"suite", "name", "variant", "dtype", "op", "host", "bytes", "ranks", "time_us", "samples_us",
                      "samples_total"});
  BaselineFigure f;
  const auto str = [&](const char* key, std::string& out, bool required) {
    const auto* v = json_field(j, key);
    if (!v && required) rd.fail(Reader::join(path, key), "missing (required)");
    if (v) out = rd.string(*v, Reader::join(path, key), !required);
  };
  str("suite", f.suite, true), str("name", f.name, true), str("variant", f.variant, false);
  str("dtype", f.dtype, false), str("op", f.op, false), str("host", f.host, false);
  if (const auto* v = json_field(j, "bytes")) f.bytes = rd.integer(*v, Reader::join(path, "bytes"), 0, INT64_MAX);
  if (const auto* v = json_field(j, "ranks")) f.ranks = static_cast<int>(rd.integer(*v, Reader::join(path, "ranks"), 0, 1 << 24));
  const auto& t = rd.required(j, path, "time_us");
  f.time_us = time_stats(rd, t, Reader::join(path, "time_us"));
  if (const auto* v = json_field(j, "samples_us")) {
    const auto& arr = rd.array(*v, Reader::join(path, "samples_us"));
    for (std::size_t i = 0; i < arr.size(); ++i)
      f.samples_us.push_back(rd.number(arr[i], Reader::join(path, "samples_us") + "[" + std::to_string(i) + "]", 0, 1e18, false));
  }
  f.samples_total = f.time_us.samples;
  if (const auto* v = json_field(j, "samples_total"))
    f.samples_total = rd.integer(*v, Reader::join(path, "samples_total"), 0, INT64_MAX);
  return f;
}

}  // namespace

Baseline make_baseline(const Report& report, const CompareRule& rule) {
  Baseline b;
  b.created = utc_now_iso8601();
  b.git_commit = report.provenance.git_commit;
  b.hosts = report.provenance.hosts;
  b.rule = rule;
  std::vector<const Record*> picked;
  for (const auto& r : report.results)
    if (r.status == Status::passed && (r.time_us.samples > 0 || !samples_of(r).empty())) picked.push_back(&r);
  // Keys: add the host, then the rank, only where the shorter key is not unique in this run.
  std::map<std::string, int> uses;
  for (const auto* r : picked) ++uses[base_key(*r)];
  std::map<std::string, int> host_uses;
  for (const auto* r : picked)
    if (uses[base_key(*r)] > 1) ++host_uses[base_key(*r) + "@" + r->host];
  for (const auto* r : picked) {
    std::string key = base_key(*r);
    if (uses[key] > 1) {
      key += "@" + r->host;
      if (host_uses[key] > 1) key += "#r" + std::to_string(r->rank);
    }
    const auto samples = samples_of(*r);
    b.figures[key] = BaselineFigure{r->suite, r->name, r->variant, r->dtype, r->op, r->host, r->bytes, r->ranks, r->time_us,
                                    quantile_summary(samples, kMaxStoredSamples),
                                    std::max<int64_t>(r->time_us.samples, static_cast<int64_t>(samples.size()))};
  }
  return b;
}

json baseline_to_json(const Baseline& b) {
  json figures = json::object();
  for (const auto& [key, f] : b.figures)
    figures[key] = json{{"suite", f.suite}, {"name", f.name},   {"variant", f.variant}, {"dtype", f.dtype},
                        {"op", f.op},       {"host", f.host},   {"bytes", f.bytes},     {"ranks", f.ranks},
                        {"time_us", f.time_us}, {"samples_us", f.samples_us}, {"samples_total", f.samples_total}};
  return json{{"gpunet_baseline", kBaselineVersion},
              {"created", b.created},
              {"git_commit", b.git_commit},
              {"hosts", b.hosts},
              {"rule", {{"min_samples", b.rule.min_samples}, {"alpha", b.rule.alpha}, {"min_effect_pct", b.rule.min_effect_pct}}},
              {"figures", figures}};
}

Baseline baseline_from_json(const json& doc, const std::string& source) {
  const Reader rd(source);
  if (!doc.is_object()) rd.fail("", "expected an object, got " + Reader::got(doc));
  const auto* version = json_field(doc, "gpunet_baseline");
  if (!version) rd.fail("gpunet_baseline", "missing (this is not a gpunet-bench baseline; make one with --save-baseline)");
  if (rd.integer(*version, "gpunet_baseline", 0, INT64_MAX) != kBaselineVersion)
    rd.fail("gpunet_baseline", Reader::got(*version) + " is not supported (this program reads version 1)");
  rd.object(doc, "", {"gpunet_baseline", "created", "git_commit", "hosts", "rule", "figures"});
  Baseline b;
  if (const auto* v = json_field(doc, "created")) b.created = rd.string(*v, "created", true);
  if (const auto* v = json_field(doc, "git_commit")) b.git_commit = rd.string(*v, "git_commit", true);
  if (const auto* v = json_field(doc, "hosts")) {
    const auto& arr = rd.array(*v, "hosts");
    for (std::size_t i = 0; i < arr.size(); ++i) b.hosts.push_back(rd.string(arr[i], "hosts[" + std::to_string(i) + "]", true));
  }
  if (const auto* v = json_field(doc, "rule")) {
    rd.object(*v, "rule", {"min_samples", "alpha", "min_effect_pct"});
    if (const auto* x = json_field(*v, "min_samples")) b.rule.min_samples = static_cast<int>(rd.integer(*x, "rule.min_samples", 3, 1000000));
    if (const auto* x = json_field(*v, "alpha")) b.rule.alpha = rd.number(*x, "rule.alpha", 0, 0.5, true);
    if (const auto* x = json_field(*v, "min_effect_pct")) b.rule.min_effect_pct = rd.number(*x, "rule.min_effect_pct", 0, 1000, false);
  }
  const auto* figures = json_field(doc, "figures");
  if (!figures) rd.fail("figures", "missing (required)");
  if (!figures->is_object()) rd.fail("figures", "expected an object, got " + Reader::got(*figures));
  for (const auto& [key, f] : figures->items()) b.figures[key] = figure(rd, f, "figures." + key);
  return b;
}

Baseline load_baseline(const std::string& path) {
  return baseline_from_json(read_json_file<BaselineError>(path, kBaselineInput), path);
}

void save_baseline(const std::string& path, const Baseline& b) {
  try {
    write_file_replacing(path, baseline_to_json(b).dump(1) + "\n");
  } catch (const std::runtime_error& e) {
    throw BaselineError("--save-baseline: " + std::string(e.what()));
  }
}

}  // namespace gpunet::report
