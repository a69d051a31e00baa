// The SHA-256 of a file's content (OpenSSL libcrypto), as sha256sum prints it.
#pragma once

#include <string>

namespace gpunet::evidence {

// 64 lower-case hex digits. Throws std::runtime_error with one line naming the file when it cannot be read.
std::string sha256_hex_of_file(const std::string& path);

}  // namespace gpunet::evidence
