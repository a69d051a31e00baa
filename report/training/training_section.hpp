// The "Training impact" section: the fitted alpha-beta models, and per workload and node count the
// communication per step, step times, GPU waiting fraction and scaling efficiency, at this network and
// projected to standard Ethernet speeds; data movement times and the latency check. Computed here,
// once, into Report::extra.training; every renderer only formats that object.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/model/record.hpp"
#include "report/training/training_model.hpp"
#include "report/training/training_params.hpp"

namespace gpunet::report::training {

struct Preset {
  const char* name;
  double params;
};
inline constexpr Preset kPresets[] = {{"1.3B", 1.3e9}, {"7B", 7e9}, {"13B", 13e9}, {"70B", 70e9}};

nlohmann::json params_json(const TrainingParams& p);
// Reads back what params_json wrote (a re-rendered report keeps the run's parameters).
TrainingParams params_from_json(const nlohmann::json& j);

// The whole section for an analysed report (ceilings and efficiencies already attached).
nlohmann::json training_section(const Report& rep, const TrainingParams& p);
// rep.extra.training = training_section(rep, p).
void add_training_section(Report& rep, const TrainingParams& p);
// The parameters of an earlier section in rep.extra.training, else the defaults.
TrainingParams stored_params(const Report& rep);

}  // namespace gpunet::report::training
