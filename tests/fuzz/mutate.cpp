#include "tests/fuzz/mutate.hpp"

#include <pugixml.hpp>

#include <array>
#include "common/json.hpp"
#include <sstream>
#include <vector>

namespace gpunet::fuzz {

using gpunet::json;

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {

std::string repeated(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

template <std::size_t N>
const char* pick(Rng& rng, const std::array<const char*, N>& items) {
  return items[rng.below(N)];
}

// --- byte-level, for any text ---

std::string byte_mutation(std::string s, Rng& rng) {
  if (s.empty()) return s;
  const std::size_t at = rng.below(s.size());
  switch (rng.below(6)) {
    case 0: s[at] = static_cast<char>(s[at] ^ (1 << rng.below(8))); break;  // flip a bit
    case 1: s.resize(at); break;                                              // truncate
    case 2: {                                                                 // duplicate a slice
      const std::size_t len = 1 + rng.below(std::min<std::size_t>(s.size() - at, 4096));
      s.insert(at, s.substr(at, len));
      break;
    }
    case 3: s.erase(at, 1 + rng.below(std::min<std::size_t>(s.size() - at, 64))); break;  // delete a slice
    case 4: s.insert(at, 1, static_cast<char>(rng.below(256))); break;                    // insert a byte
    default: s[at] = pick(rng, std::array{"<", ">", "\"", "&", "{", "}", "[", "]", ",", ":", "\0"})[0]; break;
  }
  return s;
}

// --- JSON ---

// Every value in the tree, as pointers, in document order.
void collect(json& j, std::vector<json*>& out) {
  out.push_back(&j);
  if (j.is_structured())
    for (auto& child : j) collect(child, out);
}

constexpr const char* kPlaceholder = "\"@@fuzz-value@@\"";

std::string json_tree_mutation(const std::string& seed, Rng& rng) {
  json doc = json::parse(seed, nullptr, false);
  if (doc.is_discarded()) return byte_mutation(seed, rng);
  std::vector<json*> values;
  collect(doc, values);
  json& target = *values[rng.below(values.size())];
  switch (rng.below(4)) {
    case 0: {  // a hostile value in place of this one
      target = "@@fuzz-value@@";
      std::string text = doc.dump();
      const auto at = text.find(kPlaceholder);
      text.replace(at, std::string(kPlaceholder).size(), hostile_json_value(rng));
      return text;
    }
    case 1:  // a wrong type
      target = pick(rng, std::array{"[]", "{}", "\"x\"", "true", "null", "-1", "0", "1.5"});
      target = json::parse(target.get<std::string>());
      break;
    case 2:  // rename or remove a key
      if (target.is_object() && !target.empty()) {
        const std::string key = std::next(target.begin(), static_cast<std::ptrdiff_t>(rng.below(target.size()))).key();
        json v = target[key];
        target.erase(key);
        if (rng.one_in(2)) target[key + "X"] = std::move(v);
      }
      break;
    default:  // duplicate an array element many times
      if (target.is_array() && !target.empty()) {
        const json e = target[rng.below(target.size())];
        for (std::size_t i = 0, n = 1 + rng.below(200); i < n; ++i) target.push_back(e);
      }
      break;
  }
  return doc.dump(rng.one_in(2) ? -1 : 1);
}

// --- XML ---

void collect_elements(pugi::xml_node n, std::vector<pugi::xml_node>& out) {
  for (auto c : n.children())
    if (c.type() == pugi::node_element) {
      out.push_back(c);
      collect_elements(c, out);
    }
}

const char* hostile_attribute_value(Rng& rng) {
  return pick(rng, std::array{"", "0x", "-1", "99999999999999999999999", "nan", "0xf...f", "0xffffffff,0xffffffff,,", ",",
                              "0xzz", "ffff:ff:1f.7", "0000:00:00.0", "0x060400", "1e999", "32 GT/s PCIe", "4294967295",
                              "0xffffffffffffffffffff", "OSDev", "PCIDev", "Bridge", "Misc", "NUMANode"});
}

void attribute_mutation(pugi::xml_node e, Rng& rng) {
  std::vector<pugi::xml_attribute> attrs;
  for (auto a : e.attributes()) attrs.push_back(a);
  if (attrs.empty()) {
    e.append_attribute("cpuset") = hostile_attribute_value(rng);
    return;
  }
  pugi::xml_attribute a = attrs[rng.below(attrs.size())];
  switch (rng.below(3)) {
    case 0: a.set_name((std::string(a.name()) + "X").c_str()); break;
    case 1: e.remove_attribute(a); break;
    default: a.set_value(rng.one_in(8) ? repeated("0xffffffff,", 5000).c_str() : hostile_attribute_value(rng)); break;
  }
}

void element_mutation(pugi::xml_node e, Rng& rng) {
  pugi::xml_node parent = e.parent();
  switch (rng.below(4)) {
    case 0:
      if (parent) parent.insert_copy_after(e, e);
      break;
    case 1:
      if (parent && parent.parent()) parent.remove_child(e);
      break;
    case 2: {  // wrap in many levels of the same element
      pugi::xml_node outer = e;
      for (std::size_t i = 0, n = 1 + rng.below(200); i < n && parent; ++i) {
        pugi::xml_node wrap = parent.insert_child_before(e.name(), outer);
        for (auto a : e.attributes()) wrap.append_attribute(a.name()) = a.value();
        wrap.append_move(outer);
        outer = wrap;
      }
      break;
    }
    default:
      e.set_name(pick(rng, std::array{"object", "pci", "gpu", "nic", "cpu", "info", "distances2", "x"}));
      break;
  }
}

std::string xml_tree_mutation(const std::string& seed, Rng& rng) {
  pugi::xml_document doc;
  if (!doc.load_buffer(seed.data(), seed.size())) return byte_mutation(seed, rng);
  std::vector<pugi::xml_node> elements;
  collect_elements(doc, elements);
  if (elements.empty()) return byte_mutation(seed, rng);
  const pugi::xml_node e = elements[rng.below(elements.size())];
  if (rng.one_in(2)) attribute_mutation(e, rng);
  else element_mutation(e, rng);
  std::ostringstream out;
  doc.save(out, " ", rng.one_in(2) ? pugi::format_raw : pugi::format_indent);
  return out.str();
}

std::string with_dtd(const std::string& xml, Rng& rng) {
  const auto root = xml.find("<topology");
  const auto at = root != std::string::npos ? root : xml.find("<system");
  const std::string dtd = pick(rng, std::array{"<!DOCTYPE topology [<!ENTITY x \"y\">]>\n", "<!DOCTYPE topology []>\n",
                                               "<!DOCTYPE system [<!ENTITY a \"&#38;a;\">]>\n",
                                               "<!DOCTYPE topology SYSTEM \"/dev/zero\">\n",
                                               "<!DOCTYPE topology PUBLIC \"x\" \"hwloc2.dtd\" [<!ELEMENT topology ANY>]>\n"});
  std::string out = xml;
  const auto doctype = out.find("<!DOCTYPE");
  if (doctype != std::string::npos) out.erase(doctype, out.find('>', doctype) + 1 - doctype);
  out.insert(at == std::string::npos ? 0 : std::min(at, out.size()), dtd);
  if (rng.one_in(2)) {  // use an entity in an attribute value
    const auto quote = out.find("=\"", out.find(dtd) + dtd.size());
    if (quote != std::string::npos) out.insert(quote + 2, "&x;");
  }
  return out;
}

}  // namespace

std::string hostile_json_value(Rng& rng) {
  switch (rng.below(4)) {
    case 0: return repeated("[", 100 + rng.below(20000)) ;  // unclosed, deep
    case 1: {
      const std::size_t n = 60 + rng.below(3000);
      return repeated("{\"a\":", n) + "1" + repeated("}", n);
    }
    case 2: {
      const std::size_t n = 60 + rng.below(3000);
      return repeated("[", n) + repeated("]", n);
    }
    default:
      return pick(rng, std::array{"1e999", "-1e999", "NaN", "nan", "Infinity", "-Infinity", "99999999999999999999999",
                                  "-99999999999999999999999", "1e-999", "4.9e-324", "18446744073709551616",
                                  "-9223372036854775809", "\"\\ud800\"", "\"\\u0000\"", "0.0000000000000000000001",
                                  "1.7e308", "-1e308", "1e300", "1e-300", "1e100", "-1e-100", "1e101", "null"});
  }
}

std::string mutate_json(const std::string& seed, Rng& rng) {
  std::string s = seed;
  for (std::size_t i = 0, n = 1 + rng.below(3); i < n; ++i) s = rng.one_in(3) ? byte_mutation(s, rng) : json_tree_mutation(s, rng);
  return s;
}

std::string mutate_xml(const std::string& seed, Rng& rng) {
  std::string s = seed;
  for (std::size_t i = 0, n = 1 + rng.below(3); i < n; ++i) {
    const std::size_t kind = rng.below(8);
    s = kind == 0 ? with_dtd(s, rng) : kind < 3 ? byte_mutation(s, rng) : xml_tree_mutation(s, rng);
  }
  return s;
}

namespace {

const char* const kHostileConfWords[] = {
    "Nodes=n[0-99999999]", "Nodes=a[0-999]b[0-999]", "Nodes=n[5-3]", "Nodes=n[[1-2]]", "Nodes=n[1-", "Nodes=]",
    "Nodes=,,", "Switches=leaf[0-9999999999]", "Switches=spine", "SwitchName=", "SwitchName=a[1-2]", "LinkSpeed=-1",
    "LinkSpeed=99999999999999999999", "BlockName=b1", "Foo=bar", "=", "Nodes=n[01-16,20,000-099]", "#", "\\"};

// Replaces one whitespace-separated word, duplicates or removes one line.
std::string conf_mutation(const std::string& s, Rng& rng) {
  std::vector<std::string> lines;
  std::string cur;
  for (char c : s) {
    if (c == '\n') {
      lines.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  lines.push_back(cur);
  const std::size_t i = rng.below(lines.size());
  const std::size_t kind = rng.below(3);
  if (kind == 0) {
    lines.insert(lines.begin() + static_cast<long>(i), lines[i]);
  } else if (kind == 1 && lines.size() > 1) {
    lines.erase(lines.begin() + static_cast<long>(i));
  } else {
    const std::string word = kHostileConfWords[rng.below(sizeof kHostileConfWords / sizeof *kHostileConfWords)];
    const auto space = lines[i].find(' ');
    lines[i] = space == std::string::npos || rng.one_in(2) ? lines[i] + " " + word : word + lines[i].substr(space);
  }
  std::string out;
  for (std::size_t k = 0; k < lines.size(); ++k) out += (k ? "\n" : "") + lines[k];
  return out;
}

}  // namespace

std::string mutate_conf(const std::string& seed, Rng& rng) {
  std::string s = seed;
  for (std::size_t i = 0, n = 1 + rng.below(3); i < n; ++i) s = rng.one_in(3) ? byte_mutation(s, rng) : conf_mutation(s, rng);
  return s;
}

}  // namespace gpunet::fuzz
