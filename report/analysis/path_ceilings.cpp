#include "report/analysis/path_ceilings.hpp"

#include <algorithm>

#include "report/model/busbw.hpp"
#include "report/model/json_access.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

const json kEmpty = json::object();

const json& section(const json& extra, const char* key) {
  const json* s = jsonx::object_at(extra, key);
  return s ? *s : kEmpty;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The figure's "memory" parameter: host (MPI collectives), device (NCCL), ... ("" when absent).
std::string figure_memory(const Record& r) {
  if (!r.figure) return "";
  const auto it = r.figure->parameters.find("memory");
  return it == r.figure->parameters.end() ? "" : it->second;
}

// "mpi.allreduce.busbw" -> "allreduce".
std::string figure_collective(const Record& r) {
  if (!r.figure) return r.name;
  const std::string& m = r.figure->metric;
  const auto first = m.find('.'), last = m.rfind('.');
  return first == std::string::npos || last == first ? m : m.substr(first + 1, last - first - 1);
}

// PCIe generation from either a number (gen: 4) or the sysfs text (speed: "16.0 GT/s PCIe").
std::optional<int> pcie_gen(const json& p, const char* gen_key, const char* text_key) {
  if (auto g = jsonx::integer(p, gen_key)) return g;
  if (auto t = jsonx::string(p, text_key)) return pcie_gen_from_speed_text(*t);
  return std::nullopt;
}

}  // namespace

namespace {

// The lower of `c` and a shaper's (or policer's) goodput at `rate_bps`, its derivation naming it.
Ceiling under_rate(const Ceiling& c, double rate_bps, const EthernetFraming& f, const std::string& what) {
  Ceiling r = tcp_goodput_tbf(rate_bps, f);
  r.derivation = what + ": " + r.derivation;
  return c.known && c.value < r.value ? c : r;
}

// One direction of a link: its wire rate, under the root tbf (what the host sends) when `egress`,
// under an ingress policer (ingress_rate_bps, what it receives) when `ingress`.
Ceiling directed_link_ceiling(const json& link, bool egress, bool ingress) {
  if (!link.is_object() || link.empty()) return unknown_ceiling("the record names no link (extra.link)");
  const auto kind = jsonx::string(link, "kind").value_or("ethernet");
  const auto iface = jsonx::string(link, "iface").value_or("");
  if (jsonx::boolean(link, "loopback").value_or(false) || kind == "loopback" || iface == "lo")
    return unknown_ceiling("loopback: the traffic never left the host, so no link bounds it (memory and CPU do)");
  if (kind == "shm")
    return unknown_ceiling("shared memory: the traffic never left the host, so no link bounds it");
  if (kind != "ethernet") return unknown_ceiling("a TCP ceiling over a '" + kind + "' link is not modelled");
  const auto mtu = jsonx::integer(link, "mtu");
  if (!mtu) return unknown_ceiling("the MTU of " + (iface.empty() ? std::string("the interface") : iface) + " is not known");
  const EthernetFraming f{*mtu, jsonx::boolean(link, "ipv6").value_or(false),
                          jsonx::boolean(link, "tcp_timestamps").value_or(true),
                          jsonx::boolean(link, "vlan").value_or(false)};
  const std::string name = iface.empty() ? std::string("the interface") : iface;
  const auto stated = jsonx::number(link, "stated_rate_bps");
  const auto speed = jsonx::number(link, "speed_Mbps");
  const auto shaped = jsonx::number(link, "shaped_rate_bps");
  const auto policed = jsonx::number(link, "ingress_rate_bps");
  const auto driver = jsonx::string(link, "driver").value_or("");
  const bool virtual_nic = driver == "veth" || driver == "bridge" || driver == "tun";
  Ceiling c;
  if (stated && *stated > 0) {
    c = tcp_goodput(*stated / 1e9, f);
    c.derivation = name + " stated rate (--link-rate): " + c.derivation;
  } else if (virtual_nic) {
    c = unknown_ceiling(name + " is a virtual " + driver + " interface: its speed is not a wire rate (state one "
                               "with --link-rate)");
  } else if (speed && *speed > 0) {
    c = tcp_goodput(*speed / 1000.0, f);
  } else {
    c = unknown_ceiling(name + " reports no link speed (state one with --link-rate)");
  }
  if (egress && shaped && *shaped > 0) c = under_rate(c, *shaped, f, name + " shaped by tc tbf");
  if (ingress && policed && *policed > 0) c = under_rate(c, *policed, f, name + " limited on what it receives");
  return c;
}

}  // namespace

Ceiling link_ceiling(const json& link) { return directed_link_ceiling(link, true, false); }

Ceiling incoming_link_ceiling(const json& link, bool egress_only) {
  if (egress_only) {
    Ceiling c = directed_link_ceiling(link, false, true);
    if (!c.known) c.unknown_reason = "its incoming rate is not known (its tbf shapes only what it sends: " + c.unknown_reason + ")";
    return c;
  }
  Ceiling c = directed_link_ceiling(link, true, true);
  const Ceiling without = directed_link_ceiling(link, false, true);
  if (c.known && (!without.known || without.value > c.value))
    c.derivation += " (a root tbf shapes what the host sends; taken to bound what it receives too)";
  return c;
}

