// The hello each connection opens with, and the server's acknowledgement: pure encode/decode.
// A peer proves it belongs to this run by the per-run secret (random bytes that rank 0 shares over
// MPI); the test id keeps a late connection from an earlier test out of the current one.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace gpunet::bench::tcp {

using Secret = std::array<uint8_t, 32>;

enum class StreamKind : uint8_t { bandwidth = 1, latency = 2 };

struct Hello {
  Secret secret{};
  uint64_t test_id = 0;
  uint32_t sender = 0;        // the sender's id (its rank)
  uint16_t stream = 0;        // index of this stream in its flow
  uint16_t streams = 1;       // streams in the flow
  StreamKind kind = StreamKind::bandwidth;
};

inline constexpr size_t kHelloBytes = 64;
inline constexpr size_t kAckBytes = 8;
inline constexpr size_t kMagicBytes = 8;

std::array<uint8_t, kHelloBytes> encode_hello(const Hello& h);
std::array<uint8_t, kAckBytes> encode_ack();

// Parses a full hello; empty when the magic or the layout is wrong.
std::optional<Hello> decode_hello(std::span<const uint8_t> bytes);

// True when these leading bytes can still become a valid hello (the magic matches so far).
bool hello_prefix_ok(std::span<const uint8_t> bytes);
bool is_ack(std::span<const uint8_t> bytes);

// Compares secrets in time that does not depend on where they differ.
bool secret_equal(const Secret& a, const Secret& b);

// Why a decoded hello is not for this test (empty string when it is).
std::string hello_mismatch(const Hello& h, const Secret& secret, uint64_t test_id, StreamKind kind);

}  // namespace gpunet::bench::tcp
