// What a bandwidth sender leaves unsent (bench/suites/tcp/unsent_bound): about 20 ms of the delivery
// rate, at least 256 KiB and at most 64 MiB, set on the socket as TCP_NOTSENT_LOWAT.
#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "bench/suites/tcp/unsent_bound.hpp"

namespace gpunet::bench::tcp {
namespace {

TEST(UnsentBound, TwentyMillisecondsOfTheDeliveryRateWithinLimits) {
  EXPECT_EQ(UnsentBound::bytes_for(0), 256 << 10) << "rate not known yet";
  EXPECT_EQ(UnsentBound::bytes_for(6'250'000), 256 << 10) << "50 Mbit/s: 125 kB, raised to the least";
  EXPECT_EQ(UnsentBound::bytes_for(1'250'000'000), 25'000'000) << "10 Gb/s: 20 ms is 25 MB";
  EXPECT_EQ(UnsentBound::bytes_for(1'000'000'000'000ULL), 64 << 20) << "capped";
}

TEST(UnsentBound, SetsTheSocketsLowWaterMark) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  UnsentBound b;
  b.tune(fd, UnsentBound::Clock::now());
  int value = 0;
  socklen_t len = sizeof value;
  ASSERT_EQ(::getsockopt(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &value, &len), 0);
  ::close(fd);
  EXPECT_EQ(value, 256 << 10) << "an unconnected socket delivers nothing yet: the least";
}

}  // namespace
}  // namespace gpunet::bench::tcp