namespace {

// One end's ceiling, divided among the flows that share that end's link.
Ceiling link_share(Ceiling c, int flows, const char* end) {
  if (!c.known || flows <= 1) return c;
  c.value /= flows;
  c.derivation += "; " + std::string(end) + " link shared by " + std::to_string(flows) + " flows: " +
                  format_figure(c.value) + " " + c.unit + " each";
  return c;
}

}  // namespace

Ceiling tcp_flow_ceiling(const json& src_link, const json& dst_link, int sending_share, int receiving_share,
                         bool receiver_shaper_egress_only) {
  const Ceiling a = link_share(link_ceiling(src_link), sending_share, "the sending");
  if (!a.known) return a;
  const Ceiling b = link_share(incoming_link_ceiling(dst_link, receiver_shaper_egress_only), receiving_share, "the receiving");
  if (!b.known && receiver_shaper_egress_only) {
    Ceiling c = a;
    c.derivation = "the sender's outgoing rate: " + c.derivation + "; the receiver's " + b.unknown_reason;
    return c;
  }
  if (!b.known) return b;
  Ceiling c = b.value < a.value ? b : a;
  c.derivation = "the bottleneck of the two ends, " + std::string(b.value < a.value ? "the receiver" : "the sender") +
                 "'s: " + c.derivation;
  return c;
}

Ceiling rdma_ceiling(const json& rdma) {
  if (!rdma.is_object() || rdma.empty()) return unknown_ceiling("the record names no RDMA port (extra.rdma)");
  const auto layer = jsonx::string(rdma, "link_layer").value_or("");
  const auto ib_mtu = jsonx::integer(rdma, "ib_mtu");
  if (!ib_mtu) return unknown_ceiling("the active IB MTU of the RDMA port is not known");
  Ceiling net;
  if (layer == "Ethernet") {
    const auto rate = jsonx::number(rdma, "rate_Gbps");
    net = rate ? roce_goodput(*rate, *ib_mtu, jsonx::boolean(rdma, "ipv6").value_or(false),
                              jsonx::boolean(rdma, "vlan").value_or(false))
               : unknown_ceiling("the RoCE port speed is not known");
  } else if (layer == "InfiniBand") {
    const auto speed = jsonx::string(rdma, "ib_speed");
    const auto width = jsonx::integer(rdma, "width");
    const auto text = jsonx::string(rdma, "rate");
    const auto parsed = text ? parse_ib_sysfs_rate(*text) : std::nullopt;
    const auto rate = jsonx::number(rdma, "rate_Gbps");
    if (speed && ib_speed_from_name(*speed) && width)
      net = ib_goodput(*ib_speed_from_name(*speed), *width, *ib_mtu);
    else if (parsed)
      net = ib_goodput(parsed->speed, parsed->width, *ib_mtu);
    else if (rate && *rate >= 100)  // from EDR on, the kernel's rate is the data rate
      net = ib_goodput_from_data_rate(*rate, *ib_mtu);
    else
      net = unknown_ceiling(rate ? "an InfiniBand rate below 100 Gb/s is signalling, not data (SDR..FDR): the "
                                   "speed name (ib_speed) is needed"
                                 : "the InfiniBand port speed is not known");
  } else {
    return unknown_ceiling("the RDMA link layer is not known (neither InfiniBand nor Ethernet)");
  }
  const json* p = jsonx::object_at(rdma, "pcie");
  if (!net.known || !p) return net;
  const Ceiling bus = pcie_ceiling(*p, nullptr);
  if (!bus.known || bus.value * 8 >= net.value) return net;
  const double v = bus.value * 8;
  return known_ceiling(v, "Gb/s",
                       "the NIC's PCIe link caps the port: min(" + net.derivation + "; " + bus.derivation + " = " +
                           format_figure(v) + " Gb/s) = " + format_figure(v) + " Gb/s");
}

Ceiling pcie_ceiling(const json& pcie, const json* topo_gpu) {
  const json* from_topo = topo_gpu ? jsonx::object_at(*topo_gpu, "pcie") : nullptr;
  const json& t = from_topo ? *from_topo : kEmpty;
  auto pick_gen = [&](const char* k, const char* text) {
    auto v = pcie_gen(pcie, k, text);
    return v ? v : pcie_gen(t, k, text);
  };
  auto pick_int = [&](const char* k) {
    auto v = jsonx::integer(pcie, k);
    return v ? v : jsonx::integer(t, k);
  };
  const auto gen = pick_gen("gen", "speed");
  const auto width = pick_int("width");
  const auto max_gen = pick_gen("max_gen", "max_speed");
  const auto max_width = pick_int("max_width");
  const auto mps = pick_int("mps");
  const bool capable = max_gen && max_width;
  if (!capable && !(gen && width)) return unknown_ceiling("the PCIe link of the device is not known");
  const int g = capable ? *max_gen : *gen;
  const int w = capable ? *max_width : *width;
  if (mps) {
    Ceiling c = pcie_tlp(g, w, *mps);
    if (c.known) return c;
  }
  return pcie_encoded(g, w);
}

