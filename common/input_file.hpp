// Reading a user-supplied input file (spec, baseline, topology XML, fabric, report.json, results.jsonl) with
// bounds: only a regular file is read, and at most a documented number of bytes per kind. The file is
// opened with O_NONBLOCK and the opened descriptor is checked with fstat, so a FIFO, a device, a socket
// or a directory is refused at once instead of blocking the program before its watchdog runs.
// Header-only, shared by every library.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "common/quote.hpp"
#include "common/strings.hpp"

namespace gpunet {

// What a file is, for messages, and the most bytes read from one.
struct InputKind {
  const char* what;  // "spec file"
  std::size_t max_bytes;
};

inline constexpr std::size_t kMiB = std::size_t{1} << 20;
inline constexpr InputKind kSpecInput{"spec file", 4 * kMiB};
inline constexpr InputKind kBaselineInput{"baseline file", 1024 * kMiB};
inline constexpr InputKind kTopologyInput{"topology file", 64 * kMiB};
inline constexpr InputKind kFabricInput{"fabric file", 4 * kMiB};  // --fabric (Slurm topology.conf)
inline constexpr InputKind kResultsInput{"report file", 1024 * kMiB};

namespace input_file_detail {

inline std::string open_problem(int err) {
  switch (err) {
    case ENOENT: return "no such file (check the path)";
    case EACCES: return "permission denied (make it readable, or give another file)";
    case ELOOP: return "a loop of symbolic links (point the link at a real file)";
    case ENOTDIR: return "a part of the path is not a directory (check the path)";
    case ENXIO: return "is a socket, not a file (give a regular file)";
    case ENAMETOOLONG: return "the path is too long (give a shorter path)";
    default: return std::string("cannot be opened: ") + std::strerror(err) + " (check the path)";
  }
}

// Why a file of this mode is not read; empty for a regular file.
inline std::string mode_problem(mode_t mode, const char* what) {
  const std::string not_one = std::string(", not a ") + what;
  if (S_ISREG(mode)) return "";
  if (S_ISDIR(mode)) return "is a directory" + not_one + " (give the file itself)";
  if (S_ISFIFO(mode)) return "is a FIFO (named pipe)" + not_one + " (save the content to a regular file and give that)";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device" + not_one + " (give a regular file)";
  if (S_ISSOCK(mode)) return "is a socket" + not_one + " (give a regular file)";
  return "is not a regular file (give a regular file)";
}

inline std::string size_text(std::size_t bytes) {
  return bytes >= kMiB ? std::to_string(bytes / kMiB) + " MiB" : std::to_string(bytes) + " bytes";
}

inline std::string too_big(std::size_t size, const InputKind& kind) {
  return "is larger than the " + size_text(kind.max_bytes) + " a " + kind.what + " may be" +
         (size > 0 ? " (" + size_text(size) + ")" : std::string()) + " (give the right file, or a smaller one)";
}

// The content, or a problem (then `text` is unspecified).
struct Read {
  std::string text;
  std::string problem;
};

struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

// The file opened for reading, once it is known to be a regular file. Anything else throws
// Error("PATH: problem (what to do)"), one line.
template <class Error>
int open_regular(const std::string& path, const InputKind& kind) {
  const auto where = [&] { return clipped(printable(path), 240); };
  if (path.empty()) throw Error(std::string("an empty path was given for the ") + kind.what + " (give a file)");
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw Error(where() + ": " + open_problem(errno));
  struct stat st {};
  std::string problem = ::fstat(fd, &st) != 0 ? std::string("cannot be examined: ") + std::strerror(errno)
                                              : mode_problem(st.st_mode, kind.what);
  if (problem.empty()) return fd;
  ::close(fd);
  throw Error(where() + ": " + problem);
}

inline Read read_all(int fd, const InputKind& kind) {
  Read out;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {"", std::string("cannot be examined: ") + std::strerror(errno)};
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > kind.max_bytes) return {"", too_big(size, kind)};
  out.text.resize(size);
  const auto read_failed = [] { return Read{"", std::string("read error: ") + std::strerror(errno) + " (check the disk and the file)"}; };
  std::size_t got = 0;
  for (;;) {
    if (got == out.text.size()) {
      // All the size promised is read: a small read says whether there is more (a file that grew, or
      // one that reports size 0, as procfs does) before the text grows for it, so a whole file is held
      // once, not in twice its size.
      char probe[4096];
      const ssize_t n = ::read(fd, probe, sizeof probe);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return read_failed();
      if (n == 0) break;
      if (got + static_cast<std::size_t>(n) > kind.max_bytes) return {"", too_big(0, kind)};
      out.text.resize(std::min(kind.max_bytes + 1, std::max<std::size_t>(got + sizeof probe, 2 * out.text.size())));
      std::memcpy(out.text.data() + got, probe, static_cast<std::size_t>(n));
      got += static_cast<std::size_t>(n);
      continue;
    }
    const ssize_t n = ::read(fd, out.text.data() + got, out.text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return read_failed();
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > kind.max_bytes) return {"", too_big(0, kind)};
  out.text.resize(got);
  return out;
}

}  // namespace input_file_detail

// The whole content of the file at `path`. Anything else (missing, unreadable, not a regular file,
// larger than kind.max_bytes) throws Error("PATH: problem (what to do)"), one line.
template <class Error>
std::string read_input_file(const std::string& path, const InputKind& kind) {
  namespace d = input_file_detail;
  const d::Descriptor file{d::open_regular<Error>(path, kind)};
  d::Read r = d::read_all(file.fd, kind);
  if (!r.problem.empty()) throw Error(clipped(printable(path), 240) + ": " + r.problem);
  return std::move(r.text);
}

// The size of the regular file at `path`, or nullopt when it cannot be examined (read_input_file
// then says why).
inline std::optional<std::size_t> input_file_size(const std::string& path) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return static_cast<std::size_t>(st.st_size);
}

