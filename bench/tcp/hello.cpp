#include "bench/tcp/hello.hpp"

#include <algorithm>
#include <cstring>

namespace gpunet::bench::tcp {

namespace {

constexpr std::array<uint8_t, kMagicBytes> kHelloMagic{'G', 'P', 'N', 'T', 'C', 'P', '0', '1'};
constexpr std::array<uint8_t, kAckBytes> kAckMagic{'G', 'P', 'N', 'T', 'C', 'P', 'O', 'K'};
// Layout: magic 8 | secret 32 | test_id 8 | sender 4 | stream 2 | streams 2 | kind 1 | zero 7.
constexpr size_t kSecretAt = 8, kTestAt = 40, kSenderAt = 48, kStreamAt = 52, kStreamsAt = 54, kKindAt = 56;

void put_be(uint8_t* p, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v & 0xff);
}

uint64_t get_be(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h) {
  std::array<uint8_t, kHelloBytes> out{};
  std::copy(kHelloMagic.begin(), kHelloMagic.end(), out.begin());
  std::copy(h.secret.begin(), h.secret.end(), out.begin() + kSecretAt);
  put_be(&out[kTestAt], h.test_id, 8);
  put_be(&out[kSenderAt], h.sender, 4);
  put_be(&out[kStreamAt], h.stream, 2);
  put_be(&out[kStreamsAt], h.streams, 2);
  out[kKindAt] = static_cast<uint8_t>(h.kind);
  return out;
}

std::array<uint8_t, kAckBytes> encode_ack() { return kAckMagic; }

bool hello_prefix_ok(std::span<const uint8_t> bytes) {
  const size_t n = std::min(bytes.size(), kMagicBytes);
  return std::equal(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n), kHelloMagic.begin());
}

std::optional<Hello> decode_hello(std::span<const uint8_t> bytes) {
  if (bytes.size() != kHelloBytes || !hello_prefix_ok(bytes)) return std::nullopt;
  const uint8_t kind = bytes[kKindAt];
  if (kind != static_cast<uint8_t>(StreamKind::bandwidth) && kind != static_cast<uint8_t>(StreamKind::latency))
    return std::nullopt;
  if (std::any_of(bytes.begin() + kKindAt + 1, bytes.end(), [](uint8_t b) { return b != 0; })) return std::nullopt;
  Hello h;
  std::copy(bytes.begin() + kSecretAt, bytes.begin() + kSecretAt + 32, h.secret.begin());
  h.test_id = get_be(&bytes[kTestAt], 8);
  h.sender = static_cast<uint32_t>(get_be(&bytes[kSenderAt], 4));
  h.stream = static_cast<uint16_t>(get_be(&bytes[kStreamAt], 2));
  h.streams = static_cast<uint16_t>(get_be(&bytes[kStreamsAt], 2));
  h.kind = static_cast<StreamKind>(kind);
  if (h.streams == 0 || h.stream >= h.streams) return std::nullopt;
  return h;
}

bool is_ack(std::span<const uint8_t> bytes) {
  return bytes.size() == kAckBytes && std::equal(bytes.begin(), bytes.end(), kAckMagic.begin());
}

bool secret_equal(const Secret& a, const Secret& b) {
  uint8_t diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff = static_cast<uint8_t>(diff | (a[i] ^ b[i]));
  return diff == 0;
}

std::string hello_mismatch(const Hello& h, const Secret& secret, uint64_t test_id, StreamKind kind) {
  if (!secret_equal(h.secret, secret)) return "wrong secret";
  if (h.test_id != test_id) return "stale test id " + std::to_string(h.test_id) + " (now " + std::to_string(test_id) + ")";
  if (h.kind != kind) return "wrong stream kind";
  return "";
}

}  // namespace gpunet::bench::tcp
