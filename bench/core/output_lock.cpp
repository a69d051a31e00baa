#include "bench/core/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/strings.hpp"

namespace gpunet::bench {

namespace {

constexpr const char* kLockName = "/.gpunet-bench.lock";

// The first line of what the owner wrote, at most 200 bytes, printable.
std::string owner_of(int fd) {
  char buf[201] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string text(buf, n > 0 ? static_cast<size_t>(n) : 0);
  text = first_line(text);
  return text.empty() ? "an unknown owner" : printable(text);
}

}  // namespace

std::string lock_owner_text(long pid, const std::string& start, const std::string& host) {
  return "pid " + std::to_string(pid) + ", started " + start + " on " + host;
}

OutputLock::OutputLock(const std::string& dir, const std::string& owner) {
  const std::string path = dir + kLockName;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot create the lock file " + path + ": " + std::strerror(errno));
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string other = owner_of(fd_);
    ::close(fd_);
    fd_ = -1;
    if (err == EWOULDBLOCK)
      throw OutputLocked(dir + " is in use by another gpunet-bench run (" + other + ", see " + path +
                         "); wait for it to end or choose another -o DIR");
    throw std::runtime_error("cannot lock " + path + ": " + std::strerror(err));
  }
  const std::string line = owner + "\n";
  // Best effort: the lock holds without the text; a full disk must not stop a run here.
  if (::ftruncate(fd_, 0) == 0) (void)!::pwrite(fd_, line.data(), line.size(), 0);
}

OutputLock::~OutputLock() {
  if (fd_ >= 0) ::close(fd_);  // drops the lock
}

}  // namespace gpunet::bench
