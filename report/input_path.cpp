#include "report/input_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpunet::report {

namespace {

std::string stat_problem(int err) {
  switch (err) {
    case ENOENT: return "No such file";
    case ELOOP: return "a loop of symbolic links";
    case ENOTDIR: return "a part of the path is not a directory";
    case EACCES: return "permission denied";
    case ENAMETOOLONG: return "the name is too long";
    default: return std::strerror(err);
  }
}

}  // namespace

std::string input_file_problem(const std::string& path, const std::string& what, const std::string& hint) {
  const std::string head = "cannot read " + what + " " + (path.empty() ? std::string("''") : path) + ": ";
  if (path.empty()) return head + "empty file name (" + hint + ")";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return head + stat_problem(errno) + " (" + hint + ")";
  if (S_ISDIR(st.st_mode)) return head + "it is a directory, not a file (" + hint + ")";
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISFIFO(st.st_mode) ? "is a FIFO" : S_ISSOCK(st.st_mode) ? "is a socket" : "is a device";
    return head + "it " + kind + ", not a regular file (a pipe or a device is never read; " + hint + ")";
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return head + stat_problem(errno) + " (" + hint + ")";
  ::close(fd);
  return "";
}

}  // namespace gpunet::report
