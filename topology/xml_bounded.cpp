#include "topology/xml_bounded.hpp"

#include "topology/model.hpp"

namespace gpunet::topo {

namespace {

struct XmlShape {
  std::size_t depth = 0;     // the deepest element, the document element being 1
  std::size_t elements = 0;  // stops counting past kMaxXmlElements
};

// Walks the tree without recursion, stopping once a bound is passed.
XmlShape shape_of(const pugi::xml_node& root) {
  XmlShape s;
  std::size_t depth = 0;
  for (pugi::xml_node n = root.first_child(); n;) {
    if (n.type() == pugi::node_element) {
      ++s.elements;
      ++depth;
      if (depth > s.depth) s.depth = depth;
      if (s.depth > kMaxXmlDepth || s.elements > kMaxXmlElements) return s;
      if (n.first_child()) {
        n = n.first_child();
        continue;
      }
      --depth;
    }
    while (n && !n.next_sibling()) {  // climb to the next unvisited sibling
      n = n.parent();
      if (n == root) return s;
      if (n.type() == pugi::node_element) --depth;
    }
    if (n) n = n.next_sibling();
  }
  return s;
}

}  // namespace

void parse_xml_bounded(pugi::xml_document& doc, const std::string& text, const std::string& path) {
  const auto result = doc.load_buffer(text.data(), text.size());
  if (!result)
    throw InputError(path + ": malformed XML at byte " + std::to_string(result.offset) + ": " + result.description() +
                     " (give an hwloc XML export or an NCCL topology file)");
  const XmlShape s = shape_of(doc);
  if (s.depth > kMaxXmlDepth)
    throw InputError(path + ": elements nest deeper than " + std::to_string(kMaxXmlDepth) +
                     " levels, which no real topology does (give an hwloc XML export or an NCCL topology file)");
  if (s.elements > kMaxXmlElements)
    throw InputError(path + ": more than " + std::to_string(kMaxXmlElements) +
                     " XML elements, more than any real machine has (give the topology of one node)");
}

}  // namespace gpunet::topo
