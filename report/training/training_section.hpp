// The "Training impact" section: the fitted alpha-beta models, and per workload and node count the
// communication per step, step times, GPU waiting fraction and scaling efficiency, at this network and
// projected to standard Ethernet speeds; data movement times and the latency check. Computed here,
// once, by report::analyse (report/analysed/analyse.hpp), typed (training_result.hpp); the documents
// format it and report.json carries it as extra.training.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/model/record.hpp"
#include "report/training/training_model.hpp"
#include "report/training/training_params.hpp"
#include "report/training/training_result.hpp"

namespace gpunet::report::training {

struct Preset {
  const char* name;
  double params;
};
inline constexpr Preset kPresets[] = {{"1.3B", 1.3e9}, {"7B", 7e9}, {"13B", 13e9}, {"70B", 70e9}};

// The whole section for an analysed report (ceilings and efficiencies already attached).
TrainingResult training_section(const Report& rep, const TrainingParams& p);
// The section, or none when the run has nothing to model (no curve, no pair, no latency: say, the
// topo suite alone).
std::optional<TrainingResult> training_answer(const Report& rep, const TrainingParams& p);
// The parameters of an earlier section in rep.extra.training, else the defaults.
TrainingParams stored_params(const Report& rep);

}  // namespace gpunet::report::training
