// What an hwloc XML export must satisfy before hwloc's importer sees it. hwloc's importer trusts its
// input: an internal DTD makes its libxml backend compare a missing system id (a crash), an object
// with a cpuset but no complete_cpuset is dereferenced while children are sorted (a crash). This
// check refuses, with one line naming the element and the attribute, every document in which an
// <object> lacks the attributes hwloc dereferences or carries a set it cannot parse; the loader then
// hands hwloc the document as pugixml writes it again, so no DTD or entity ever reaches it.
#pragma once

#include <string>
#include <vector>

namespace pugi {
class xml_document;
}

namespace gpunet::topo {

// Throws InputError("PATH: <object type=... > #N: problem (what to do)") on the first problem. Returns
// one line per PCI object whose pci_busid hwloc cannot read: hwloc leaves such an object out of the
// topology without a word, so the loader keeps these lines and analyze() makes each a finding.
std::vector<std::string> check_hwloc_document(const pugi::xml_document& doc, const std::string& path);

}  // namespace gpunet::topo
