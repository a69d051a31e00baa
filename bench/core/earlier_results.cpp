#include "bench/core/earlier_results.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gpunet::bench {

namespace {

// When the file at `path` was made: statx's birth time where there is one, else its modification time.
std::time_t creation_time(const std::string& path, const struct stat& st) {
  struct statx sx {};
  if (::statx(AT_FDCWD, path.c_str(), 0, STATX_BTIME, &sx) == 0 && (sx.stx_mask & STATX_BTIME) != 0)
    return static_cast<std::time_t>(sx.stx_btime.tv_sec);
  return st.st_mtime;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

std::string earlier_results_name(const std::string& dir, std::time_t start, int serial) {
  std::tm utc{};
  gmtime_r(&start, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  return dir + "/results-" + stamp + (serial > 1 ? "-" + std::to_string(serial) : std::string()) + ".jsonl";
}

std::optional<std::string> keep_earlier_results(const std::string& dir) {
  const std::string path = dir + "/results.jsonl";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return std::nullopt;
  const std::time_t start = creation_time(path, st);
  std::string kept = earlier_results_name(dir, start, 1);
  for (int serial = 2; exists(kept) && serial < 1000; ++serial) kept = earlier_results_name(dir, start, serial);
  const int err = exists(kept) ? EEXIST : std::rename(path.c_str(), kept.c_str()) != 0 ? errno : 0;
  if (err != 0) throw std::runtime_error("cannot keep the earlier " + path + " as " + kept + ": " + std::strerror(err));
  return kept;
}

}  // namespace gpunet::bench
