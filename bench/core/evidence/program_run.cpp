#include "bench/core/evidence/program_run.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace gpunet::evidence {

namespace {

// posix_spawn's file actions and attributes, released however the run ends.
struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

}  // namespace

ProgramExit run_program(const ProgramRun& run) {
  ProgramExit result;
  if (run.argv.empty()) {
    result.error = "no program named";
    return result;
  }
  SpawnSetup s;
  posix_spawn_file_actions_addopen(&s.actions, STDIN_FILENO, run.stdin_path.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&s.actions, STDOUT_FILENO, run.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&s.actions, STDERR_FILENO, run.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETSID);
  std::vector<char*> args;
  for (const auto& a : run.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), environ); err != 0) {
    result.error = run.argv[0] + ": " + std::strerror(err);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      result.error = run.argv[0] + ": waitpid: " + std::strerror(errno);
      return result;
    }
  result.started = true;
  // glibc reports a program that could not be executed after the fork as exit code 127.
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (result.code == 127) {
    result.started = false;
    result.error = run.argv[0] + ": not found";
  }
  return result;
}

std::string last_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.size() > 200 ? last.substr(0, 200) + "..." : last;
}

PrivateDir::PrivateDir(const std::string& parent, const std::string& prefix) {
  std::string pattern = parent + "/" + prefix + "XXXXXX";
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("cannot make a private folder in " + parent + ": " + std::strerror(errno));
  path_ = pattern;
}

PrivateDir::~PrivateDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);  // does not follow links
}

std::string temp_parent() {
  const char* t = std::getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

}  // namespace gpunet::evidence
