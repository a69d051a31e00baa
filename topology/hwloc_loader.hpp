// hwloc discovery: the live machine, or an hwloc XML export (v1 or v2), with every I/O object kept
// (HWLOC_TYPE_FILTER_KEEP_ALL). Fills the CPU summary, the GPUs and NICs (classify.hpp), their
// locality (NUMA nodes, package, CPUs), OS devices, bridge chains and hwloc's link speed.
#pragma once

#include <string>

#include "topology/model.hpp"

namespace pugi {
class xml_document;
}

namespace gpunet::topo {

// The machine this process runs on. Throws std::runtime_error when hwloc cannot build a topology.
NodeTopology hwloc_discover_live();

// An hwloc XML document held in memory (the whole file, as read); `path` names it in messages.
// Throws InputError when it fails the checks of hwloc_xml_check.hpp or hwloc rejects it.
NodeTopology hwloc_load_xml(const std::string& xml, const std::string& path);

// The same, from a document already parsed by parse_xml_bounded (xml_bounded.hpp). hwloc is handed
// the checked document as pugixml writes it again: no DTD, no entities, no comments reach it.
NodeTopology hwloc_load_document(const pugi::xml_document& doc, const std::string& path);

// The hwloc version this binary was built with, e.g. "2.9.0".
std::string hwloc_version();

}  // namespace gpunet::topo
