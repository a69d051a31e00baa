// The handshake every connection opens with: pure encode/decode, and the answer to the challenge.
//
//   connector -> listener   hello      magic, test id, sender, stream, streams, kind (no secret)
//   listener  -> connector  challenge  magic and a fresh random nonce, one per connection
//   connector -> listener   response   HMAC-SHA-256(run key, nonce || context)  (bench/core/auth)
//   listener  -> connector  ack        once the stream is taken into its flow
//
// The context binds the response to this connection's purpose: the hello's fields (test id, sender,
// stream index, stream count, kind) and the receiver's id, so the direction sender -> receiver is
// part of it. The run key never travels on the data network (rank 0 hands it out over MPI), and the
// nonce is new for every connection, so nothing seen on the wire lets anyone connect later.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench/core/auth/hmac.hpp"

namespace gpunet::bench::tcp {

enum class StreamKind : uint8_t { bandwidth = 1, latency = 2 };

struct Hello {
  uint64_t test_id = 0;
  uint32_t sender = 0;        // the sender's id (its rank)
  uint16_t stream = 0;        // index of this stream in its flow
  uint16_t streams = 1;       // streams in the flow
  StreamKind kind = StreamKind::bandwidth;
};

inline constexpr size_t kMagicBytes = 8;
inline constexpr size_t kHelloBytes = 32;
inline constexpr size_t kChallengeBytes = kMagicBytes + auth::kNonceBytes;
inline constexpr size_t kResponseBytes = auth::kTagBytes;
inline constexpr size_t kAckBytes = 8;

std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h);
// Parses a full hello; empty when the magic or the layout is wrong.
std::optional<Hello> decode_hello(std::span<const uint8_t> bytes);
// True when these leading bytes can still become a valid hello (the magic matches so far).
bool hello_prefix_ok(std::span<const uint8_t> bytes);

std::array<uint8_t, kChallengeBytes> encode_challenge(const auth::Nonce& nonce);
// The nonce of a full challenge; empty when the bytes are not one.
std::optional<auth::Nonce> decode_challenge(std::span<const uint8_t> bytes);

// What the response covers besides the nonce: a label, the hello's fields and the receiver's id.
std::vector<uint8_t> response_context(const Hello& h, uint32_t receiver);
// The connector's answer to `nonce` for the stream `h` to `receiver`.
std::array<uint8_t, kResponseBytes> respond_to(const auth::Key& key, const auth::Nonce& nonce, const Hello& h,
                                               uint32_t receiver);
// True when `response` is the right answer (compared in constant time).
bool response_ok(const auth::Key& key, const auth::Nonce& nonce, const Hello& h, uint32_t receiver,
                 std::span<const uint8_t> response);

std::array<uint8_t, kAckBytes> encode_ack();
bool is_ack(std::span<const uint8_t> bytes);

// Why a decoded hello is not for this test (empty string when it is). Says nothing about who sent
// it: only the response to the challenge does.
std::string hello_mismatch(const Hello& h, uint64_t test_id, StreamKind kind);

}  // namespace gpunet::bench::tcp
