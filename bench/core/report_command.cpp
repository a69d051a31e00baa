#include "bench/core/report_command.hpp"

#include <unistd.h>

#include <filesystem>
#include <memory>

#include "bench/core/acceptance.hpp"
#include "bench/core/evidence_step.hpp"
#include "bench/core/output_lock.hpp"
#include "report/render/outputs.hpp"
#include "report/model/record.hpp"

namespace gpunet::bench {

namespace {

std::string this_host() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("this host");
}

// The lock on -o, or nullptr when the directory cannot hold one: writing there then fails with its own
// line. Throws OutputLocked when a run or another re-render holds it.
std::unique_ptr<OutputLock> lock_for_writing(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  try {
    return std::make_unique<OutputLock>(dir, lock_owner_text(::getpid(), report::utc_now_iso8601(), this_host()));
  } catch (const OutputLocked&) {
    throw;
  } catch (const std::exception&) {
    return nullptr;
  }
}

bool judges(const Config& cfg) {
  return !cfg.history_path.empty() || !cfg.spec_path.empty() || !cfg.baseline_path.empty() || !cfg.save_baseline_path.empty() ||
         !cfg.learn_baseline_path.empty() || !cfg.fabric_path.empty();  // a fabric given now changes "What is wrong"
}

}  // namespace

int report_command(const Config& cfg, std::ostream& out, std::ostream& err) {
  if (!sign_key_usable(cfg, err)) return 2;  // before anything is written
  std::unique_ptr<OutputLock> held;
  try {
    held = lock_for_writing(cfg.output_dir);
  } catch (const OutputLocked& e) {
    err << "gpunet-bench report: error: -o/--output " << e.what() << "\n";
    return 2;
  }
  if (judges(cfg)) return with_evidence(cfg, rejudge_stored_report(cfg, out, err), out, err);
  const int code = report::rerender(cfg.report_input, cfg.output_dir, err, cfg.training.given ? std::optional(cfg.training) : std::nullopt);
  if (code != 2) out << rendered_line(cfg.output_dir) << "\n";  // written; the code is the verdict's
  return with_evidence(cfg, code, out, err);
}

}  // namespace gpunet::bench
