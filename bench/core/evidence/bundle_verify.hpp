// `gpunet-bench verify FILE.tar.gz`: the bundle is listed first (only folders and regular files under
// evidence/, no absolute path, no ..), then extracted into a private temporary folder; every line of
// MANIFEST.sha256 is checked, a file the manifest does not list is a change too, and a signature in the
// bundle is checked with `ssh-keygen -Y verify` against allowed signers, or with `-Y check-novalidate`
// (the signature is sound, its signer unchecked) when none are given.
#pragma once

#include <ostream>
#include <string>

namespace gpunet::evidence {

struct VerifyRequest {
  std::string bundle;
  std::string allowed_signers;  // empty: the signer is not checked
  std::string identity;         // empty: the principal that allowed_signers gives the signing key
};

inline constexpr int kVerifyIntact = 0;
inline constexpr int kVerifyChanged = 1;   // a file changed, missing or added, or a bad signature
inline constexpr int kVerifyUnusable = 2;  // not a bundle, a damaged archive, no manifest

// The verdict on `out` (intact) or one line on `err` naming the first changed file or the problem.
int verify_bundle(const VerifyRequest& request, std::ostream& out, std::ostream& err);

}  // namespace gpunet::evidence
