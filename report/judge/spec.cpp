#include "report/judge/spec.hpp"

#include "report/judge/figure_select.hpp"
#include "report/model/json_file.hpp"
#include "report/judge/spec_match.hpp"
#include "report/judge/spec_reader.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>

namespace gpunet::report {

using gpunet::json;

namespace {

constexpr std::array<const char*, 6> kPathNames{"X", "PIX", "PXB", "PHB", "NODE", "SYS"};

using Reader = StrictReader<SpecError>;

const json* field(const json& j, const char* key) { return json_field(j, key); }

std::string at(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

// What a promise's figure is read against: the spec's version and the names the suites accept.
struct spec_selector_rules {
  int version;
  const KnownTests& known;
};

FigureSelector selector(const Reader& r, const json& j, const std::string& path, const char* default_figure,
                        const spec_selector_rules& rules) {
  FigureSelector s;
  const auto token = [&](const char* key) {
    const auto& v = r.required(j, path, key);
    auto text = r.string(v, Reader::join(path, key));
    if (!std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '.' || c == ':' || c == '-'; }))
      r.fail(Reader::join(path, key), "'" + text + "' is not a suite or figure name (letters, digits, _ . : -)");
    return text;
  };
  s.suite = token("suite");
  s.name = token("name");
  if (const auto* v = field(j, "variant")) s.variant = r.string(*v, Reader::join(path, "variant"));
  const bool v2_test = field(j, "test") != nullptr;
  if (const auto* v = field(j, "test")) {
    if (rules.version < 2) r.fail(Reader::join(path, "test"), "needs spec_version 2 (in version 1 name the test kind in `name` or `variant`)");
    if (!s.variant.empty()) r.fail(path, "give one of test and variant");
    s.variant = r.string(*v, Reader::join(path, "test"));
  }
  if (const auto problem = unknown_name(rules.known, s.suite, s.name, s.variant))
    r.fail(Reader::join(path, problem->field == "kind" ? (v2_test ? "test" : "variant") : problem->field), problem->message);
  auto rule = test_rule(rules.known, s.suite, s.name);
  s.stands_for = std::move(rule.stands_for);
  s.left_out = std::move(rule.left_out);
  if (const auto* v = field(j, "bytes")) s.bytes = r.integer(*v, Reader::join(path, "bytes"), 0, INT64_MAX);
  if (const auto* v = field(j, "rail")) s.rail = static_cast<int>(r.integer(*v, Reader::join(path, "rail"), 0, 1023));
  if (const auto* v = field(j, "interface")) s.iface = r.string(*v, Reader::join(path, "interface"));
  s.figure = default_figure;
  // A suite without a bus bandwidth names what a bandwidth promise reads (tcp: its goodput).
  if (s.figure == "busbw_GBps" && !rule.rate_figure.empty()) s.figure = rule.rate_figure;
  if (const auto* v = field(j, "figure")) {
    // A metric ("tcp.goodput") as its suite states it, or a record path (busbw_GBps, extra.KEY, ...).
    s.figure = r.string(*v, Reader::join(path, "figure"));
    if (!valid_figure_path(s.figure)) {
      auto named = metric_path(rules.known, s.suite, s.name, s.figure);
      if (!named.problem.empty()) r.fail(Reader::join(path, "figure"), named.problem);
      s.figure = std::move(named.path);
    }
  }
  return s;
}

LinkSpec link(const Reader& r, const json& j, const std::string& path) {
  r.object(j, path, {"gen", "width"});
  LinkSpec l;
  if (const auto* v = field(j, "gen")) l.gen = static_cast<int>(r.integer(*v, Reader::join(path, "gen"), 1, 7));
  if (const auto* v = field(j, "width")) {
    const auto w = r.integer(*v, Reader::join(path, "width"), 1, 32);
    if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16 && w != 32)
      r.fail(Reader::join(path, "width"), std::to_string(w) + " is not a PCIe width (1, 2, 4, 8, 16 or 32)");
    l.width = static_cast<int>(w);
  }
  if (!l.gen && !l.width) r.fail(path, "states nothing (give gen, width or both)");
  return l;
}

NicSpec nic(const Reader& r, const json& j) {
  r.object(j, "nic", {"count", "speed_Gbps", "match"});
  NicSpec n;
  if (const auto* v = field(j, "count")) n.count = static_cast<int>(r.integer(*v, "nic.count", 1, 1024));
  if (const auto* v = field(j, "speed_Gbps")) n.speed_Gbps = r.number(*v, "nic.speed_Gbps", 0, 100000, true);
  if (const auto* v = field(j, "match")) {
    n.match = r.string(*v, "nic.match");
    if (const auto why = pattern_problem(n.match); !why.empty()) {
      const std::string shown = n.match.size() > 40 ? n.match.substr(0, 37) + "..." : n.match;
      r.fail("nic.match", "'" + shown + "' " + why);
    }
  }
  if (!n.count && !n.speed_Gbps) r.fail("nic", "states nothing (give count, speed_Gbps or both)");
  return n;
}

