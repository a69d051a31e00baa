// The summary's NVLink rows ("inside a node"). No suite copies between GPUs: the pcie suite times
// host<->device copies only, and the collectives' figures are bus bandwidths of whole operations, not
// of one link. So for each node with two or more GPUs the summary says plainly that NVLink was not
// measured, and gives what the node's topology section shows: the NVLink links between its GPU
// pairs (path class NV<n>, nvidia-smi topo -m's notation) with their line-rate ceiling per direction
// (report/CEILINGS.md §4, from the GPUs' nvlink.gen), or that it shows no NVLink at all. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/analysis/ceilings.hpp"
#include "report/model/record.hpp"

namespace gpunet::report {

struct NvlinkSummaryRow {
  std::string host;
  std::string figure;   // what the row is and why it carries no measured value
  std::string subject;  // "host (6 of 6 GPU pairs)"
  int links = 0;        // NVLink links per pair; 0: the topology shows none
  Ceiling ceiling;      // links x the generation's per-link rate, per direction; unknown without NVLink or generation
};

// In topology host order; none for nodes with fewer than two GPUs.
std::vector<NvlinkSummaryRow> nvlink_summary_rows(const Report& rep);

}  // namespace gpunet::report
