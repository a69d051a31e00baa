// What the "Training impact" section needs beyond its words (report/document/document_section.hpp,
// laid out by section_render.hpp): its chart in report.html, and its console form, which keeps the
// focus workload's table and the link speeds. Each returns "" when the report has no training section.
#pragma once

#include <string>

#include "report/model/record.hpp"
#include "report/render/svg_chart.hpp"

namespace gpunet::report::training {

std::string training_charts_html(const Report& rep);  // <div class="charts"> with the waiting chart
std::string training_console(const Report& rep);
// GPU waiting (fixed model, capped efficiency) against node count, one series per link speed plus
// this network as fitted.
LineChart waiting_chart(const nlohmann::json& section);

}  // namespace gpunet::report::training
