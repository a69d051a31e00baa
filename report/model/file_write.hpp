// Writing a whole output file safely: through PATH.tmp, every write, the fsync and the close checked,
// then a rename, so a reader sees the old file or the new one, never half of one, and no PATH.tmp is
// left behind when something fails (for example a full disk).
#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace gpunet::report {

// Replaces `path` with `text`. Throws std::runtime_error with one line that names the file and the
// reason ("No space left on device: the disk is full ..."); the old file, if any, is kept then.
void write_file_replacing(const std::string& path, const std::string& text);
// The same for what `render` writes, streamed to PATH.tmp as it comes (an output of gigabytes is never
// held whole in memory). An exception from `render` removes PATH.tmp and passes on.
void write_file_replacing(const std::string& path, const std::function<void(std::ostream&)>& render);

// The reason for errno value `err` as one phrase, with what to do for a full disk or quota.
std::string write_error_text(int err);

}  // namespace gpunet::report
