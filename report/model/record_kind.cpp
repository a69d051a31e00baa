// The names of record kinds in the JSON, and the network each kind measured over.
#include <array>
#include <stdexcept>
#include <utility>

#include "report/model/record.hpp"

namespace gpunet::report {

namespace {

constexpr std::array<std::pair<RecordKind, const char*>, 19> kRecordKindNames{{
    {RecordKind::unstated, "unstated"},
    {RecordKind::collective_point, "collective_point"},
    {RecordKind::collective_other, "collective_other"},
    {RecordKind::tcp_flow, "tcp_flow"},
    {RecordKind::tcp_group, "tcp_group"},
    {RecordKind::tcp_matrix, "tcp_matrix"},
    {RecordKind::tcp_latency, "tcp_latency"},
    {RecordKind::tcp_congestion, "tcp_congestion"},
    {RecordKind::tcp_fabric, "tcp_fabric"},
    {RecordKind::tcp_other, "tcp_other"},
    {RecordKind::rdma_bandwidth, "rdma_bandwidth"},
    {RecordKind::rdma_latency, "rdma_latency"},
    {RecordKind::rdma_other, "rdma_other"},
    {RecordKind::pcie_copy, "pcie_copy"},
    {RecordKind::host_memory, "host_memory"},
    {RecordKind::topology_node, "topology_node"},
    {RecordKind::topology_compare, "topology_compare"},
    {RecordKind::training_step, "training_step"},
    {RecordKind::other, "other"},
}};

}  // namespace

std::string to_string(RecordKind k) {
  for (const auto& [kind, name] : kRecordKindNames)
    if (kind == k) return name;
  return "other";
}

RecordKind record_kind_from_string(const std::string& s) {
  for (const auto& [kind, name] : kRecordKindNames)
    if (s == name && kind != RecordKind::unstated) return kind;
  throw std::invalid_argument("unknown record kind '" + s + "'");
}

Transport transport_of(RecordKind k) {
  switch (k) {
    case RecordKind::tcp_flow:
    case RecordKind::tcp_group:
    case RecordKind::tcp_matrix:
    case RecordKind::tcp_latency:
    case RecordKind::tcp_congestion:
    case RecordKind::tcp_fabric:
    case RecordKind::tcp_other: return Transport::tcp;
    case RecordKind::rdma_bandwidth:
    case RecordKind::rdma_latency:
    case RecordKind::rdma_other: return Transport::rdma;
    default: return Transport::none;
  }
}

}  // namespace gpunet::report
