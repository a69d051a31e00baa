#include "bench/core/evidence_step.hpp"

#include <stdexcept>

#include "bench/core/evidence/bundle_verify.hpp"
#include "bench/core/evidence/bundle_write.hpp"

namespace gpunet::bench {

int with_evidence(const Config& cfg, int code, std::ostream& out, std::ostream& err) {
  const bool outputs_written = code == 0 || code == 1 || code == 4;
  if (!cfg.evidence || !outputs_written) return code;
  evidence::BundleRequest request{cfg.output_dir, {}, cfg.sign_key};
  for (const auto& [option, path] : {std::pair{"spec", &cfg.spec_path}, {"baseline", &cfg.baseline_path}, {"fabric", &cfg.fabric_path}})
    if (!path->empty()) request.inputs.push_back({option, *path});
  try {
    const auto done = evidence::write_bundle(request);
    for (const auto& note : done.notes) out << "# evidence: " << note << "\n";
    out << "# evidence: " << done.path << " (" << done.files << " files in its SHA-256 manifest"
        << (cfg.sign_key.empty() ? ", unsigned" : ", signed with " + cfg.sign_key) << "; check it with gpunet-bench verify "
        << done.path << ")\n";
    return code;
  } catch (const std::exception& e) {
    err << "gpunet-bench: error: " << e.what() << " (the bundle was not written; the report files are complete)\n";
    return 3;
  }
}

bool sign_key_usable(const Config& cfg, std::ostream& err) {
  if (cfg.sign_key.empty()) return true;
  const std::string why = evidence::sign_key_problem(cfg.sign_key);
  if (!why.empty()) err << "gpunet-bench: error: " << why << "\n";
  return why.empty();
}

int verify_command(const Config& cfg, std::ostream& out, std::ostream& err) {
  return evidence::verify_bundle({cfg.verify_input, cfg.allowed_signers, cfg.signer_identity}, out, err);
}

}  // namespace gpunet::bench
