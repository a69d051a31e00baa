#include "bench/core/counters/traffic.hpp"

#include "common/strings.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace gpunet::bench::counters {

namespace {

using gpunet::json;

double gbps(uint64_t bytes, double s) { return s > 0 ? static_cast<double>(bytes) * 8 / s / 1e9 : 0.0; }

uint64_t step(uint64_t before, uint64_t after) { return after >= before ? after - before : 0; }

// Deltas between consecutive readings of each link; a reading that is missing (a file read while
// it was rewritten, an interface that came later) just makes the next delta span more time.
void add_links(const std::vector<Snapshot>& series, bool rdma, std::vector<LinkTraffic>& out) {
  struct Last {
    double t = 0;
    ByteCounts c;
  };
  std::map<std::string, Last> last;
  std::map<std::string, LinkTraffic> acc;
  for (const auto& snap : series) {
    for (const auto& [name, now] : rdma ? snap.rdma : snap.net) {
      const auto it = last.find(name);
      if (it != last.end()) {
        LinkTraffic& l = acc[name];
        l.name = name;
        l.kind = rdma ? "rdma" : "net";
        const double dt = snap.t_s - it->second.t;
        const uint64_t rx = step(it->second.c.rx, now.rx), tx = step(it->second.c.tx, now.tx);
        l.rx_bytes += rx;
        l.tx_bytes += tx;
        l.peak_rx_Gbps = std::max(l.peak_rx_Gbps, gbps(rx, dt));
        l.peak_tx_Gbps = std::max(l.peak_tx_Gbps, gbps(tx, dt));
      }
      last[name] = {snap.t_s, now};
    }
  }
  for (auto& [_, l] : acc)
    if (l.bytes() > 0) out.push_back(l);
}

std::string fmt_bytes(uint64_t b) {
  char buf[32];
  const double v = static_cast<double>(b);
  if (v >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", v / 1e9);
  else if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.1f MB", v / 1e6);
  else std::snprintf(buf, sizeof buf, "%.0f kB", v / 1e3);
  return buf;
}

std::string fmt_gbps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g Gb/s", v);
  return buf;
}

std::string link_text(const LinkTraffic& l) {
  return l.name + " " + fmt_bytes(l.bytes()) + " (peak " + fmt_gbps(std::max(l.peak_rx_Gbps, l.peak_tx_Gbps)) + ")";
}

json link_json(const LinkTraffic& l) {
  return {{"rx_bytes", l.rx_bytes},         {"tx_bytes", l.tx_bytes},         {"rx_Gbps", l.rx_Gbps},
          {"tx_Gbps", l.tx_Gbps},           {"peak_rx_Gbps", l.peak_rx_Gbps}, {"peak_tx_Gbps", l.peak_tx_Gbps}};
}

}  // namespace

bool interface_matches(const std::string& name, const std::vector<std::string>& patterns) {
  for (const auto& p : patterns) {
    if (!p.empty() && p.back() == '*' ? name.rfind(p.substr(0, p.size() - 1), 0) == 0 : name == p) return true;
  }
  return false;
}

TrafficSummary summarize_traffic(const std::vector<Snapshot>& series, const std::vector<std::vector<GpuSample>>& gpu_series) {
  TrafficSummary s;
  s.snapshots = static_cast<int>(series.size());
  if (series.size() >= 2) s.duration_s = series.back().t_s - series.front().t_s;
  add_links(series, false, s.links);
  add_links(series, true, s.links);
  for (auto& l : s.links) {
    l.rx_Gbps = gbps(l.rx_bytes, s.duration_s);
    l.tx_Gbps = gbps(l.tx_bytes, s.duration_s);
  }
  std::stable_sort(s.links.begin(), s.links.end(), [](const auto& a, const auto& b) { return a.bytes() > b.bytes(); });

  std::map<int, GpuActivity> gpus;
  for (const auto& readings : gpu_series)
    for (const auto& g : readings) {
      GpuActivity& a = gpus[g.index];
      a.index = g.index;
      ++a.samples;
      a.util_mean_pct += g.util_pct;
      a.util_max_pct = std::max(a.util_max_pct, g.util_pct);
      a.pcie_rx_mean_GBps += g.pcie_rx_GBps;
      a.pcie_tx_mean_GBps += g.pcie_tx_GBps;
      a.pcie_rx_peak_GBps = std::max(a.pcie_rx_peak_GBps, g.pcie_rx_GBps);
      a.pcie_tx_peak_GBps = std::max(a.pcie_tx_peak_GBps, g.pcie_tx_GBps);
    }
  for (auto& [_, a] : gpus) {
    a.util_mean_pct /= a.samples;
    a.pcie_rx_mean_GBps /= a.samples;
    a.pcie_tx_mean_GBps /= a.samples;
    s.gpus.push_back(a);
  }
  return s;
}

