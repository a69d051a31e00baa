// Explanations of the gap between a figure and its ceiling, from the transport the record says it used,
// the link data it carries and the node topology. Each cause is one sentence; none is invented: a cause
// is named only when the data shows it.
#include <vector>

#include "report/analysis/analysis.hpp"
#include "report/model/json_access.hpp"
#include "report/analysis/tcp_flow_cpu.hpp"
#include "report/text/text_format.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

std::string gpu_words(const std::optional<int>& index) {
  return index ? "GPU " + std::to_string(*index) : std::string("the device");
}

// "GPU 2 trained at Gen4 x8 (capable of Gen4 x16): ceiling 15.75 GB/s"
std::optional<std::string> pcie_downtrained(const Record& r, const TopologyView& topo) {
  const json& p = jsonx::section(r.extra, "pcie");
  const auto index = jsonx::integer(p, "gpu_index") ? jsonx::integer(p, "gpu_index") : jsonx::integer(r.extra, "gpu_index");
  const json* g = index ? topo.gpu(r.host, *index) : nullptr;
  const json& t = g ? jsonx::section(*g, "pcie") : jsonx::empty_object();
  auto get = [&](const char* k, const char* text) -> std::optional<int> {
    if (auto v = jsonx::integer(p, k)) return v;
    if (auto s = jsonx::string(p, text)) return pcie_gen_from_speed_text(*s);
    if (auto v = jsonx::integer(t, k)) return v;
    if (auto s = jsonx::string(t, text)) return pcie_gen_from_speed_text(*s);
    return std::nullopt;
  };
  const auto gen = get("gen", "speed"), max_gen = get("max_gen", "max_speed");
  const auto width = jsonx::integer(p, "width") ? jsonx::integer(p, "width") : jsonx::integer(t, "width");
  const auto max_width =
      jsonx::integer(p, "max_width") ? jsonx::integer(p, "max_width") : jsonx::integer(t, "max_width");
  if (!gen || !width || !max_gen || !max_width || (*gen >= *max_gen && *width >= *max_width)) return std::nullopt;
  const Ceiling trained = pcie_encoded(*gen, *width);
  if (!trained.known) return std::nullopt;
  return gpu_words(index) + " trained at Gen" + std::to_string(*gen) + " x" + std::to_string(*width) +
         " (capable of Gen" + std::to_string(*max_gen) + " x" + std::to_string(*max_width) + "): ceiling " +
         format_figure(trained.value) + " GB/s";
}

std::optional<std::string> numa_mismatch(const Record& r) {
  const json& p = jsonx::section(r.extra, "pcie");
  const auto host = jsonx::integer(p, "host_numa"), gpu = jsonx::integer(p, "gpu_numa");
  if (!host || !gpu || *host == *gpu) return std::nullopt;
  return "host buffer on NUMA node " + std::to_string(*host) + ", GPU on NUMA node " + std::to_string(*gpu) +
         ": the copy crosses the socket interconnect";
}

std::string path_sentence(const std::string& cls) {
  if (cls == "SYS") return "GPU and NIC on different sockets (SYS)";
  if (cls == "NODE") return "GPU and NIC under different PCIe host bridges of one socket (NODE)";
  if (cls == "PHB") return "GPU and NIC meet only at the CPU's PCIe host bridge (PHB)";
  return "";
}

std::optional<std::string> gpu_nic_path(const Record& r, const TopologyView& topo) {
  const json& nccl = jsonx::section(r.extra, "nccl");
  const json& rdma = jsonx::section(r.extra, "rdma");
  auto cls = jsonx::string(nccl, "gpu_nic_path");
  if (!cls) cls = jsonx::string(rdma, "gpu_nic_path");
  if (!cls) {
    const auto gpu = jsonx::integer(r.extra, "gpu_index") ? jsonx::integer(r.extra, "gpu_index")
                                                          : jsonx::integer(rdma, "gpu_index");
    const auto nic = jsonx::string(nccl, "nic") ? jsonx::string(nccl, "nic") : jsonx::string(rdma, "device");
    if (gpu && nic) cls = topo.path_class(r.host, *gpu, *nic);
  }
  if (!cls) return std::nullopt;
  auto s = path_sentence(*cls);
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// "traffic went over NET/Socket on eth0, a 1GbE interface, not mlx5_0"
std::optional<std::string> socket_instead_of_rdma(const Record& r, const TopologyView& topo) {
  const json& nccl = jsonx::section(r.extra, "nccl");
  const auto transport = jsonx::string(nccl, "transport").value_or("");
  if (transport.rfind("NET/Socket", 0) != 0) return std::nullopt;
  const auto iface = jsonx::string(nccl, "iface").value_or(jsonx::string(link_facts(r, LinkEnd::own), "iface").value_or(""));
  std::string s = "traffic went over NET/Socket" + (iface.empty() ? std::string() : " on " + iface);
  auto speed = jsonx::number(link_facts(r, LinkEnd::own), "speed_Mbps");
  if (const json* nic = topo.nic(r.host, iface); !speed && nic) speed = jsonx::number(*nic, "speed_Mbps");
  if (speed && *speed > 0) s += ", a " + ethernet_name(*speed / 1000) + " interface";
  const auto rdma = topo.rdma_nics(r.host);
  if (!rdma.empty()) {
    s += ", not ";
    for (size_t i = 0; i < rdma.size(); ++i) s += (i ? (i + 1 == rdma.size() ? " or " : ", ") : "") + rdma[i];
  }
  return s;
}

}  // namespace

