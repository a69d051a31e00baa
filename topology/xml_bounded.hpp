// Parsing a topology file's XML with bounds: well-formed (pugixml), at most kMaxXmlDepth levels and
// kMaxXmlElements elements, so that no reader below (the NCCL walker, hwloc's importer) meets a
// document deeper or larger than a real machine gives.
#pragma once

#include <cstddef>
#include <string>

#include <pugixml.hpp>

namespace gpunet::topo {

// A real hwloc export nests about 20 levels (machine, package, caches, core, PU; bridges, devices)
// and holds a few thousand elements on the largest machines.
inline constexpr std::size_t kMaxXmlDepth = 64;
inline constexpr std::size_t kMaxXmlElements = 200000;

// Parses `text` into `doc`. Throws InputError("PATH: ...", one line) when it is not well-formed XML,
// nests deeper than kMaxXmlDepth or holds more than kMaxXmlElements elements.
void parse_xml_bounded(pugi::xml_document& doc, const std::string& text, const std::string& path);

}  // namespace gpunet::topo