template <class T, class F>
std::vector<T> list(const Reader& r, const json& doc, const char* key, F&& one) {
  std::vector<T> out;
  const auto* v = field(doc, key);
  if (!v) return out;
  const auto& arr = r.array(*v, key);
  for (std::size_t i = 0; i < arr.size(); ++i) out.push_back(one(arr[i], at(key, i)));
  return out;
}

BandwidthPromise bandwidth(const Reader& r, const json& j, const std::string& path, const spec_selector_rules& rules) {
  r.object(j, path, {"suite", "name", "variant", "test", "bytes", "figure", "min", "min_efficiency_pct", "rail", "interface"});
  BandwidthPromise p{selector(r, j, path, "busbw_GBps", rules), std::nullopt, std::nullopt};
  if (const auto* v = field(j, "min")) p.min = r.number(*v, Reader::join(path, "min"), 0, 1e12, true);
  if (const auto* v = field(j, "min_efficiency_pct"))
    p.min_efficiency_pct = r.number(*v, Reader::join(path, "min_efficiency_pct"), 0, 100, true);
  if (p.min.has_value() == p.min_efficiency_pct.has_value())
    r.fail(path, "give exactly one of min and min_efficiency_pct");
  return p;
}

LatencyPromise latency(const Reader& r, const json& j, const std::string& path, const spec_selector_rules& rules) {
  r.object(j, path, {"suite", "name", "variant", "test", "bytes", "figure", "max_p99_us", "max_p99_rtt_us", "rail", "interface"});
  LatencyPromise p{selector(r, j, path, "time_us.p99", rules), 0, false};
  const auto* half = field(j, "max_p99_us");
  const auto* whole = field(j, "max_p99_rtt_us");
  if (half && whole) r.fail(path, "give one of max_p99_us (half the round trip) and max_p99_rtt_us (the round trip), not both");
  if (!half && !whole) (void)r.required(j, path, "max_p99_us");
  p.round_trip = whole != nullptr;
  const char* key = whole ? "max_p99_rtt_us" : "max_p99_us";
  p.max_us = r.number(whole ? *whole : *half, Reader::join(path, key), 0, 1e9, true);
  if (p.round_trip && (p.sel.name != "latency" || p.sel.figure.rfind("time_us.", 0) != 0))
    r.fail(Reader::join(path, key), "only a latency test's times (time_us) have a round trip; use max_p99_us");
  return p;
}

StabilityPromise stability(const Reader& r, const json& j, const std::string& path, const spec_selector_rules& rules) {
  r.object(j, path, {"suite", "name", "variant", "test", "bytes", "max_dip_pct", "rail", "interface"});
  StabilityPromise p{selector(r, j, path, "", rules), 0};
  const auto& v = r.required(j, path, "max_dip_pct");
  p.max_dip_pct = r.number(v, Reader::join(path, "max_dip_pct"), 0, 100, false);
  return p;
}

HomogeneitySpec homogeneity(const Reader& r, const json& j, const spec_selector_rules& rules) {
  r.object(j, "homogeneity", {"topology", "figures"});
  HomogeneitySpec h;
  if (const auto* v = field(j, "topology")) h.topology = r.boolean(*v, "homogeneity.topology");
  h.figures = list<SpreadPromise>(r, j, "figures", [&](const json& e, const std::string& p0) {
    const std::string path = "homogeneity." + p0;
    r.object(e, path, {"suite", "name", "variant", "test", "bytes", "figure", "max_spread_pct", "rail", "interface"});
    SpreadPromise p{selector(r, e, path, "busbw_GBps", rules), 0};
    const auto& v = r.required(e, path, "max_spread_pct");
    p.max_spread_pct = r.number(v, Reader::join(path, "max_spread_pct"), 0, 1000, false);
    return p;
  });
  if (!h.topology && h.figures.empty()) r.fail("homogeneity", "states nothing (give topology: true or figures)");
  return h;
}

FabricPromise fabric_promise(const Reader& r, const json& j) {
  r.object(j, "fabric", {"max_oversubscription", "non_blocking"});
  const auto* bound = field(j, "max_oversubscription");
  const auto* nb = field(j, "non_blocking");
  if (bound && nb) r.fail("fabric", "give one of max_oversubscription and non_blocking, not both");
  FabricPromise p;
  if (nb) {
    if (!r.boolean(*nb, "fabric.non_blocking"))
      r.fail("fabric.non_blocking", "false promises nothing (give max_oversubscription, e.g. 2 for 2:1, or leave fabric out)");
    p.non_blocking = true;
  } else if (bound) {
    p.max_oversubscription = r.number(*bound, "fabric.max_oversubscription", 1, 1000, false);
  } else {
    r.fail("fabric", "states nothing (give max_oversubscription, e.g. 1.2, or non_blocking: true)");
  }
  return p;
}

}  // namespace

