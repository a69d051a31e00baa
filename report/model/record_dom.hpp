// A result record read straight from simdjson's DOM, without building its JSON tree first: the lines of
// a results.jsonl (a million matrix flows at 1,024 hosts) are read this way by the JSON-lines parser
// (json_lines_parser.hpp). It gives the very record that the tree's reading gives (from_json, then
// hold_links_apart, hold_cpu_apart, hold_timeline_apart and hold_flow_facts_apart of record.hpp), or
// none: wherever a line is not as this version writes it (an unknown or repeated key, a value of
// another type, an unsigned or out-of-range number, an unknown status), the tree's reading decides,
// and words any error. Internal to report/model.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <simdjson.h>

#include "report/model/json_lines_parser.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

// Holds a link's facts object (extra.link, extra.dst_link) as the parser holds it apart: its shared
// object and its text. False where its tree cannot be built.
using HoldLinkFacts = std::function<bool(simdjson::dom::element, HeldObject&)>;

std::optional<RecordLine> record_of_dom(simdjson::dom::element top, std::size_t max_depth, const HoldLinkFacts& hold);

}  // namespace gpunet::report
