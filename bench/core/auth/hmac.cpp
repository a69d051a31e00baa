#include "bench/core/auth/hmac.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>
#include <vector>

namespace gpunet::auth {
namespace {

template <size_t N>
std::array<uint8_t, N> random_bytes() {
  std::array<uint8_t, N> out{};
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw std::runtime_error("the random number generator (OpenSSL RAND_bytes) failed");
  return out;
}

}  // namespace

Key random_key() { return random_bytes<kKeyBytes>(); }
Nonce random_nonce() { return random_bytes<kNonceBytes>(); }

Tag respond(const Key& key, const Nonce& nonce, std::span<const uint8_t> context) {
  std::vector<uint8_t> msg(nonce.begin(), nonce.end());
  msg.insert(msg.end(), context.begin(), context.end());
  Tag tag{};
  unsigned int len = 0;
  if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(), tag.data(), &len) ||
      len != tag.size())
    throw std::runtime_error("HMAC-SHA-256 (OpenSSL) failed");
  return tag;
}

bool verify(const Key& key, const Nonce& nonce, std::span<const uint8_t> context, const Tag& tag) {
  const Tag want = respond(key, nonce, context);
  return CRYPTO_memcmp(want.data(), tag.data(), tag.size()) == 0;
}

}  // namespace gpunet::auth
