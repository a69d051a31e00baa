// One run owns its output directory: DIR/.gpunet-bench.lock is locked (flock, exclusive) for the
// life of the OutputLock and holds the owner ("pid 4711, started 2026-01-05T10:00:00Z on node-a").
// A second run into the same -o is refused at once, naming the owner, instead of overwriting the
// first run's report files. The kernel drops the lock when the process ends, however it ends; the
// file stays (removing it would let a third run lock a different file than a waiting second one).
#pragma once

#include <stdexcept>
#include <string>

namespace gpunet::bench {

class OutputLock {
 public:
  // Takes the lock or throws OutputLocked (another run holds it) / std::runtime_error (cannot lock).
  // `owner` is what this run writes into the file for others to see.
  OutputLock(const std::string& dir, const std::string& owner);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int fd_ = -1;
};

struct OutputLocked : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "pid 4711, started 2026-01-05T10:00:00Z on node-a": what a run writes into the lock file.
std::string lock_owner_text(long pid, const std::string& start, const std::string& host);

}  // namespace gpunet::bench
