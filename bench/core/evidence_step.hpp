// The evidence bundle as a step of a run or of `gpunet-bench report`, and `gpunet-bench verify`.
#pragma once

#include <ostream>

#include "bench/core/config.hpp"

namespace gpunet::bench {

// When --evidence is given and the outputs were written (exit code 0, 1 or 4), writes the bundle and
// says where on `out`; returns `code`, or 3 after one line on `err` when the bundle cannot be written.
int with_evidence(const Config& cfg, int code, std::ostream& out, std::ostream& err);

// False after one line on `err` when --sign-key names a key ssh-keygen cannot sign with; true otherwise.
bool sign_key_usable(const Config& cfg, std::ostream& err);

// `gpunet-bench verify FILE`: 0 intact, 1 changed, 2 unusable input.
int verify_command(const Config& cfg, std::ostream& out, std::ostream& err);

}  // namespace gpunet::bench
