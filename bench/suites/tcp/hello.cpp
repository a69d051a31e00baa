#include "bench/suites/tcp/hello.hpp"

#include <algorithm>
#include <string_view>

namespace gpunet::bench::tcp {

namespace {

constexpr std::array<uint8_t, kMagicBytes> kHelloMagic{'G', 'P', 'N', 'T', 'C', 'P', '0', '2'};
constexpr std::array<uint8_t, kMagicBytes> kChallengeMagic{'G', 'P', 'N', 'T', 'C', 'P', 'C', 'H'};
constexpr std::array<uint8_t, kAckBytes> kAckMagic{'G', 'P', 'N', 'T', 'C', 'P', 'O', 'K'};
// Hello layout: magic 8 | test_id 8 | sender 4 | stream 2 | streams 2 | kind 1 | zero 7.
constexpr size_t kTestAt = 8, kSenderAt = 16, kStreamAt = 20, kStreamsAt = 22, kKindAt = 24;
// The response's label: a response for this protocol is never valid for another use of the key.
constexpr std::string_view kContextLabel = "gpunet-bench tcp stream";

void put_be(uint8_t* p, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) p[i] = static_cast<uint8_t>(v & 0xff);
}

uint64_t get_be(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
  return v;
}

bool starts_with(std::span<const uint8_t> bytes, const std::array<uint8_t, kMagicBytes>& magic) {
  const size_t n = std::min(bytes.size(), kMagicBytes);
  return std::equal(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n), magic.begin());
}

}  // namespace

std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h) {
  std::array<uint8_t, kHelloBytes> out{};
  std::copy(kHelloMagic.begin(), kHelloMagic.end(), out.begin());
  put_be(&out[kTestAt], h.test_id, 8);
  put_be(&out[kSenderAt], h.sender, 4);
  put_be(&out[kStreamAt], h.stream, 2);
  put_be(&out[kStreamsAt], h.streams, 2);
  out[kKindAt] = static_cast<uint8_t>(h.kind);
  return out;
}

bool hello_prefix_ok(std::span<const uint8_t> bytes) { return starts_with(bytes, kHelloMagic); }

std::optional<Hello> decode_hello(std::span<const uint8_t> bytes) {
  if (bytes.size() != kHelloBytes || !hello_prefix_ok(bytes)) return std::nullopt;
  const uint8_t kind = bytes[kKindAt];
  if (kind != static_cast<uint8_t>(StreamKind::bandwidth) && kind != static_cast<uint8_t>(StreamKind::latency))
    return std::nullopt;
  if (std::any_of(bytes.begin() + kKindAt + 1, bytes.end(), [](uint8_t b) { return b != 0; })) return std::nullopt;
  Hello h;
  h.test_id = get_be(&bytes[kTestAt], 8);
  h.sender = static_cast<uint32_t>(get_be(&bytes[kSenderAt], 4));
  h.stream = static_cast<uint16_t>(get_be(&bytes[kStreamAt], 2));
  h.streams = static_cast<uint16_t>(get_be(&bytes[kStreamsAt], 2));
  h.kind = static_cast<StreamKind>(kind);
  if (h.streams == 0 || h.stream >= h.streams) return std::nullopt;
  return h;
}

std::array<uint8_t, kChallengeBytes> encode_challenge(const auth::Nonce& nonce) {
  std::array<uint8_t, kChallengeBytes> out{};
  std::copy(kChallengeMagic.begin(), kChallengeMagic.end(), out.begin());
  std::copy(nonce.begin(), nonce.end(), out.begin() + kMagicBytes);
  return out;
}

std::optional<auth::Nonce> decode_challenge(std::span<const uint8_t> bytes) {
  if (bytes.size() != kChallengeBytes || !starts_with(bytes, kChallengeMagic)) return std::nullopt;
  auth::Nonce nonce{};
  std::copy(bytes.begin() + kMagicBytes, bytes.end(), nonce.begin());
  return nonce;
}

std::vector<uint8_t> response_context(const Hello& h, uint32_t receiver) {
  std::vector<uint8_t> ctx(kContextLabel.begin(), kContextLabel.end());
  const auto hello = encode_hello(h);
  ctx.insert(ctx.end(), hello.begin(), hello.end());
  uint8_t to[4];
  put_be(to, receiver, 4);
  ctx.insert(ctx.end(), to, to + 4);
  return ctx;
}

std::array<uint8_t, kResponseBytes> respond_to(const auth::Key& key, const auth::Nonce& nonce, const Hello& h,
                                               uint32_t receiver) {
  return auth::respond(key, nonce, response_context(h, receiver));
}

bool response_ok(const auth::Key& key, const auth::Nonce& nonce, const Hello& h, uint32_t receiver,
                 std::span<const uint8_t> response) {
  if (response.size() != kResponseBytes) return false;
  auth::Tag tag{};
  std::copy(response.begin(), response.end(), tag.begin());
  return auth::verify(key, nonce, response_context(h, receiver), tag);
}

std::array<uint8_t, kAckBytes> encode_ack() { return kAckMagic; }

bool is_ack(std::span<const uint8_t> bytes) {
  return bytes.size() == kAckBytes && std::equal(bytes.begin(), bytes.end(), kAckMagic.begin());
}

std::string hello_mismatch(const Hello& h, uint64_t test_id, StreamKind kind) {
  if (h.test_id != test_id)
    return "wrong test id " + std::to_string(h.test_id) + " (this test is " + std::to_string(test_id) + ")";
  if (h.kind != kind) return "wrong stream kind";
  return "";
}

}  // namespace gpunet::bench::tcp