std::string explain_gap(const Record& r, const Ceiling& c, double efficiency, const GapContext& ctx,
                        const TopologyView& topo, const AnalysisOptions& opt) {
  const auto& peak = ctx.sweep;
  std::vector<std::string> why;
  const json& nccl = jsonx::section(r.extra, "nccl");
  const json& link = link_facts(r, LinkEnd::own);
  if (efficiency > opt.over_ceiling) {
    const auto algo = jsonx::string(nccl, "algo").value_or("");
    const auto nodes = jsonx::integer(r.extra, "nodes");
    if (jsonx::object_at(r.extra, "nccl") && nodes == 2 && algo != "Ring")
      why.push_back("on 2 nodes NCCL may use Tree or NVLSTree, whose busbw is not bounded by the network: set "
                    "NCCL_ALGO=Ring to measure the network");
    if (jsonx::number(link, "shaped_rate_bps"))
      why.push_back("a tbf burst lets short transfers run above the shaped rate");
    if (why.empty())
      why.push_back("the figure is above the ceiling derived from the link data the record carries: that data (speed, "
                    "MTU, NIC count) may not describe the path the traffic took");
  } else {
    if (peak && peak->bytes != r.bytes && peak->efficiency >= opt.threshold)
      why.push_back("at " + format_bytes(r.bytes) + " the transfer is dominated by latency; this sweep reaches " +
                    format_percent(peak->efficiency) + " of the ceiling at " + format_bytes(peak->bytes));
    if (ctx.best_pair && *ctx.best_pair >= opt.threshold)
      why.push_back("other host pairs of this test reach up to " + format_percent(*ctx.best_pair) +
                    ": this link, or one of its two hosts, is at fault");
    for (const auto& s : {pcie_downtrained(r, topo), numa_mismatch(r), socket_instead_of_rdma(r, topo)})
      if (s) why.push_back(*s);
    if (const auto transport = jsonx::string(nccl, "transport").value_or("");
        transport.rfind("NET/IB", 0) == 0 && jsonx::boolean(nccl, "gdr") == false)
      why.push_back("no GPUDirect RDMA: NIC traffic bounces through host memory");
    if (const auto p = gpu_nic_path(r, topo)) why.push_back(*p);
    if (jsonx::string(jsonx::section(r.extra, "intra"), "kind") == "pcie")
      why.push_back("the GPUs exchange data over PCIe, not NVLink");
    const bool peers_fine = ctx.best_pair && *ctx.best_pair >= opt.threshold;
    const bool one_tcp_stream = r.figure && r.figure->path == PathModel::tcp_flow &&
                                has_parameter(*r.figure, "streams", "1");
    const auto host_limit = host_cpu_limit(r);
    if (host_limit) why.push_back(*host_limit);
    if (!peers_fine && one_tcp_stream && !host_limit)
      why.push_back("one TCP stream is often CPU-bound below the wire ceiling; more streams show whether the link or "
                    "the CPU limits it");
    if (const auto rt = jsonx::integer(r.extra, "retransmits"); rt && *rt > 0)
      why.push_back(std::to_string(*rt) + " TCP retransmits: packets were lost on the path");
    if (r.time_us.samples > 1 && r.time_us.cv > 0.1)
      why.push_back("per-iteration times vary (cv " + format_fixed(r.time_us.cv, 2) +
                    "): competing traffic or an unstable link");
    if (why.empty()) why.push_back("no cause found in the transport, link and topology data of this record");
  }
  std::string out = format_percent(efficiency) + " of " + format_figure(c.value) + " " + c.unit + ": ";
  for (size_t i = 0; i < why.size(); ++i) out += (i ? "; " : "") + why[i];
  return out + ".";
}

}  // namespace gpunet::report
