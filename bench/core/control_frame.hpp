// The control channel's wire format, pure: frames, and the authentication exchange that opens
// every connection.
//
// A frame is one type byte, a 4-byte big-endian payload length, and the payload. A connection opens
// with a challenge from rank 0 (a 'N' frame holding a fresh nonce) and the member's answer (an 'A'
// frame: its rank, 4 bytes big-endian, and HMAC-SHA-256(run key, nonce || "gpunet-bench control
// rank R")); rank 0 welcomes an answer it verifies with a 'W' frame and drops anything else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/core/auth/hmac.hpp"

namespace gpunet::bench::control {

inline constexpr size_t kFrameHeaderBytes = 5;
inline constexpr uint32_t kMaxPayloadBytes = 64u << 20;  // a record is far smaller; more is a broken peer

// Frame types.
namespace frame {
inline constexpr char nonce = 'N';         // rank 0 -> member: the challenge
inline constexpr char answer = 'A';        // member -> rank 0: rank and HMAC tag
inline constexpr char welcome = 'W';       // rank 0 -> member: authenticated
inline constexpr char heartbeat = 'H';     // both ways, about once a second
inline constexpr char enter = 'E';         // member -> rank 0: "SEQ\tSTEP", an all-ranks step
inline constexpr char leave = 'L';         // member -> rank 0: "SEQ"
inline constexpr char enter_local = 'e';   // member -> rank 0: "STEP", a step it runs alone
inline constexpr char leave_local = 'l';   // member -> rank 0
inline constexpr char record = 'R';        // member -> rank 0: one record as JSON
inline constexpr char live = 'O';          // member -> rank 0: console text for rank 0 to print (interval lines)
inline constexpr char done = 'D';          // member -> rank 0: every record sent, run finished
inline constexpr char finished = 'F';      // rank 0 -> member: every rank finished
inline constexpr char bye = 'B';           // either way: an orderly close (the run ends on an error)
inline constexpr char quit = 'Q';          // either way: the job is ended by the sender; print nothing, exit
}  // namespace frame

struct Frame {
  char type = 0;
  std::string payload;
  bool operator==(const Frame&) const = default;
};

std::string encode_frame(char type, std::string_view payload = {});

// Splits a byte stream into frames. After a length above kMaxPayloadBytes the stream is broken and
// stays broken (nothing more is returned).
class FrameReader {
 public:
  void feed(const char* data, size_t n) { buf_.append(data, n); }
  std::optional<Frame> next();
  bool broken() const { return broken_; }
  size_t buffered() const { return buf_.size() - pos_; }

 private:
  std::string buf_;
  size_t pos_ = 0;
  bool broken_ = false;
};

// A live console line as a frame payload: at most kMaxLiveLineBytes (longer text is cut and ends in
// "...\n"), always ending in a line feed.
inline constexpr size_t kMaxLiveLineBytes = 4096;
std::string live_payload(std::string_view text);

// What an answer's tag is bound to: the channel and the member's rank.
std::vector<uint8_t> answer_context(int rank);

std::string encode_nonce(const auth::Nonce& nonce);
std::optional<auth::Nonce> parse_nonce(std::string_view payload);

struct Answer {
  int rank = -1;
  auth::Tag tag{};
};
std::string encode_answer(const Answer& a);
std::optional<Answer> parse_answer(std::string_view payload);

}  // namespace gpunet::bench::control
