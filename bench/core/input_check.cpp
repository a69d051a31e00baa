#include "bench/core/input_check.hpp"

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/core/acceptance.hpp"
#include "bench/core/evidence_step.hpp"
#include "bench/core/output_probe.hpp"
#include "report/render/outputs.hpp"
#include "topology/topology.hpp"

namespace gpunet::bench {

namespace {

constexpr const char* kPrefix = "gpunet-bench: error: ";

}  // namespace

int check_inputs(const Config& cfg, std::ostream& out, std::ostream& err) {
  int problems = 0;
  std::vector<std::string> checked{"the options"};
  try {
    (void)load_acceptance(cfg, err);  // writes its own line
    if (!cfg.spec_path.empty()) checked.push_back("--spec " + cfg.spec_path);
    if (!cfg.baseline_path.empty()) checked.push_back("--baseline " + cfg.baseline_path);
    if (!cfg.fabric_path.empty()) checked.push_back("--fabric " + cfg.fabric_path);
    if (!cfg.history_path.empty()) checked.push_back("--history " + cfg.history_path);
  } catch (const std::invalid_argument&) {
    ++problems;
  }
  if (!sign_key_usable(cfg, err))
    ++problems;
  else if (!cfg.sign_key.empty())
    checked.push_back("--sign-key " + cfg.sign_key);
  if (!cfg.topology_xml.empty()) {
    try {
      (void)topo::load_topology_file(cfg.topology_xml);
      checked.push_back("--topology-xml " + cfg.topology_xml);
    } catch (const std::exception& e) {
      err << kPrefix << e.what() << "\n";
      ++problems;
    }
  }
  if (!cfg.report_input.empty()) {
    const auto loaded = report::load_results(cfg.report_input);
    if (loaded.report) {
      checked.push_back("report " + cfg.report_input);
    } else {
      err << "gpunet-bench report: " << loaded.error << "\n";
      ++problems;
    }
  }
  // The outputs are tried the way the run will write them, so that --check approves no run that would
  // measure everything and then fail to write.
  if (const auto why = probe_output_dir("-o/--output", cfg.output_dir); !why.empty()) {
    err << kPrefix << why << "\n";
    ++problems;
  }
  if (problems) return 2;
  std::string list;
  for (size_t i = 0; i < checked.size(); ++i) list += (i ? (i + 1 == checked.size() ? " and " : ", ") : "") + checked[i];
  out << "gpunet-bench: --check: " << list << " are valid; nothing was measured\n";
  return 0;
}

}  // namespace gpunet::bench
