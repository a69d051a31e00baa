#include "bench/core/control_frame.hpp"

#include <algorithm>

namespace gpunet::bench::control {

namespace {

void put_u32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

uint32_t get_u32(std::string_view in) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

}  // namespace

std::string encode_frame(char type, std::string_view payload) {
  std::string out;
  out.reserve(kFrameHeaderBytes + payload.size());
  out.push_back(type);
  put_u32(out, static_cast<uint32_t>(payload.size()));
  out.append(payload);
  return out;
}

std::optional<Frame> FrameReader::next() {
  if (broken_ || buffered() < kFrameHeaderBytes) return std::nullopt;
  const std::string_view rest(buf_.data() + pos_, buffered());
  const uint32_t len = get_u32(rest.substr(1));
  if (len > kMaxPayloadBytes) {
    broken_ = true;
    return std::nullopt;
  }
  if (rest.size() < kFrameHeaderBytes + len) return std::nullopt;
  Frame f{rest[0], std::string(rest.substr(kFrameHeaderBytes, len))};
  pos_ += kFrameHeaderBytes + len;
  if (pos_ == buf_.size() || pos_ > (1u << 16)) {  // drop what was consumed
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  return f;
}

std::string live_payload(std::string_view text) {
  std::string out(text.substr(0, kMaxLiveLineBytes));
  if (text.size() > kMaxLiveLineBytes) out.replace(out.size() - 4, 4, "...\n");
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

std::vector<uint8_t> answer_context(int rank) {
  const std::string text = "gpunet-bench control rank " + std::to_string(rank);
  return {text.begin(), text.end()};
}

std::string encode_nonce(const auth::Nonce& nonce) { return {nonce.begin(), nonce.end()}; }

std::optional<auth::Nonce> parse_nonce(std::string_view payload) {
  if (payload.size() != auth::kNonceBytes) return std::nullopt;
  auth::Nonce n{};
  std::copy(payload.begin(), payload.end(), n.begin());
  return n;
}

std::string encode_answer(const Answer& a) {
  std::string out;
  put_u32(out, static_cast<uint32_t>(a.rank));
  out.append(a.tag.begin(), a.tag.end());
  return out;
}

std::optional<Answer> parse_answer(std::string_view payload) {
  if (payload.size() != 4 + auth::kTagBytes) return std::nullopt;
  const uint32_t rank = get_u32(payload);
  if (rank > 1u << 24) return std::nullopt;
  Answer a;
  a.rank = static_cast<int>(rank);
  std::copy(payload.begin() + 4, payload.end(), a.tag.begin());
  return a;
}

}  // namespace gpunet::bench::control
