#include "report/model/file_write.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <streambuf>
#include <string_view>
#include <vector>

namespace gpunet::report {

namespace {

// Writes all of text to fd; returns 0 or the errno of the failure.
int write_all(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

// An output stream onto a file descriptor that keeps the first write error.
class FdBuf final : public std::streambuf {
 public:
  explicit FdBuf(int fd) : fd_(fd), buf_(1 << 20) { setp(buf_.data(), buf_.data() + buf_.size()); }
  int flush_all() {
    if (err_ == 0 && pptr() > pbase()) err_ = write_all(fd_, std::string_view(pbase(), static_cast<size_t>(pptr() - pbase())));
    setp(buf_.data(), buf_.data() + buf_.size());
    return err_;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (flush_all() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override { return flush_all() == 0 ? 0 : -1; }

 private:
  int fd_;
  std::vector<char> buf_;
  int err_ = 0;
};

}  // namespace

std::string write_error_text(int err) {
  std::string text = std::strerror(err);
  if (err == ENOSPC || err == EDQUOT) text += " (the disk is full: free space there or write elsewhere)";
  return text;
}

void write_file_replacing(const std::string& path, const std::string& text) {
  write_file_replacing(path, [&](std::ostream& os) { os.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

void write_file_replacing(const std::string& path, const std::function<void(std::ostream&)>& render) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp + ": " + write_error_text(errno));
  FdBuf buf(fd);
  try {
    std::ostream os(&buf);
    render(os);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  int err = buf.flush_all();
  if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL) err = errno;  // EINVAL: a file system without fsync
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + path + ": " + write_error_text(err));
  }
}

}  // namespace gpunet::report