std::vector<const LinkTraffic*> carrying_links(const TrafficSummary& s, const Expectation& e) {
  uint64_t total = 0;
  for (const auto& l : s.links)
    if (l.kind == "net" && l.name != "lo") total += l.bytes();
  std::vector<const LinkTraffic*> out;
  for (const auto& l : s.links) {
    if (l.name == "lo") continue;
    const double share = l.kind == "net" && total > 0 ? static_cast<double>(l.bytes()) / static_cast<double>(total) : 1.0;
    if (l.bytes() >= e.min_bytes && share >= e.min_share) out.push_back(&l);
  }
  return out;
}

json traffic_findings(const TrafficSummary& s, const Expectation& e, const std::string& suite, const std::string& host) {
  json out = json::array();
  auto add = [&](const std::string& kind, const std::string& iface, const std::string& msg) {
    out.push_back({{"severity", "warning"}, {"kind", kind}, {"message", msg}, {"subjects", json::array({iface})}, {"node", host},
                   {"suite", suite}});
  };
  for (const LinkTraffic* l : carrying_links(s, e)) {
    if (l->kind != "net") continue;
    const std::string head = "the " + suite + " suite's traffic on " + host + " went over " + link_text(*l);
    if (!e.expected.empty()) {
      if (!interface_matches(l->name, e.expected))
        add("traffic_unexpected_interface", l->name, head + ", not over the expected interface(s) " + join(e.expected, ", "));
    } else if (interface_matches(l->name, e.default_route)) {
      std::vector<std::string> others;
      for (const auto& u : e.up)
        if (!interface_matches(u, e.default_route)) others.push_back(u);
      if (!others.empty())
        add("traffic_default_route", l->name, head + ", the default-route interface (usually the management network), while the node also has " +
            join(others, ", ") + " up; name the data interfaces with --expect-if and the transport's interface setting "
            "(NCCL_SOCKET_IFNAME, NCCL_IB_HCA, btl_tcp_if_include)");
    }
  }
  return out;
}

json to_json(const TrafficSummary& s, const Expectation& e) {
  json ifaces = json::object(), rdma = json::object(), gpus = json::array(), carried = json::array();
  for (const auto& l : s.links) (l.kind == "rdma" ? rdma : ifaces)[l.name] = link_json(l);
  for (const LinkTraffic* l : carrying_links(s, e)) carried.push_back(l->name);
  for (const auto& g : s.gpus)
    gpus.push_back({{"index", g.index},
                    {"samples", g.samples},
                    {"util_mean_pct", g.util_mean_pct},
                    {"util_max_pct", g.util_max_pct},
                    {"pcie_rx_mean_GBps", g.pcie_rx_mean_GBps},
                    {"pcie_tx_mean_GBps", g.pcie_tx_mean_GBps},
                    {"pcie_rx_peak_GBps", g.pcie_rx_peak_GBps},
                    {"pcie_tx_peak_GBps", g.pcie_tx_peak_GBps}});
  json j = {{"duration_s", s.duration_s}, {"snapshots", s.snapshots}, {"interfaces", ifaces},
            {"rdma", rdma},               {"gpus", gpus},               {"carried_by", carried}};
  if (!e.expected.empty()) j["expected"] = e.expected;
  if (!e.default_route.empty()) j["default_route"] = e.default_route;
  return j;
}

std::string describe_traffic(const TrafficSummary& s, const Expectation& e) {
  std::vector<std::string> parts;
  for (const LinkTraffic* l : carrying_links(s, e)) parts.push_back(link_text(*l));
  return parts.empty() ? "no network traffic" : join(parts, ", ");
}

}  // namespace gpunet::bench::counters
