#include "bench/core/evidence_options.hpp"

namespace gpunet::bench {

namespace {

void add_bundle_options(CLI::App& app, Config& c) {
  app.add_flag("--evidence", c.evidence,
               "After the outputs, write DIR/evidence.tar.gz: every output, the input files, the provenance and a "
               "SHA-256 manifest (check it with gpunet-bench verify)");
  app.add_option("--sign-key", c.sign_key,
                 "With --evidence: sign the manifest with this OpenSSH private key (ssh-keygen -Y sign, namespace "
                 "gpunet-bench-evidence)")
      ->type_name("KEY")
      ->check(CLI::Validator(CLI::ExistingFile).description(""));
}

}  // namespace

void add_evidence_options(CLI::App& app, Config& c) {
  add_bundle_options(app, c);
  add_bundle_options(*app.get_subcommand("report"), c);
  auto* ver = app.add_subcommand("verify", "Check an evidence.tar.gz: every file against its SHA-256 manifest, and its signature");
  ver->add_option("path", c.verify_input, "evidence.tar.gz")->required();
  ver->add_option("--allowed-signers", c.allowed_signers,
                  "Check who signed: an allowed_signers file (ssh-keygen -Y verify); without it the signature is "
                  "checked but its signer is not")
      ->type_name("FILE")
      ->check(CLI::Validator(CLI::ExistingFile).description(""));
  ver->add_option("--identity", c.signer_identity,
                  "With --allowed-signers: the signer's principal (default: the one the file gives the key)")
      ->type_name("ID");
}

std::optional<std::string> finish_evidence_options(const CLI::App& app, const Config& c) {
  if (app.got_subcommand("verify")) {
    if (c.verify_input.empty()) return "verify: empty path (give an evidence.tar.gz)";
    if (!c.signer_identity.empty() && c.allowed_signers.empty())
      return "verify --identity needs --allowed-signers FILE (the keys the identity may sign with)";
  }
  if (!c.sign_key.empty() && !c.evidence) return "--sign-key needs --evidence (the signature is of the bundle's manifest)";
  return std::nullopt;
}

}  // namespace gpunet::bench
