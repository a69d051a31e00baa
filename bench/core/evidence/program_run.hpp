// Running a helper program (tar, ssh-keygen) without a shell: posix_spawnp with an argument vector, in
// a session of its own (no controlling terminal, so nothing can stop and wait for a passphrase), with
// standard input, output and error taken from and written to files.
#pragma once

#include <string>
#include <vector>

namespace gpunet::evidence {

struct ProgramRun {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  std::string stdin_path = "/dev/null";
  std::string stdout_path = "/dev/null";
  std::string stderr_path = "/dev/null";
};

struct ProgramExit {
  bool started = false;  // false: the program could not be started (not installed); see error
  int code = 0;          // its exit code, or 128 + the signal that ended it
  std::string error;     // why it could not be started
};

ProgramExit run_program(const ProgramRun& run);

// The last non-empty line of a text file (a program's stderr), at most 200 characters; "" if none.
std::string last_line_of(const std::string& path);

// A folder of its own (mode 0700, mkdtemp) under `parent`, removed with everything in it at the end.
class PrivateDir {
 public:
  // Throws std::runtime_error with one line when the folder cannot be made.
  PrivateDir(const std::string& parent, const std::string& prefix);
  ~PrivateDir();
  PrivateDir(const PrivateDir&) = delete;
  PrivateDir& operator=(const PrivateDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Where private temporary folders go: $TMPDIR when it is set, else /tmp.
std::string temp_parent();

}  // namespace gpunet::evidence
