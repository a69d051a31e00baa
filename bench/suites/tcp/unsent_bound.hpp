// How much a bandwidth sender leaves unsent in its socket: about 20 ms of what the connection delivers
// (TCP_NOTSENT_LOWAT, from TCP_INFO's delivery rate; at least 256 KiB). Without a bound, the kernel's
// autotuned send buffer held ~1.5 MB at 50 Mbit/s when --tcp-time ended, and every matrix round waited
// ~0.27 s more for it to drain (16 fake nodes: 15 rounds of 0.5 s flows took 15.0 s, with the send
// buffer at 128K 11.2 s and the same goodput). The bound does not limit what is in flight (cwnd).
#pragma once

#include <chrono>
#include <cstdint>

namespace gpunet::bench::tcp {

class UnsentBound {
 public:
  using Clock = std::chrono::steady_clock;
  // The bound for a delivery rate (bytes/s; 0 = not known yet): pure.
  static int64_t bytes_for(uint64_t delivery_Bps);
  // Re-reads the delivery rate of fd at most every 20 ms and sets the bound when it moved by a quarter.
  void tune(int fd, Clock::time_point now);

 private:
  Clock::time_point next_{};
  int64_t set_ = 0;
};

}  // namespace gpunet::bench::tcp
