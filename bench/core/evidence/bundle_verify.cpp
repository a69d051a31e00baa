#include "bench/core/evidence/bundle_verify.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "bench/core/evidence/manifest.hpp"
#include "bench/core/evidence/program_run.hpp"
#include "bench/core/evidence/sha256_file.hpp"
#include "common/input_file.hpp"

namespace gpunet::evidence {

namespace fs = std::filesystem;

namespace {

// A finding that ends the check: its exit code and its one line.
struct VerifyStop {
  int code;
  std::string line;
};

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Lists the archive twice (names, and `tar -tv` for each member's type) and refuses anything but
// folders and regular files under evidence/ before a byte is extracted.
void check_members(const std::string& bundle, const std::string& work) {
  const std::string names = work + "/names", types = work + "/types", errs = work + "/tar.err";
  const auto listed = run_program({{"tar", "--list", "--gzip", "--file", bundle}, "/dev/null", names, errs});
  if (!listed.started) throw VerifyStop{kVerifyUnusable, "cannot run tar (" + listed.error + "; install tar and gzip)"};
  if (listed.code != 0) throw VerifyStop{kVerifyUnusable, "not a readable tar.gz archive, damaged or of another kind (tar: " + last_line_of(errs) + ")"};
  const auto verbose = run_program({{"tar", "--list", "--verbose", "--gzip", "--file", bundle}, "/dev/null", types, errs});
  const auto member_names = lines_of(names), member_types = lines_of(types);
  if (verbose.code != 0 || member_names.size() != member_types.size() || member_names.empty())
    throw VerifyStop{kVerifyUnusable, "the archive's member list cannot be read (a damaged archive)"};
  const std::string prefix = std::string(kBundleRoot) + "/";
  for (size_t i = 0; i < member_names.size(); ++i) {
    const std::string& name = member_names[i];
    const char type = member_types[i].empty() ? '?' : member_types[i][0];
    std::string why = unsafe_path_reason(name);
    if (why.empty() && type != '-' && type != 'd') why = "not a regular file or folder (a link or a device)";
    if (why.empty() && name != kBundleRoot && name.rfind(prefix, 0) != 0) why = "outside the evidence/ folder";
    if (!why.empty())
      throw VerifyStop{kVerifyUnusable, "member '" + name + "': " + why + "; not a bundle gpunet-bench writes, nothing was extracted"};
  }
}

void extract(const std::string& bundle, const std::string& into, const std::string& work) {
  fs::create_directory(into);
  const std::string errs = work + "/tar.err";
  const auto ran = run_program({{"tar", "--extract", "--gzip", "--file", bundle, "--directory", into, "--no-same-owner",
                                 "--no-same-permissions", "--no-overwrite-dir"},
                                "/dev/null", "/dev/null", errs});
  if (ran.code != 0) throw VerifyStop{kVerifyUnusable, "the archive cannot be extracted, it is damaged (tar: " + last_line_of(errs) + ")"};
}

// The regular files under the bundle's folder, relative to it; anything else there is refused.
std::set<std::string> bundle_files(const fs::path& root) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const auto st = e.symlink_status();
    if (fs::is_directory(st)) continue;
    const std::string rel = fs::relative(e.path(), root).generic_string();
    if (!fs::is_regular_file(st)) throw VerifyStop{kVerifyUnusable, "member '" + rel + "' is not a regular file"};
    out.insert(rel);
  }
  return out;
}

std::string read_manifest(const fs::path& root) {
  const std::string path = (root / kManifestName).string();
  if (!fs::is_regular_file(fs::symlink_status(path)))
    throw VerifyStop{kVerifyUnusable, std::string("no ") + kBundleRoot + "/" + kManifestName + " in the archive: not an evidence bundle"};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first file that differs from the manifest: changed, missing, or present but not listed.
void check_files(const fs::path& root, const std::vector<ManifestEntry>& entries, std::set<std::string> present) {
  for (const auto& e : entries) {
    if (!present.count(e.path)) throw VerifyStop{kVerifyChanged, e.path + ": listed in the manifest but missing from the bundle"};
    if (sha256_hex_of_file((root / e.path).string()) != e.sha256)
      throw VerifyStop{kVerifyChanged, e.path + ": changed (its SHA-256 differs from the manifest's)"};
    present.erase(e.path);
  }
  present.erase(kManifestName);
  present.erase(kSignatureName);
  if (!present.empty()) throw VerifyStop{kVerifyChanged, *present.begin() + ": in the bundle but not in the manifest (added after it was made)"};
}

// The principal allowed_signers names for the key that made `sig`, or the one given.
std::string signer_of(const VerifyRequest& r, const std::string& sig, const std::string& work) {
  if (!r.identity.empty()) return r.identity;
  const std::string found = work + "/principals", errs = work + "/ssh-keygen.err";
  const auto ran = run_program({{"ssh-keygen", "-Y", "find-principals", "-f", r.allowed_signers, "-s", sig}, "/dev/null", found, errs});
  const auto names = lines_of(found);
  if (ran.code != 0 || names.empty())
    throw VerifyStop{kVerifyChanged, std::string(kSignatureName) + ": its key is not in " + r.allowed_signers + " (ssh-keygen: " + last_line_of(errs) + ")"};
  return names.front();
}

// The sentence on the signature for the verdict line; throws when it does not verify.
std::string check_signature(const VerifyRequest& r, const fs::path& root, const std::string& work) {
  const std::string sig = (root / kSignatureName).string(), manifest = (root / kManifestName).string();
  if (!fs::exists(fs::symlink_status(sig))) {
    if (!r.allowed_signers.empty())
      throw VerifyStop{kVerifyChanged, std::string("the bundle is not signed (no ") + kSignatureName + "), but --allowed-signers asks for a signature"};
    return "not signed";
  }
  const std::string errs = work + "/ssh-keygen.err";
  if (r.allowed_signers.empty()) {
    const auto ran = run_program({{"ssh-keygen", "-Y", "check-novalidate", "-n", kSignatureNamespace, "-s", sig}, manifest, "/dev/null", errs});
    if (!ran.started) throw VerifyStop{kVerifyUnusable, "cannot run ssh-keygen to check the signature (" + ran.error + "; install openssh-client)"};
    if (ran.code != 0) throw VerifyStop{kVerifyChanged, std::string(kSignatureName) + ": the signature does not match the manifest (ssh-keygen: " + last_line_of(errs) + ")"};
    return "signature valid, signer NOT checked (give --allowed-signers FILE to check who signed)";
  }
  const std::string who = signer_of(r, sig, work);
  const auto ran = run_program({{"ssh-keygen", "-Y", "verify", "-f", r.allowed_signers, "-I", who, "-n", kSignatureNamespace, "-s", sig},
                                manifest, "/dev/null", errs});
  if (!ran.started) throw VerifyStop{kVerifyUnusable, "cannot run ssh-keygen to check the signature (" + ran.error + "; install openssh-client)"};
  if (ran.code != 0)
    throw VerifyStop{kVerifyChanged, std::string(kSignatureName) + ": not a valid signature by " + who + " in " + r.allowed_signers + " (ssh-keygen: " + last_line_of(errs) + ")"};
  return "signed by " + who + " (checked with " + r.allowed_signers + ")";
}

std::string check_bundle(const VerifyRequest& r) {
  struct stat st {};
  if (::stat(r.bundle.c_str(), &st) != 0) throw VerifyStop{kVerifyUnusable, input_file_detail::open_problem(errno)};
  if (const auto why = input_file_detail::mode_problem(st.st_mode, "evidence.tar.gz"); !why.empty()) throw VerifyStop{kVerifyUnusable, why};
  const PrivateDir work(temp_parent(), "gpunet-verify-");
  check_members(r.bundle, work.path());
  const std::string into = work.path() + "/x";
  extract(r.bundle, into, work.path());
  const fs::path root = fs::path(into) / kBundleRoot;
  const auto present = bundle_files(root);
  const auto parsed = parse_manifest(read_manifest(root));
  if (!parsed.error.empty()) throw VerifyStop{kVerifyUnusable, std::string(kManifestName) + ": " + parsed.error + ": not a usable manifest"};
  check_files(root, parsed.entries, present);
  const std::string signature = check_signature(r, root, work.path());
  return "intact: " + std::to_string(parsed.entries.size()) + " files match " + kManifestName + "; " + signature;
}

}  // namespace

int verify_bundle(const VerifyRequest& request, std::ostream& out, std::ostream& err) {
  try {
    const std::string verdict = check_bundle(request);  // before anything is printed: a throw prints on err only
    out << "gpunet-bench verify: " << request.bundle << ": " << verdict << "\n";
    return kVerifyIntact;
  } catch (const VerifyStop& stop) {
    err << "gpunet-bench verify: " << request.bundle << ": " << stop.line << "\n";
    return stop.code;
  } catch (const std::exception& e) {
    err << "gpunet-bench verify: " << request.bundle << ": " << e.what() << "\n";
    return kVerifyUnusable;
  }
}

}  // namespace gpunet::evidence