Ceiling intra_node_ceiling(const Record& r, const TopologyView& topo) {
  const json& intra = section(r.extra, "intra");
  const json& nccl = section(r.extra, "nccl");
  const auto algo = jsonx::string(nccl, "algo").value_or("");
  if (algo == "NVLS" || algo == "NVLSTree")
    return unknown_ceiling(algo + " reduces inside the NVSwitch: the nccl-tests busbw factor does not describe its "
                                  "traffic, so no link ceiling applies (nccl-tests#153)");
  const auto kind = jsonx::string(intra, "kind").value_or("");
  if (kind == "nvlink") {
    const auto gen = jsonx::integer(intra, "gen");
    if (!gen) return unknown_ceiling("the NVLink generation is not known");
    return nvlink_nccl_effective(*gen, jsonx::integer(intra, "links").value_or(0));
  }
  if (kind == "pcie") {
    Ceiling c = pcie_ceiling(intra, nullptr);
    if (c.known) c.derivation = "GPUs talk over PCIe: " + c.derivation;
    return c;
  }
  if (kind == "shm" || (kind.empty() && figure_memory(r) == "host"))
    return unknown_ceiling("ranks on one node exchange data through shared memory: no link bounds it");
  const json* g = topo.gpu(r.host, jsonx::integer(r.extra, "gpu_index").value_or(0));
  const json* nv = g ? jsonx::object_at(*g, "nvlink") : nullptr;
  if (nv && jsonx::integer(*nv, "gen"))
    return nvlink_nccl_effective(*jsonx::integer(*nv, "gen"), jsonx::integer(*nv, "links").value_or(0));
  return unknown_ceiling("the intra-node GPU link is not known (no extra.intra, no NVLink in the topology)");
}

Ceiling collective_nic_ceiling(const Record& r, const TopologyView& topo) {
  const json& nccl = section(r.extra, "nccl");
  const auto transport = jsonx::string(nccl, "transport").value_or("");
  const json& link = link_facts(r, LinkEnd::own);
  const json& rdma = section(r.extra, "rdma");
  if (starts_with(transport, "NET/Socket") || (transport.empty() && !link.empty())) {
    const auto iface = jsonx::string(nccl, "iface").value_or(jsonx::string(link, "iface").value_or(""));
    const json* nic = topo.nic(r.host, iface);
    Ceiling c = to_GBps(link_ceiling(!link.empty() ? link : nic ? *nic : kEmpty));
    if (c.known) c.derivation = "TCP" + (iface.empty() ? std::string() : " over " + iface) + ": " + c.derivation;
    return c;
  }
  if (starts_with(transport, "NET/IB") || (transport.empty() && !rdma.empty())) {
    const json* nic = topo.nic(r.host, jsonx::string(nccl, "nic").value_or(jsonx::string(rdma, "device").value_or("")));
    auto rate = jsonx::number(rdma, "rate_Gbps");
    if (!rate && nic) rate = jsonx::number(*nic, "rate_Gbps");
    return rate ? nccl_nic_effective(*rate) : unknown_ceiling("the line rate of the RDMA NIC is not known");
  }
  if (!transport.empty()) return unknown_ceiling("transport " + transport + " is not a network transport");
  return unknown_ceiling("the network the collective used is not known (no extra.nccl.transport, extra.link or extra.rdma)");
}

Ceiling collective_ceiling(const Record& r, int nodes, const TopologyView& topo) {
  const std::string name = figure_collective(r);
  const auto coll = collective_from_string(name);
  if (!coll) return unknown_ceiling("'" + name + "' is not a collective with a bus-bandwidth model");
  if (*coll == Collective::alltoall)
    return unknown_ceiling("alltoall busbw is not bounded by the Ring model: it cannot aggregate NICs and reads "
                           "N/(N-1) x the network bandwidth (nccl-tests#130, #267)");
  if (nodes <= 0) return unknown_ceiling("the number of nodes the ranks span is not known (no extra.nodes, no provenance)");
  const Ceiling intra = intra_node_ceiling(r, topo);
  if (nodes == 1) return intra;
  const int nics = jsonx::integer(r.extra, "nics_per_node").value_or(1);
  Ceiling c = ring_busbw_multi_node(intra, nics, collective_nic_ceiling(r, topo));
  const auto algo = jsonx::string(section(r.extra, "nccl"), "algo").value_or("");
  if (c.known && figure_memory(r) == "device" && nodes == 2 && algo != "Ring")
    c.derivation += " (2 nodes: NCCL may choose Tree or NVLSTree, whose busbw can exceed this; NCCL_ALGO=Ring "
                    "measures the network)";
  return c;
}

}  // namespace gpunet::report
