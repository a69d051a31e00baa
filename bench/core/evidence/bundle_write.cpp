#include "bench/core/evidence/bundle_write.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "bench/core/evidence/manifest.hpp"
#include "bench/core/evidence/program_run.hpp"
#include "bench/core/evidence/sha256_file.hpp"
#include "common/input_file.hpp"
#include "report/model/file_write.hpp"
#include "report/model/json_file.hpp"

namespace gpunet::evidence {

namespace fs = std::filesystem;

namespace {

// The regular files of the output directory, by name; hidden files (the run's lock, temporary files)
// and the bundle itself stay out, and so do names a manifest line could not hold as they are.
std::vector<std::string> output_files_of(const std::string& dir, std::vector<std::string>& notes) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.front() == '.' || name == kBundleName || !entry.is_regular_file() || entry.is_symlink()) continue;
    if (!is_plain_file_name(name)) {
      notes.push_back("left out " + dir + "/" + name + " (a name with characters a manifest line cannot hold)");
      continue;
    }
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// provenance/provenance.json and one provenance/topology-HOST.json per node from the run's report.json,
// with provenance/hwloc-HOST.xml where the run kept the node's hwloc export (--evidence on the run).
void write_provenance(const std::string& report_json, const fs::path& into, std::vector<std::string>& notes) {
  if (!fs::exists(report_json)) {
    notes.push_back("no report.json in the output directory: the bundle holds no provenance");
    return;
  }
  const auto doc = report::read_json_file<std::runtime_error>(report_json, kResultsInput);
  fs::create_directories(into);
  if (doc.contains("provenance")) report::write_file_replacing((into / "provenance.json").string(), doc["provenance"].dump(2) + "\n");
  if (!doc.contains("topology") || !doc["topology"].is_object()) return;
  size_t index = 0;
  for (const auto& [host, node] : doc["topology"].items()) {
    const std::string name = is_plain_file_name(host) ? host : "node" + std::to_string(index);
    gpunet::json section = node;
    // A run with --evidence keeps each node's own hwloc export: the file lstopo would write.
    if (section.is_object() && section.contains("hwloc_xml")) {
      if (section["hwloc_xml"].is_string())
        report::write_file_replacing((into / ("hwloc-" + name + ".xml")).string(), section["hwloc_xml"].get<std::string>());
      section.erase("hwloc_xml");
    }
    report::write_file_replacing((into / ("topology-" + name + ".json")).string(), section.dump(2) + "\n");
    ++index;
  }
}

// Every regular file under `root`, as paths relative to it, sorted.
std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), root).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

void sign_manifest(const std::string& key, const fs::path& manifest, const std::string& log_dir) {
  const std::string err_path = log_dir + "/ssh-keygen.err";
  const auto ran = run_program({{"ssh-keygen", "-q", "-Y", "sign", "-f", key, "-n", kSignatureNamespace, manifest.string()},
                                "/dev/null", "/dev/null", err_path});
  if (!ran.started)
    throw std::runtime_error("--sign-key: cannot run ssh-keygen (" + ran.error + "; install openssh-client)");
  if (ran.code != 0)
    throw std::runtime_error("--sign-key " + key + ": ssh-keygen -Y sign failed (" + last_line_of(err_path) +
                             "; give an OpenSSH private key without a passphrase, readable by this user only)");
}

void pack(const std::string& stage, const std::string& archive, const std::string& log_dir) {
  const std::string err_path = log_dir + "/tar.err";
  const auto ran = run_program({{"tar", "--create", "--gzip", "--file", archive, "--directory", stage, "--owner=0", "--group=0",
                                 "--numeric-owner", "--sort=name", kBundleRoot},
                                "/dev/null", "/dev/null", err_path});
  if (!ran.started) throw std::runtime_error("--evidence: cannot run tar (" + ran.error + "; install tar and gzip)");
  if (ran.code != 0) throw std::runtime_error("--evidence: tar failed writing " + archive + " (" + last_line_of(err_path) + ")");
}

}  // namespace

std::string sign_key_problem(const std::string& key) {
  const PrivateDir work(temp_parent(), "gpunet-key-");
  const std::string err_path = work.path() + "/ssh-keygen.err";
  // -y prints the public key of the private key: it loads the key as -Y sign will.
  const auto ran = run_program({{"ssh-keygen", "-y", "-f", key}, "/dev/null", "/dev/null", err_path});
  if (!ran.started) return "--sign-key: cannot run ssh-keygen (" + ran.error + "; install openssh-client)";
  if (ran.code != 0)
    return "--sign-key " + key + ": ssh-keygen cannot load the key (" + last_line_of(err_path) +
           "; give an OpenSSH private key without a passphrase, readable by this user only)";
  return "";
}

BundleWritten write_bundle(const BundleRequest& request) {
  BundleWritten done;
  const std::string& dir = request.output_dir;
  const PrivateDir work(dir, ".evidence-");
  const fs::path root = fs::path(work.path()) / kBundleRoot;
  fs::create_directories(root);
  for (const auto& name : output_files_of(dir, done.notes)) fs::copy_file(fs::path(dir) / name, root / name);
  for (const auto& in : request.inputs) {
    const std::string base = fs::path(in.path).filename().string();
    const std::string name = in.option + "-" + (is_plain_file_name(base) ? base : "file");
    fs::create_directories(root / "inputs");
    fs::copy_file(in.path, root / "inputs" / name, fs::copy_options::overwrite_existing);
  }
  write_provenance(dir + "/report.json", root / "provenance", done.notes);
  std::vector<ManifestEntry> entries;
  for (const auto& rel : files_under(root)) entries.push_back({sha256_hex_of_file((root / rel).string()), rel});
  done.files = entries.size();
  report::write_file_replacing((root / kManifestName).string(), manifest_text(entries));
  if (!request.sign_key.empty()) sign_manifest(request.sign_key, root / kManifestName, work.path());
  const std::string part = work.path() + "/" + kBundleName;
  pack(work.path(), part, work.path());
  done.path = dir + "/" + kBundleName;
  fs::rename(part, done.path);
  return done;
}

}  // namespace gpunet::evidence
