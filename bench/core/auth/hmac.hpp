// Peer authentication by challenge and response, keyed by a per-run secret.
//
// The listener sends a fresh random nonce; the connecting peer answers with
// HMAC-SHA-256(secret, nonce || context), where the context binds the answer to what the connection is
// for (a test id and a direction, a control-channel rank). A captured exchange is useless later: the
// next listener sends another nonce. The secret itself never travels on the data network; rank 0 draws
// it and hands it out over MPI (the trusted wire-up).
//
// OpenSSL (libcrypto) provides the random bytes, the HMAC and the constant-time comparison.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace gpunet::auth {

inline constexpr size_t kKeyBytes = 32;
inline constexpr size_t kNonceBytes = 32;
inline constexpr size_t kTagBytes = 32;

using Key = std::array<uint8_t, kKeyBytes>;
using Nonce = std::array<uint8_t, kNonceBytes>;
using Tag = std::array<uint8_t, kTagBytes>;

// Cryptographically random bytes (RAND_bytes). Throws std::runtime_error if the generator fails.
Key random_key();
Nonce random_nonce();

// HMAC-SHA-256(key, nonce || context).
Tag respond(const Key& key, const Nonce& nonce, std::span<const uint8_t> context);

// True when `tag` is the right answer to `nonce` for `context`; compares in constant time.
bool verify(const Key& key, const Nonce& nonce, std::span<const uint8_t> context, const Tag& tag);

}  // namespace gpunet::auth
