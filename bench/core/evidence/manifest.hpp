// The evidence bundle's manifest: one line per file, "SHA256  PATH" as sha256sum writes it, so that
// `sha256sum -c MANIFEST.sha256` in the bundle's folder checks it too. Pure functions: the text of a
// manifest, its parse, and which member names a bundle may hold.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpunet::evidence {

inline constexpr const char* kBundleName = "evidence.tar.gz";    // in the output directory
inline constexpr const char* kBundleRoot = "evidence";           // the one folder at the archive's top
inline constexpr const char* kManifestName = "MANIFEST.sha256";  // in that folder
inline constexpr const char* kSignatureName = "MANIFEST.sha256.sig";
inline constexpr const char* kSignatureNamespace = "gpunet-bench-evidence";  // ssh-keygen -Y ... -n

struct ManifestEntry {
  std::string sha256;  // 64 lower-case hex digits
  std::string path;    // relative to the bundle's folder
};

// The manifest's text, one "SHA256  PATH\n" line per entry, in the order given.
std::string manifest_text(const std::vector<ManifestEntry>& entries);

struct ManifestParsed {
  std::vector<ManifestEntry> entries;
  std::string error;  // one phrase naming the line, empty when the whole text parsed
};
// Reads a manifest; a binary-mode line ("SHA256 *PATH") is read too. An unsafe or repeated path is an error.
ManifestParsed parse_manifest(std::string_view text);

// A file name a bundle stores as is: letters, digits and . _ - + @ only, not starting with a dot.
bool is_plain_file_name(std::string_view name);

// Why a member path may not be extracted ("an absolute path", "a .. component"); empty when it may.
std::string unsafe_path_reason(std::string_view path);

}  // namespace gpunet::evidence