std::string to_string(PathClass p) { return kPathNames[static_cast<std::size_t>(p)]; }

std::optional<PathClass> path_class_from_string(const std::string& s) {
  for (std::size_t i = 0; i < kPathNames.size(); ++i)
    if (s == kPathNames[i]) return static_cast<PathClass>(i);
  return std::nullopt;
}

bool valid_figure_path(const std::string& figure) {
  static constexpr const char* fixed[] = {"busbw_GBps", "algbw_GBps", "time_us.min", "time_us.p50", "time_us.mean",
                                          "time_us.p99", "time_us.max", "time_us.stddev", "time_us.cv"};
  for (const char* f : fixed)
    if (figure == f) return true;
  if (figure.rfind("extra.", 0) != 0) return false;
  // extra.KEY[.KEY...]: keys of letters, digits and _.
  bool key_empty = true;
  for (std::size_t i = 6; i < figure.size(); ++i) {
    const auto c = static_cast<unsigned char>(figure[i]);
    if (c == '.') {
      if (key_empty) return false;
      key_empty = true;
    } else if (std::isalnum(c) || c == '_') {
      key_empty = false;
    } else {
      return false;
    }
  }
  return !key_empty;
}

Spec parse_spec(const json& doc, const std::string& source, const KnownTests& known) {
  const Reader r(source);
  r.object(doc, "", {"spec_version", "name", "nodes", "nic", "link", "pcie", "locality", "bandwidth", "latency",
                     "stability", "homogeneity", "fabric", "congestion"});
  const auto* version = field(doc, "spec_version");
  if (!version) r.fail("spec_version", "missing (required; this program reads spec_version 1 and 2)");
  const auto v_num = r.integer(*version, "spec_version", 0, INT64_MAX);
  if (v_num != 1 && v_num != 2)
    r.fail("spec_version", Reader::got(*version) + " is not supported (this program reads spec_version 1 and 2)");
  const int ver = static_cast<int>(v_num);

  Spec s;
  s.source = source;
  s.version = ver;
  if (const auto* v = field(doc, "link")) {
    if (ver < 2) r.fail("link", "needs spec_version 2");
    r.object(*v, "link", {"rate_Gbps"});
    s.link_rate_Gbps = r.number(r.required(*v, "link", "rate_Gbps"), "link.rate_Gbps", 0, 100000, true);
  }
  if (const auto* v = field(doc, "name")) s.name = r.string(*v, "name", true);
  if (const auto* v = field(doc, "nodes")) s.nodes = static_cast<int>(r.integer(*v, "nodes", 1, 1000000));
  if (const auto* v = field(doc, "nic")) s.nic = nic(r, *v);
  if (const auto* v = field(doc, "pcie")) {
    r.object(*v, "pcie", {"gpu", "nic"});
    if (const auto* g = field(*v, "gpu")) s.pcie_gpu = link(r, *g, "pcie.gpu");
    if (const auto* n = field(*v, "nic")) s.pcie_nic = link(r, *n, "pcie.nic");
  }
  if (const auto* v = field(doc, "locality")) {
    r.object(*v, "locality", {"worst_path"});
    const auto* w = field(*v, "worst_path");
    if (!w) r.fail("locality.worst_path", "missing (required)");
    s.worst_path = path_class_from_string(r.string(*w, "locality.worst_path"));
    if (!s.worst_path) r.fail("locality.worst_path", Reader::got(*w) + " is not a path class (X, PIX, PXB, PHB, NODE, SYS)");
  }
  const spec_selector_rules rules{ver, known};
  const auto one = [&](auto fn) { return [&r, fn, &rules](const json& e, const std::string& p) { return fn(r, e, p, rules); }; };
  s.bandwidth = list<BandwidthPromise>(r, doc, "bandwidth", one(bandwidth));
  s.latency = list<LatencyPromise>(r, doc, "latency", one(latency));
  s.stability = list<StabilityPromise>(r, doc, "stability", one(stability));
  if (const auto* v = field(doc, "homogeneity")) s.homogeneity = homogeneity(r, *v, rules);
  if (const auto* v = field(doc, "fabric")) s.fabric = fabric_promise(r, *v);
  if (const auto* v = field(doc, "congestion")) {
    r.object(*v, "congestion", {"max_cif"});
    s.congestion = CongestionPromise{r.number(r.required(*v, "congestion", "max_cif"), "congestion.max_cif", 1, 1e6, false)};
  }
  return s;
}

std::optional<double> promised_rate_Gbps(const Spec& spec) {
  if (spec.link_rate_Gbps) return spec.link_rate_Gbps;
  if (spec.nic && spec.nic->speed_Gbps) return spec.nic->speed_Gbps;
  return std::nullopt;
}

Spec load_spec(const std::string& path, const KnownTests& known) {
  return parse_spec(read_json_file<SpecError>(path, kSpecInput), path, known);
}

}  // namespace gpunet::report
