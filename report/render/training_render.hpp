// The "Training impact" section in each output format: formatting only, of the text laid out by
// training_tables.hpp from Report::extra.training (report.json carries that object itself). Each
// returns "" when the report has no training section.
#pragma once

#include <string>

#include "report/model/record.hpp"
#include "report/render/svg_chart.hpp"

namespace gpunet::report::training {

std::string training_markdown(const Report& rep);
std::string training_html(const Report& rep);
std::string training_console(const Report& rep);
// GPU waiting (fixed model, capped efficiency) against node count, one series per link speed plus
// this network as fitted.
LineChart waiting_chart(const nlohmann::json& section);

}  // namespace gpunet::report::training
