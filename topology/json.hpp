// The report.json section of one node, and findings as JSON. Every GPU and NIC is listed by PCI bus
// id (dddd:bb:dd.f); every GPU x GPU and GPU x NIC pair is an object {a, b, class}. Unknown values
// are null, never guessed.
#pragma once

#include "common/json.hpp"

#include "topology/findings.hpp"
#include "topology/model.hpp"

namespace gpunet::topo {

gpunet::json to_json(const NodeTopology& t);
gpunet::json to_json(const Finding& f);
// Throws gpunet::json::exception or std::invalid_argument on bad input.
Finding finding_from_json(const gpunet::json& j);

}  // namespace gpunet::topo
