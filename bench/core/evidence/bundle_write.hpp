// Writing OUTDIR/evidence.tar.gz after a run's (or a re-render's) outputs are written: every output
// file of the directory, the input files that judged the run (--spec, --baseline, --fabric), the
// provenance and the per-node topology taken from report.json, and MANIFEST.sha256 over all of them;
// with a key, MANIFEST.sha256.sig from `ssh-keygen -Y sign` (docs/evidence.md).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpunet::evidence {

struct BundleInput {
  std::string option;  // "spec": the file is stored as inputs/spec-NAME
  std::string path;
};

struct BundleRequest {
  std::string output_dir;
  std::vector<BundleInput> inputs;  // the ones given
  std::string sign_key;             // empty: unsigned
};

struct BundleWritten {
  std::string path;                // OUTDIR/evidence.tar.gz
  size_t files = 0;                // listed in the manifest
  std::vector<std::string> notes;  // files left out, and why
};

// Why ssh-keygen cannot sign with `key` (it cannot load it without asking for a passphrase, or is
// missing), as one line that names --sign-key; empty when it can. Checked before a run measures.
std::string sign_key_problem(const std::string& key);

// Builds the bundle in a private folder inside the output directory and renames it into place.
// Throws std::runtime_error with one line (what failed and what to do); no partial bundle is left.
BundleWritten write_bundle(const BundleRequest& request);

}  // namespace gpunet::evidence
