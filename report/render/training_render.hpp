// What the "Training impact" section needs beyond its words (report/document/document_section.hpp,
// laid out by section_render.hpp): its chart in report.html, and its console form, which keeps the
// focus workload's table and the link speeds. Each returns "" without an answer.
#pragma once

#include <optional>
#include <string>

#include "report/render/svg_chart.hpp"
#include "report/training/training_result.hpp"

namespace gpunet::report::training {

std::string training_charts_html(const std::optional<TrainingResult>& answer);  // <div class="charts"> with the waiting chart
std::string training_console(const std::optional<TrainingResult>& answer);
// GPU waiting (fixed model, capped efficiency) against node count, one series per link speed plus
// this network as fitted.
LineChart waiting_chart(const TrainingResult& section);

}  // namespace gpunet::report::training
