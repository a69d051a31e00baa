// A TCP flow's flat facts as its record's extra holds them: its numbers (ranks, streams, times, bytes,
// goodput) and the few texts the tcp suite writes there (the direction, "auto" buffers, the mode).
// A results.jsonl's reader holds them typed (Record::flow) in place of a JSON map node each (about
// 100 B; twenty a flow, a million flows at 1,024 hosts), but only values that write back the very same
// JSON: a number keeps its JSON type and bits, a text must be one of kFlowTexts. Anything else stays in
// extra. Pure.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "common/json.hpp"

namespace gpunet::report {

// The keys of extra it may hold, sorted.
inline constexpr std::array<std::string_view, 20> kFlowFactKeys = {
    "bytes_per_flow", "bytes_sent",  "concurrent_flows", "direction",    "dst_rank",
    "duration_s",     "goodput_Gbps", "interval_s",      "live_interval_s", "mode",
    "msg_bytes",      "rcvbuf_bytes", "rejected_connections", "seconds", "sender_seconds",
    "sndbuf_bytes",   "src_rank",    "started_s",        "streams",      "unauthenticated_connections"};
static_assert(std::is_sorted(kFlowFactKeys.begin(), kFlowFactKeys.end()));
// The texts it holds; any other text stays in extra.
inline constexpr std::array<std::string_view, 4> kFlowTexts = {"auto", "bidirectional", "stability", "unidirectional"};

class FlowFacts {
 public:
  // Moves out of `extra` (an object) each key of kFlowFactKeys whose value it can hold.
  void take_from(gpunet::json& extra);
  bool empty() const;
  // The value held for `key`; none when it holds none.
  std::optional<gpunet::json> at(std::string_view key) const;
  // Puts every value it holds into `extra` (an object) at its key.
  void put_into(gpunet::json& extra) const;

 private:
  gpunet::json value(size_t i) const;
  // Per key: its JSON type (null: none held) and its bits (an integer's, a float's, or a text's place in kFlowTexts).
  std::array<gpunet::json::value_t, kFlowFactKeys.size()> type_{};
  std::array<uint64_t, kFlowFactKeys.size()> bits_{};
};

}  // namespace gpunet::report
