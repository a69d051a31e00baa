// NCCL topology XML (what NCCL reads from NCCL_TOPO_FILE and writes to NCCL_TOPO_DUMP_FILE):
// <system version><cpu numaid affinity ...><pci busid class link_speed link_width [vendor device]>
// nested <pci> switches, leaves with an optional <gpu> or <nic><net name .../></nic> child.
// Parsed into the same model: each <cpu> is a NUMA node and plays the host bridge of its devices,
// each <pci> with <pci> children is a switch (PCI-to-PCI bridge), leaves are classified as GPU
// (a <gpu> child or PCI class 0x03xx) or NIC (a <nic> child, class 0x02xx or 0x0c06). NCCL records
// min(device max, upstream max) as link_speed/link_width, so that is the usable link here.
#pragma once

#include <string>
#include <vector>

#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace pugi {
class xml_document;
}

namespace gpunet::topo {

// Parses an NCCL topology document held in memory; `path` names it in messages. Throws InputError
// when it is not well-formed XML or its root is not <system>.
NodeTopology nccl_load_xml(const std::string& xml, const std::string& path);

// The same, from a document already parsed by parse_xml_bounded (xml_bounded.hpp).
NodeTopology nccl_load_document(const pugi::xml_document& doc, const std::string& path);

// Where NCCL's view (a topology file) disagrees with hwloc's view of the same node: devices present
// in one and not the other (by bus id), NUMA node, usable PCIe link, and path class per GPU pair
// (NCCL's PHB stands for both PHB and NODE, since NCCL does not separate them).
std::vector<Finding> compare_views(const NodeTopology& hwloc_view, const NodeTopology& nccl_view);

}  // namespace gpunet::topo
