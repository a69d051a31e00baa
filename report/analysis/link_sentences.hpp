// The sentences "What is wrong" says for the links report/analysis/link_locate.hpp finds: each with its evidence
// (how many pairs cross it and how fast, the pairs inside its leaves, the pairs no named link carries)
// ("leaf1 ↔ spine: 24 of 24 pairs crossing it at 0.0271 Gb/s (0.30 of the best pair), pairs within
// leaf1 at 0.0915 Gb/s; the 32 pairs through no named link at 0.93 or better: suspect the uplink, not
// the nodes"). Pure.
#pragma once

#include <string>

#include "report/analysis/link_locate.hpp"

namespace gpunet::report {

// An uplink or spine culprit's sentence; links that cannot be told apart are named with "or" and a note.
std::string fabric_culprit_sentence(const LinkCulprit& c, const LinkLocation& loc);

// A NIC culprit's sentence, said after the host's name ("n7: its NIC: ...").
std::string nic_culprit_sentence(const LinkCulprit& c, const LinkLocation& loc);

}  // namespace gpunet::report
