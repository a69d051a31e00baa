// The tcp suite's live console: a sender's interval reports over loopback add up to what it sent,
// one per interval of the duration; the interval and final lines as iperf3 prints them; live dips.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <regex>

#include "bench/suites/tcp/live.hpp"
#include "loopback.hpp"

using namespace tcptest;
using gpunet::report::Status;

TEST(TcpLive, IntervalReportsSumToTheBytesSentOnePerInterval) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(7);
  BandwidthParams p = quick(0);
  p.duration_s = 1.2;
  p.live_interval_s = 0.4;
  std::mutex mu;
  std::vector<IntervalReport> got;
  p.on_interval = [&](const IntervalReport& r) {
    std::lock_guard lock(mu);
    got.push_back(r);
  };
  BandwidthParams rp = quick(0);
  rp.duration_s = p.duration_s;
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), rp); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), p);
  const auto r = rx.get();
  ASSERT_EQ(tx.sent.size(), 1u);
  ASSERT_EQ(tx.sent[0].status, Status::passed) << tx.sent[0].reason;
  ASSERT_EQ(got.size(), 3u);  // 1.2 s / 0.4 s
  int64_t sum = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    sum += got[i].bytes;
    EXPECT_EQ(got[i].peer, 1u);
    EXPECT_DOUBLE_EQ(got[i].start_s, 0.4 * static_cast<double>(i));
    EXPECT_EQ(got[i].last, i + 1 == got.size());
    EXPECT_GT(got[i].cwnd_bytes, 0u);
  }
  EXPECT_GE(got.back().end_s, 1.2);
  EXPECT_EQ(sum, tx.sent[0].bytes);
  EXPECT_EQ(r.received[0].bytes, tx.sent[0].bytes);
}

TEST(TcpLive, NoReportsWhenOff) {
  Listener recv_l(loopback(), {}), send_l(loopback(), {});
  const auto key = key_of(8);
  BandwidthParams p = quick(1 << 20);
  int calls = 0;
  p.on_interval = [&](const IntervalReport&) { ++calls; };  // live_interval_s stays 0
  auto rx = std::async(std::launch::async, [&] { return run_bandwidth(recv_l, key, receiver_plan(1, 0), quick(1 << 20)); });
  const auto tx = run_bandwidth(send_l, key, sender_plan(0, 1, recv_l), p);
  rx.get();
  EXPECT_EQ(tx.sent[0].status, Status::passed);
  EXPECT_EQ(calls, 0);
}

TEST(TcpLive, LinesAsIperf3PrintsThem) {
  IntervalReport r;
  r.start_s = 1;
  r.end_s = 2;
  r.bytes = 119'185'000;
  r.retransmits = 3;
  r.cwnd_bytes = 386'000;
  const std::string line = interval_line("a -> b", r, true);
  EXPECT_TRUE(std::regex_search(line, std::regex(R"(^# tcp \[a -> b\] +1\.00-2\.00 +s +119\.185 MB +0\.953 Gb/s +3 +386\.0 KB  dip\n$)")))
      << line;
  EXPECT_EQ(interval_line("a -> b", r, false).find("dip"), std::string::npos);
  EXPECT_NE(interval_header().find("Interval"), std::string::npos);
  EXPECT_EQ(flow_label("h", 0, "h", 1), "h:0 -> h:1");
  EXPECT_EQ(flow_label("a", 0, "b", 1), "a -> b");

  gpunet::report::Record rec;
  rec.name = "bandwidth";
  rec.bytes = 300'000'000;
  rec.extra = {{"src_host", "a"}, {"dst_host", "b"}, {"src_rank", 0}, {"dst_rank", 1}, {"bytes_sent", 300'000'000},
               {"sender_seconds", 3.0}, {"seconds", 3.01}, {"goodput_Gbps", 0.797},
               {"tcp_info", {{{"retransmits", 14}}}}};
  const std::string fin = final_lines(rec);
  EXPECT_TRUE(std::regex_search(fin, std::regex(R"(0\.00-3\.00 +s +300\.000 MB +0\.800 Gb/s +14 +sender\n)"))) << fin;
  EXPECT_TRUE(std::regex_search(fin, std::regex(R"(0\.00-3\.01 +s +300\.000 MB +0\.797 Gb/s +receiver\n$)"))) << fin;
  rec.name = "latency";
  EXPECT_EQ(final_lines(rec), "");
}

TEST(TcpLive, DipsAgainstTheMedianSoFar) {
  LiveDips d(0.8);
  EXPECT_FALSE(d.add(0.1));  // the first interval has nothing to compare with
  EXPECT_FALSE(d.add(1.0));
  EXPECT_FALSE(d.add(1.0));
  EXPECT_TRUE(d.add(0.7));   // median so far 1.0
  EXPECT_FALSE(d.add(0.85));
}
