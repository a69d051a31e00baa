// A TCP flow's facts as its record's extra holds them (bench/suites/tcp/records.cpp): its numbers (ranks,
// streams, times, bytes, goodput), the few texts the tcp suite sets there (the direction, "auto" buffers,
// the mode), its addresses and path, the stability summary of its timeline, each stream's bytes and
// tcp_info. A results.jsonl's reader holds them typed (Record::flow) in place of about 40 JSON map
// nodes a flow (about 100 B each; a million flows at 1,024 hosts), but only values that write back the
// very same JSON: a number keeps its JSON type and bits, a set text must be one of kFlowTexts, an object
// is held only when all of it is. Anything else stays in extra. Pure.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.hpp"

namespace gpunet::report {

// The top-level keys of extra held as scalars, sorted.
inline constexpr std::array<std::string_view, 20> kFlowFactKeys = {
    "bytes_per_flow", "bytes_sent",  "concurrent_flows", "direction",    "dst_rank",
    "duration_s",     "goodput_Gbps", "interval_s",      "live_interval_s", "mode",
    "msg_bytes",      "rcvbuf_bytes", "rejected_connections", "seconds", "sender_seconds",
    "sndbuf_bytes",   "src_rank",    "started_s",        "streams",      "unauthenticated_connections"};
// The texts held as scalars; any other text stays in extra (or is one of kFlowTextKeys).
inline constexpr std::array<std::string_view, 4> kFlowTexts = {"auto", "bidirectional", "stability", "unidirectional"};
// The top-level keys of extra held as any text, sorted: the flow's two ends and its path.
inline constexpr std::array<std::string_view, 5> kFlowTextKeys = {"dst_addr", "dst_host", "path", "src_addr",
                                                                  "src_host"};
// extra.stability's keys besides its dips (held only when there are none), sorted.
inline constexpr std::array<std::string_view, 7> kStabilityKeys = {"below_s",  "intervals", "max_Gbps", "min_Gbps",
                                                                   "p1_Gbps", "p50_Gbps",  "threshold_Gbps"};
// The keys of each stream's extra.tcp_info, sorted.
inline constexpr std::array<std::string_view, 9> kTcpInfoKeys = {"bytes_acked", "bytes_retrans", "cwnd_segments",
                                                                 "mss_bytes",   "pmtu_bytes",    "retransmits",
                                                                 "rtt_us",      "rttvar_us",     "timestamps"};
static_assert(std::is_sorted(kFlowFactKeys.begin(), kFlowFactKeys.end()) &&
              std::is_sorted(kFlowTextKeys.begin(), kFlowTextKeys.end()) &&
              std::is_sorted(kStabilityKeys.begin(), kStabilityKeys.end()) &&
              std::is_sorted(kTcpInfoKeys.begin(), kTcpInfoKeys.end()));

// One JSON scalar held typed: a number (its type and bits), a bool, or one of kFlowTexts.
struct HeldScalar {
  gpunet::json::value_t type = gpunet::json::value_t::null;  // null: none held
  uint64_t bits = 0;  // an integer's, a float's, a bool's, or a text's place in kFlowTexts
  static std::optional<HeldScalar> of(const gpunet::json& v);
  gpunet::json value() const;
};

// A JSON object's scalars at the keys of `Keys` (sorted), held typed.
template <const auto& Keys>
class ScalarObject {
 public:
  // Holds `value` at `key` when key is one of Keys and it can hold the value; false otherwise.
  bool take(std::string_view key, const gpunet::json& value);
  // All of `object` but its key `skip`, when each of its other keys is one of Keys with a value it can
  // hold; none otherwise.
  static std::optional<ScalarObject> of_whole(const gpunet::json& object, std::string_view skip = {});
  bool empty() const;
  std::optional<gpunet::json> at(std::string_view key) const;
  void put_into(gpunet::json& object) const;

 private:
  HeldScalar slot(size_t i) const { return {type_[i], bits_[i]}; }
  std::array<gpunet::json::value_t, Keys.size()> type_{};  // null: none held
  std::array<uint64_t, Keys.size()> bits_{};
};

class FlowFacts {
 public:
  // Moves out of `extra` (an object) what it can hold.
  void take_from(gpunet::json& extra);
  // Holds extra's top-level `value` at `key` when it can (moving it out of `value`); false otherwise,
  // `value` then unchanged. take_from is this for each of extra's keys.
  bool take(std::string_view key, gpunet::json& value);
  bool empty() const;
  // The value held for extra's top-level `key`; none when it holds none.
  std::optional<gpunet::json> at(std::string_view key) const;
  // The text held for extra's top-level `key` (one of kFlowTextKeys); nullptr when it holds none.
  const std::string* text(std::string_view key) const;
  // Puts every value it holds into `extra` (an object) at its key.
  void put_into(gpunet::json& extra) const;
  // Without building extra's JSON (a million flows' table rows): the sum of each held stream's tcp_info
  // integer at `key`, read as jsonx::integer reads it (a stream without one adds 0); none when it holds
  // no tcp_info. And whether it holds extra.stability, which it holds only without dips.
  std::optional<long long> tcp_info_sum(std::string_view key) const;
  bool holds_stability() const { return stability_.has_value(); }

 private:
  ScalarObject<kFlowFactKeys> scalars_;
  std::array<std::optional<std::string>, kFlowTextKeys.size()> texts_;
  std::optional<ScalarObject<kStabilityKeys>> stability_;  // with "dips": []
  std::optional<std::vector<ScalarObject<kTcpInfoKeys>>> tcp_info_;
  std::optional<std::vector<HeldScalar>> stream_bytes_;
};

}  // namespace gpunet::report
