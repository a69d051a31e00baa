#include "bench/suites/tcp/unsent_bound.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstddef>

namespace gpunet::bench::tcp {

int64_t UnsentBound::bytes_for(uint64_t delivery_Bps) {
  constexpr int64_t kLeast = 256 << 10, kMost = 64 << 20;
  return std::clamp(static_cast<int64_t>(delivery_Bps / 50), kLeast, kMost);  // 20 ms of it
}

void UnsentBound::tune(int fd, Clock::time_point now) {
  if (now < next_) return;
  next_ = now + std::chrono::milliseconds(20);
  tcp_info ti{};
  socklen_t len = sizeof ti;
  uint64_t rate = 0;
  if (::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 &&
      len >= offsetof(tcp_info, tcpi_delivery_rate) + sizeof ti.tcpi_delivery_rate)
    rate = ti.tcpi_delivery_rate;
  const int64_t want = bytes_for(rate);
  if (set_ > 0 && want * 4 > set_ * 3 && want * 4 < set_ * 5) return;  // within a quarter: leave it
  const int value = static_cast<int>(want);
  if (::setsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &value, sizeof value) == 0) set_ = want;
}

}  // namespace gpunet::bench::tcp
