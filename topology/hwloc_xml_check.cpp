#include "topology/hwloc_xml_check.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "common/quote.hpp"
#include "common/strings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

namespace {

constexpr const char* kSetAttributes[] = {"cpuset",  "complete_cpuset",  "online_cpuset", "allowed_cpuset",
                                          "nodeset", "complete_nodeset", "allowed_nodeset"};
constexpr std::size_t kMaxBitmapWords = 2048;  // 65,536 CPUs or NUMA nodes
constexpr const char* kWhatToDo = " (give an unmodified lstopo XML export)";

bool is_io_or_misc(const std::string& type) {
  return type == "Bridge" || type == "PCIDev" || type == "OSDev" || type == "Misc";
}

// One 32-bit word: "0x0003ffff", or empty between commas (a zero word, as hwloc writes them).
bool hex_word(const char* begin, const char* end) {
  if (begin == end) return true;
  if (end - begin >= 2 && begin[0] == '0' && begin[1] == 'x') begin += 2;
  if (end - begin < 1 || end - begin > 8) return false;
  for (const char* c = begin; c < end; ++c)
    if (!std::isxdigit(static_cast<unsigned char>(*c))) return false;
  return true;
}

// hwloc's bitmap text: "0xffffffff,,0x0000000f" (32-bit words, most significant first), optionally
// starting with "0xf...f" for an infinite set.
bool valid_bitmap(const char* text) {
  if (*text == '\0') return false;
  std::size_t words = 0;
  for (const char* begin = text;; ++words) {
    const char* comma = std::strchr(begin, ',');
    const char* end = comma ? comma : begin + std::strlen(begin);
    const bool infinite = words == 0 && std::strncmp(begin, "0xf...f", 7) == 0 && end - begin == 7;
    if (!infinite && !hex_word(begin, end)) return false;
    if (words >= kMaxBitmapWords) return false;
    if (!comma) return true;
    begin = comma + 1;
  }
}

// hwloc reads pci_busid as "dddd:bb:dd.f" and drops the object when it cannot.
bool readable_bus_id(const std::string& text) {
  return std::count(text.begin(), text.end(), ':') == 2 && parse_bus_id(text).has_value();
}

struct Checker {
  const std::string& path;
  std::size_t objects = 0;
  std::vector<std::string> unread;  // PCI objects hwloc will leave out

  void bus_id(const pugi::xml_node& obj) {
    const std::string type = obj.attribute("type").value();
    const auto id = obj.attribute("pci_busid");
    if ((type != "PCIDev" && type != "Bridge") || !id || readable_bus_id(id.value())) return;
    const std::string pci_type = obj.attribute("pci_type").value();
    const bool gpu = pci_type.rfind("03", 0) == 0;  // PCI class 03: display and 3D controllers
    std::string value = printable(id.value());
    if (value.size() > 40) value = value.substr(0, 37) + "...";
    unread.push_back("<object type=\"" + type + "\"> number " + std::to_string(objects) + " (at byte " +
                     std::to_string(obj.offset_debug()) + (pci_type.empty() ? "" : ", pci_type " + printable(pci_type.substr(0, 40))) +
                     "): pci_busid \"" + value + "\" is not a PCI bus id (dddd:bb:dd.f), so hwloc leaves " +
                     (gpu ? "this GPU" : "this device") + (type == "Bridge" ? " and everything below it" : "") +
                     " out of the topology");
  }

  [[noreturn]] void fail(const pugi::xml_node& obj, const std::string& problem) const {
    const std::string type = obj.attribute("type").value();
    throw InputError(path + ": <object type=\"" + type + "\"> number " + std::to_string(objects) + " (at byte " +
                     std::to_string(obj.offset_debug()) + "): " + problem + kWhatToDo);
  }

  void sets(const pugi::xml_node& obj, const pugi::xml_node& parent_obj) const {
    for (const char* name : kSetAttributes) {
      const auto a = obj.attribute(name);
      if (a && !valid_bitmap(a.value())) fail(obj, std::string(name) + "=\"" + clipped(printable(a.value()), 80) + "\" is not an hwloc bitmap");
    }
    for (const auto& [set, complete] : {std::pair{"cpuset", "complete_cpuset"}, std::pair{"nodeset", "complete_nodeset"}}) {
      const bool has = obj.attribute(set), has_complete = obj.attribute(complete);
      if (has != has_complete) fail(obj, std::string("has ") + (has ? set : complete) + " but no " + (has ? complete : set));
      if (has && parent_obj && !parent_obj.attribute(set)) fail(obj, std::string("has a ") + set + " but its parent object has none");
    }
  }

  void object(const pugi::xml_node& obj, const pugi::xml_node& parent_obj) {
    ++objects;
    const auto type = obj.attribute("type");
    if (!type || !*type.value()) fail(obj, "has no type attribute");
    const bool root = !parent_obj;
    if (root) {
      for (const char* name : {"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"})
        if (!obj.attribute(name)) fail(obj, std::string("the top object has no ") + name);
    } else if (!is_io_or_misc(type.value()) && !obj.attribute("cpuset")) {
      fail(obj, "has no cpuset");
    }
    sets(obj, parent_obj);
    bus_id(obj);
    for (const auto& child : obj.children("object")) object(child, obj);
  }

  // <distances2 nbobjs="N">: hwloc allocates N*N values up front; no real matrix is larger than the
  // number of objects.
  void distances(const pugi::xml_node& topology) const {
    for (const auto& d : topology.children()) {
      const std::string name = d.name();
      if (name.rfind("distances", 0) != 0) continue;
      const auto n = d.attribute("nbobjs").as_ullong(0);
      if (n > objects)
        throw InputError(path + ": <" + name + " nbobjs=\"" + d.attribute("nbobjs").value() + "\"> names more objects than the " +
                         std::to_string(objects) + " in the file" + kWhatToDo);
    }
  }
};

}  // namespace

std::vector<std::string> check_hwloc_document(const pugi::xml_document& doc, const std::string& path) {
  const auto topology = doc.document_element();
  Checker c{path, 0, {}};
  const auto root = topology.child("object");
  if (!root) throw InputError(path + ": the <topology> holds no <object>" + kWhatToDo);
  c.object(root, pugi::xml_node());
  if (root.next_sibling("object")) throw InputError(path + ": the <topology> holds more than one top <object>" + kWhatToDo);
  c.distances(topology);
  return c.unread;
}

}  // namespace gpunet::topo
