// The "Training impact" section laid out once as text: a headline, notes and tables of formatted
// cells, from the typed answer (training_result.hpp). Console, Markdown and HTML all print these same strings,
// so every output shows the same numbers. Pure.
#pragma once

#include <string>
#include <vector>

#include "report/training/training_result.hpp"

namespace gpunet::report::training {

struct TextTable {
  std::string title;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

struct SectionText {
  bool present = false;        // the report has a training section
  std::string headline;        // one paragraph: the answer
  std::vector<std::string> notes;  // inputs, defaults, assumptions, estimates
  std::vector<TextTable> tables;
};

SectionText section_text(const TrainingResult& section);

// Formats shared by the section's text: 0.973 -> "97.3 %"; seconds with 3 significant digits;
// bytes in GB (1e9); alpha in microseconds; a bandwidth in Gb/s.
std::string percent_text(double fraction);
std::string seconds_text(double s);
std::string gigabytes_text(double bytes);
std::string gbits_text(double GBps);

}  // namespace gpunet::report::training