// The file at `path` line by line, for input of any size read one line at a time (a results.jsonl
// larger than a whole report file may be): each line, without its newline, goes to
// on_line(text, has_newline); on_line returns false to stop. A line longer than line_kind.max_bytes
// throws Error("PATH: line N is larger than ..."). The path is checked as read_input_file checks it.
template <class Error, class OnLine>
void read_input_lines(const std::string& path, const InputKind& line_kind, OnLine&& on_line) {
  namespace d = input_file_detail;
  const auto where = [&] { return clipped(printable(path), 240); };
  const d::Descriptor file{d::open_regular<Error>(path, line_kind)};
  constexpr std::size_t kChunk = 16 * kMiB;
  std::string buf;
  std::size_t line_no = 0;
  for (bool eof = false; !eof;) {
    const std::size_t kept = buf.size();
    buf.resize(kept + kChunk);
    ssize_t n;
    do n = ::read(file.fd, buf.data() + kept, kChunk);
    while (n < 0 && errno == EINTR);
    if (n < 0) throw Error(where() + ": read error: " + std::strerror(errno) + " (check the disk and the file)");
    buf.resize(kept + static_cast<std::size_t>(n));
    eof = n == 0;
    std::size_t begin = 0;
    const auto too_long = [&](std::size_t size) {
      if (size > line_kind.max_bytes)
        throw Error(where() + ": line " + std::to_string(line_no + 1) + " is larger than the " +
                    d::size_text(line_kind.max_bytes) + " a line of a " + line_kind.what + " may be (give the right file)");
    };
    for (std::size_t nl; (nl = buf.find('\n', begin)) != std::string::npos; begin = nl + 1) {
      too_long(nl - begin);
      ++line_no;
      if (!on_line(std::string_view(buf).substr(begin, nl - begin), true)) return;
    }
    buf.erase(0, begin);
    too_long(buf.size());
    if (eof && !buf.empty()) on_line(std::string_view(buf), false);
  }
}

}  // namespace gpunet
