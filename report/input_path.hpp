// Checks on the path of a file the user gives to read (a report's input), before it is opened: an
// empty name, a missing file, a directory, a symlink loop or something that is not a regular file
// (a FIFO, a device) each become one line that names the path and says what to do.
#pragma once

#include <string>

namespace gpunet::report {

// "" when `path` names a regular file that can be opened for reading; else one line starting with
// "cannot read", `what` and the path (e.g. "cannot read the report input /x.json: No such file (give
// ...)"), ending with `hint`.
std::string input_file_problem(const std::string& path, const std::string& what, const std::string& hint);

}  // namespace gpunet::report
