// FNV-1a, 64 bits, over texts each ended by the byte 0xff (which UTF-8 never holds): a stable short
// name of a list of fields, the same on every machine and in every version. Not a security measure.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpunet::report::history {

class FieldHash {
 public:
  FieldHash& operator<<(std::string_view field) {
    for (const char c : field) mix(static_cast<unsigned char>(c));
    mix(0xffu);
    return *this;
  }
  uint64_t value() const { return h_; }

 private:
  void mix(unsigned byte) { h_ = (h_ ^ byte) * 1099511628211ull; }
  uint64_t h_ = 1469598103934665603ull;
};

}  // namespace gpunet::report::history
