#include "report/judge/verdicts_facts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

// The first of several spellings of a key that is present, else nullptr.
const json* any_of(const json& j, std::initializer_list<const char*> keys) {
  if (!j.is_object()) return nullptr;
  for (const char* k : keys) {
    const auto it = j.find(k);
    if (it != j.end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

std::string text(const json& j, std::initializer_list<const char*> keys) {
  const auto* v = any_of(j, keys);
  return v && v->is_string() ? v->get<std::string>() : std::string{};
}

std::optional<PcieLink> flat_link(const json* l) {
  if (!l || !l->is_object()) return std::nullopt;
  const auto gen = jsonx::number(any_of(*l, {"gen", "generation"}));
  const auto width = jsonx::number(any_of(*l, {"width", "lanes"}));
  if (!gen && !width) return std::nullopt;
  return PcieLink{gen ? static_cast<int>(*gen) : 0, width ? static_cast<int>(*width) : 0};
}

std::optional<PcieLink> link_of(const json& device) {
  const auto* l = any_of(device, {"pcie", "link"});
  if (!l || !l->is_object()) return std::nullopt;
  const auto current = flat_link(any_of(*l, {"current"}));
  const auto usable = flat_link(any_of(*l, {"usable"}));
  PcieLink out;
  if (!current && !usable) {
    const auto flat = flat_link(l);
    if (!flat) return std::nullopt;
    out = *flat;
  } else {
    out.gen = usable && usable->gen ? usable->gen : current ? current->gen : 0;
    const int cw = current ? current->width : 0, uw = usable ? usable->width : 0;
    out.width = cw && uw ? std::min(cw, uw) : std::max(cw, uw);
  }
  if (out.gen <= 0 || out.width <= 0) return std::nullopt;
  return out;
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  const auto* v = any_of(j, {key});
  if (v && v->is_array())
    for (const auto& s : *v)
      if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

NicFact nic_of(const json& x, const json& interfaces) {
  NicFact nic;
  nic.bus_id = text(x, {"bus_id", "pci_bus_id"});
  nic.link = link_of(x);
  const json os = x.is_object() && x.contains("os_devices") ? x["os_devices"] : json::object();
  const auto rdma = strings(os, "rdma");
  const auto net = strings(os, "net");
  nic.names = rdma;
  nic.names.insert(nic.names.end(), net.begin(), net.end());
  if (const auto own = text(x, {"name", "ifname"}); !own.empty()) nic.names.push_back(own);
  nic.name = nic.names.empty() ? nic.bus_id : nic.names.front();
  if (const auto rate = jsonx::number(any_of(x, {"line_rate_Gbps"})); rate && *rate > 0) nic.speed_Gbps = *rate;
  if (const auto mbps = jsonx::number(any_of(x, {"speed_Mbps"})); !nic.speed_Gbps && mbps && *mbps > 0) nic.speed_Gbps = *mbps / 1000;
  const bool rated = nic.speed_Gbps.has_value();
  if (interfaces.is_array())
    for (const auto& i : interfaces) {
      const auto name = text(i, {"name"});
      const bool mine = (!nic.bus_id.empty() && text(i, {"bus_id"}) == nic.bus_id) ||
                        std::find(net.begin(), net.end(), name) != net.end();
      if (!mine) continue;
      const auto mbps = jsonx::number(any_of(i, {"speed_Mbps"}));
      if (!rated && mbps && *mbps > 0) nic.speed_Gbps = std::max(nic.speed_Gbps.value_or(0), *mbps / 1000);
      if (text(i, {"operstate"}) == "down" && nic.down.empty()) nic.down = name;
    }
  return nic;
}

NodeFacts node_of(const std::string& host, const json& n) {
  NodeFacts f;
  f.host = host.empty() ? text(n, {"hostname", "host"}) : host;
  const json empty = json::array();
  const auto list = [&](const char* key) -> const json& {
    const auto* v = any_of(n, {key});
    return v && v->is_array() ? *v : empty;
  };
  for (const auto& g : list("gpus")) f.gpus.push_back({text(g, {"bus_id", "pci_bus_id"}), link_of(g)});
  for (const auto& x : list("nics")) f.nics.push_back(nic_of(x, list("interfaces")));
  for (const auto& i : list("interfaces")) {
    NicFact d;
    d.name = text(i, {"name"});
    d.names = {d.name};
    d.bus_id = text(i, {"bus_id"});
    if (const auto mbps = jsonx::number(any_of(i, {"speed_Mbps"})); mbps && *mbps > 0) d.speed_Gbps = *mbps / 1000;
    if (text(i, {"operstate"}) == "down") d.down = d.name;
    if (!d.name.empty()) f.netdevs.push_back(d);
  }
  const auto is_gpu = [&](const std::string& id) {
    return std::any_of(f.gpus.begin(), f.gpus.end(), [&](const GpuFact& g) { return g.bus_id == id; });
  };
  for (const auto& p : list("pairs")) {
    const auto cls = path_class_from_string(text(p, {"class"}));
    const auto a = text(p, {"a"}), b = text(p, {"b"});
    if (!cls) continue;
    if (is_gpu(a) && !is_gpu(b)) f.paths.push_back({a, b, *cls});
    else if (is_gpu(b) && !is_gpu(a)) f.paths.push_back({b, a, *cls});
  }
  return f;
}

bool looks_like_node(const json& j) { return j.is_object() && any_of(j, {"gpus", "nics"}) != nullptr; }

}  // namespace

std::vector<NodeFacts> node_facts(const json& topology) {
  std::vector<NodeFacts> out;
  if (!topology.is_object()) return out;
  const json* nodes = any_of(topology, {"nodes"});
  if (nodes && nodes->is_array()) {
    for (const auto& n : *nodes)
      if (looks_like_node(n)) out.push_back(node_of("", n));
    return out;
  }
  const json& by_host = nodes && nodes->is_object() ? *nodes : topology;
  for (const auto& [host, n] : by_host.items())
    if (looks_like_node(n)) out.push_back(node_of(host, n));
  return out;
}

std::optional<double> figure_value(const Record& r, const std::string& figure) {
  const auto positive = [](double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; };
  if (figure == "busbw_GBps") return positive(r.busbw_GBps);
  if (figure == "algbw_GBps") return positive(r.algbw_GBps);
  if (figure.rfind("time_us.", 0) == 0) {
    if (r.time_us.samples <= 0) return std::nullopt;
    const std::string stat = figure.substr(8);
    const TimeStats& t = r.time_us;
    if (stat == "min") return t.min;
    if (stat == "p50") return t.p50;
    if (stat == "mean") return t.mean;
    if (stat == "p99") return t.p99;
    if (stat == "max") return t.max;
    if (stat == "stddev") return t.stddev;
    if (stat == "cv") return t.cv;
    return std::nullopt;
  }
  if (figure.rfind("extra.", 0) != 0) return std::nullopt;
  std::string_view rest(figure);
  rest.remove_prefix(6);
  // The first key may name facts a results.jsonl's reader holds apart from extra (extra_at); the others
  // walk into what it found.
  json scratch;
  const json* node = nullptr;
  for (bool first = true; !rest.empty(); first = false) {
    const auto dot = rest.find('.');
    const std::string key(rest.substr(0, dot));
    node = first ? extra_at(r, key, scratch) : jsonx::member(*node, key.c_str());
    if (!node) return std::nullopt;
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  return jsonx::number(node);
}

std::string figure_unit(const std::string& figure) {
  if (figure == "time_us.cv") return "";
  const auto us = figure.rfind('_');
  const std::string suffix = figure.rfind("time_us.", 0) == 0 ? "us" : us == std::string::npos ? "" : figure.substr(us + 1);
  if (suffix == "GBps") return "GB/s";
  if (suffix == "Gbps") return "Gb/s";
  if (suffix == "MBps") return "MB/s";
  if (suffix == "Mbps") return "Mb/s";
  if (suffix == "us" || suffix == "ns" || suffix == "ms" || suffix == "s") return suffix;
  if (suffix == "pct") return "%";
  return "";
}

std::vector<const Record*> select_records(const Report& report, const FigureSelector& sel) {
  std::vector<const Record*> out;
  for (const auto& r : report.results)
    if (r.suite == sel.suite && r.name == sel.name && (sel.variant.empty() || r.variant == sel.variant))
      out.push_back(&r);
  return out;
}

std::optional<int64_t> chosen_bytes(const std::vector<const Record*>& records, const FigureSelector& sel,
                                    bool largest) {
  if (sel.bytes) return sel.bytes;
  std::optional<int64_t> best;
  for (const auto* r : records) {
    if (r->status != Status::passed) continue;
    if (!best || (largest ? r->bytes > *best : r->bytes < *best)) best = r->bytes;
  }
  return best;
}

std::string human_bytes(int64_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  int64_t v = bytes;
  while (u < 4 && v >= 1024 && v % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  return std::to_string(v) + " " + units[u];
}

std::string fmt_num(double v) {
  char buf[64];
  const double a = std::fabs(v);
  if (a >= 100 || a == 0)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else if (a >= 1)
    std::snprintf(buf, sizeof buf, "%.2f", v);
  else
    std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

}  // namespace gpunet::report
