#include "report/verdicts_facts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>

namespace gpunet::report {

using nlohmann::json;

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

std::optional<double> number(const json* v) {
  if (!v || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

std::optional<PcieLink> link_of(const json& j) {
  const auto* l = any_of(j, {"pcie", "link", "pcie_link"});
  if (!l || !l->is_object()) return std::nullopt;
  if (const auto* cur = any_of(*l, {"current"}); cur && cur->is_object()) l = cur;
  const auto gen = number(any_of(*l, {"gen", "generation"}));
  const auto width = number(any_of(*l, {"width", "lanes"}));
  if (!gen || !width || *gen <= 0 || *width <= 0) return std::nullopt;
  return PcieLink{static_cast<int>(*gen), static_cast<int>(*width)};
}

NodeFacts node_of(const std::string& host, const json& n) {
  NodeFacts f;
  f.host = host.empty() ? text(n, {"host", "hostname"}) : host;
  const json empty = json::array();
  const auto* gpus = any_of(n, {"gpus"});
  for (const auto& g : (gpus && gpus->is_array() ? *gpus : empty))
    f.gpus.push_back({text(g, {"bus_id", "pci_bus_id", "busid"}), link_of(g)});
  const auto* nics = any_of(n, {"nics"});
  for (const auto& x : (nics && nics->is_array() ? *nics : empty)) {
    NicFact nic{text(x, {"name", "ifname", "device"}), text(x, {"bus_id", "pci_bus_id", "busid"}), std::nullopt,
                link_of(x)};
    if (const auto mbps = number(any_of(x, {"speed_Mbps"})); mbps && *mbps > 0) nic.speed_Gbps = *mbps / 1000.0;
    f.nics.push_back(std::move(nic));
  }
  const auto* paths = any_of(n, {"paths"});
  for (const auto& p : (paths && paths->is_array() ? *paths : empty)) {
    const auto cls = path_class_from_string(text(p, {"class", "path", "path_class"}));
    if (cls) f.paths.push_back({text(p, {"gpu"}), text(p, {"nic"}), *cls});
  }
  return f;
}

bool looks_like_node(const json& j) { return j.is_object() && any_of(j, {"gpus", "nics", "paths"}) != nullptr; }

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
  const json* node = &r.extra;
  std::string_view rest(figure);
  rest.remove_prefix(6);
  while (!rest.empty()) {
    const auto dot = rest.find('.');
    const std::string key(rest.substr(0, dot));
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &node->at(key);
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  return number(node);
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
