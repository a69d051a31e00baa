// What --check (and the run, before it measures) does to the outputs it will write: it tries them the
// way the run will. probe_output_dir() creates the directory as the run does (and removes what it
// created), then creates and removes a file in it; probe_baseline_file() refuses a directory and
// creates and removes a file beside the baseline. Each returns "" or one line naming the option.
#pragma once

#include <string>

namespace gpunet::bench {

// `option` names the option in the message ("-o/--output").
std::string probe_output_dir(const std::string& option, const std::string& dir);
std::string probe_baseline_file(const std::string& option, const std::string& path);  // --save-baseline, --learn-baseline

}  // namespace gpunet::bench
