#include "bench/core/output_probe.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "common/strings.hpp"
#include "report/model/file_write.hpp"

namespace gpunet::bench {

namespace fs = std::filesystem;

namespace {

// Creates and removes a file in `dir`; "" or the reason it could not be created.
std::string try_file_in(const fs::path& dir) {
  const fs::path probe = dir / (".gpunet-bench-probe-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return report::write_error_text(errno);
  const bool wrote = ::write(fd, "\n", 1) == 1;
  const int write_errno = errno;
  ::close(fd);
  ::unlink(probe.c_str());
  return wrote ? "" : report::write_error_text(write_errno);
}

// The directories of `dir` that do not exist yet, outermost first.
std::vector<fs::path> missing_parts(const fs::path& dir) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = fs::absolute(dir, ec).lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.insert(missing.begin(), p);
    if (p == p.parent_path()) break;
  }
  return missing;
}

std::string shown(const std::string& path) { return printable(path.size() > 200 ? path.substr(0, 197) + "..." : path); }

}  // namespace

std::string probe_output_dir(const std::string& option, const std::string& dir) {
  const std::string head = option + " " + shown(dir) + ": ";
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return head + "exists and is not a directory (choose a directory with -o DIR)";
  const std::vector<fs::path> created = missing_parts(dir);
  std::string problem;
  fs::create_directories(dir, ec);
  if (ec)
    problem = "cannot be created: " + ec.message();
  else if (const auto why = try_file_in(dir); !why.empty())
    problem = "a file cannot be created in it: " + why;
  for (auto it = created.rbegin(); it != created.rend(); ++it) fs::remove(*it, ec);  // only what the probe made
  return problem.empty() ? "" : head + problem + "; choose a writable directory with -o DIR";
}

std::string probe_baseline_file(const std::string& option, const std::string& path) {
  const std::string head = option + " " + shown(path) + ": ";
  std::error_code ec;
  if (fs::is_directory(path, ec)) return head + "is a directory (give a FILE name, e.g. " + shown(path) + "/base.json)";
  const fs::path dir = fs::absolute(path, ec).parent_path();
  if (!fs::is_directory(dir, ec)) return head + "directory " + shown(dir.string()) + " does not exist (create it first)";
  if (const auto why = try_file_in(dir); !why.empty())
    return head + "a file cannot be created in " + shown(dir.string()) + ": " + why + "; choose a writable place";
  return "";
}

}  // namespace gpunet::bench
