// A text stored deflated (zlib): the run history keeps each run's baseline this way, a JSON text whose
// keys repeat for every figure (one run of 1,024 generated hosts: 345 MB as text). Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gpunet::report::history {

// The text deflated into zlib's format.
std::string deflated(const std::string& text);
// The text back from deflated(...)'s bytes; nullopt when they are not a whole zlib stream.
std::optional<std::string> inflated(const void* bytes, std::size_t size);

}  // namespace gpunet::report::history
