#include "bench/core/results_sink.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "bench/core/sizes.hpp"
#include "report/model/file_write.hpp"
#include "report/render/results_jsonl.hpp"

namespace gpunet::bench {

namespace {

// Writes the whole line at fd's offset; returns 0 or the errno of the failure. The line is in the
// page cache on return, which a killed run does not lose; syncing is the caller's.
int write_line(int fd, const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

int sync_file(int fd) {
  if (::fsync(fd) != 0 && errno != EINVAL) return errno;  // EINVAL: a file system without fsync
  return 0;
}

}  // namespace

std::string record_label(const report::Record& r) {
  std::string label = r.suite + "/" + r.name;
  if (!r.variant.empty()) label += " " + r.variant;
  if (r.bytes > 0) label += " " + format_size(r.bytes);
  return label;
}

ResultsSink::ResultsSink(const std::string& path, std::ostream& err, report::Provenance run)
    : path_(path), err_(err), run_(std::move(run)) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

ResultsSink::~ResultsSink() {
  if (fd_ < 0) return;
  if (write_errno_ == 0) sync_file(fd_);
  ::close(fd_);
}

void ResultsSink::append(const report::Record& r) {
  const std::string line = gpunet::json(r).dump() + "\n";
  std::lock_guard lock(mu_);
  if (keeping_) kept_.push_back(r);
  if (write_errno_ != 0) {
    unwritten_.push_back(r);
    return;
  }
  write_errno_ = write_line(fd_, line);
  const auto now = std::chrono::steady_clock::now();
  if (write_errno_ == 0 && now - synced_ >= kSyncInterval) {
    write_errno_ = sync_file(fd_);
    synced_ = now;
  }
  if (write_errno_ == 0) {
    whole_bytes_ += static_cast<long long>(line.size());
    ++written_;
    return;
  }
  unwritten_.push_back(r);
  // Cut a partly written line off, so the file stays valid JSON lines.
  const bool cut = ::ftruncate(fd_, whole_bytes_) == 0 && ::lseek(fd_, whole_bytes_, SEEK_SET) == whole_bytes_;
  err_ << "gpunet-bench: error: " << path_ << ": cannot write the record " << record_label(r) << ": "
       << report::write_error_text(write_errno_) << "; it and every later record are lost from the file, which keeps "
       << "the " << written_ << " records before it" << (cut ? "" : " and may end in a cut line")
       << "; the run stops at the next step and writes every record to a fallback file it names (exit code 3)\n"
       << std::flush;
}

std::vector<report::Record> ResultsSink::records() const {
  std::lock_guard lock(mu_);
  std::vector<report::Record> out;
  if (written_ > 0) {
    report::LoadedResults back = report::read_own_results_jsonl(path_);
    if (!back.report)
      throw std::runtime_error("the run's records cannot be read back: " + back.error);
    out = std::move(back.report->results);
    if (out.size() != written_)
      throw std::runtime_error(path_ + " holds " + std::to_string(out.size()) + " records where the run wrote " +
                               std::to_string(written_) + " (it was changed while the run wrote it)");
  }
  out.insert(out.end(), unwritten_.begin(), unwritten_.end());
  return out;
}

void ResultsSink::keep_next() {
  std::lock_guard lock(mu_);
  keeping_ = true;
}

std::vector<report::Record> ResultsSink::take_kept() {
  std::lock_guard lock(mu_);
  keeping_ = false;
  return std::exchange(kept_, {});
}

bool ResultsSink::failed() const {
  std::lock_guard lock(mu_);
  return write_errno_ != 0;
}

size_t ResultsSink::lost() const {
  std::lock_guard lock(mu_);
  return unwritten_.size();
}

std::string ResultsSink::loss_text() const {
  std::lock_guard lock(mu_);
  if (unwritten_.empty()) return "";
  return std::to_string(unwritten_.size()) + " of " + std::to_string(written_ + unwritten_.size()) + " records are not in " +
         path_ + ", which holds the first " + std::to_string(written_) + " (" + std::strerror(write_errno_) + ")";
}

}  // namespace gpunet::bench
