// The bounded GPU wait loop: it returns when the work is done, when it failed (with the error), or
// when the time is up, and never waits much longer than asked.
#include <chrono>

#include <gtest/gtest.h>

#include "bench/engines/wait.hpp"

using namespace gpunet::bench::gpu;

TEST(Wait, DoneAfterSomePolls) {
  int polls = 0;
  const auto out = wait_until([&](std::string&) { return ++polls < 5 ? Poll::pending : Poll::done; }, 10.0);
  EXPECT_EQ(out.kind, WaitOutcome::Kind::done);
  EXPECT_EQ(polls, 5);
}

TEST(Wait, FailureCarriesTheError) {
  const auto out = wait_until([](std::string& e) {
    e = "remote process exited";
    return Poll::failed;
  }, 10.0);
  EXPECT_EQ(out.kind, WaitOutcome::Kind::failed);
  EXPECT_EQ(out.error, "remote process exited");
}

TEST(Wait, TimesOutAndPollsOnceMoreAtTheDeadline) {
  int polls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = wait_until([&](std::string&) { ++polls; return Poll::pending; }, 0.2, std::chrono::microseconds(1000));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(out.kind, WaitOutcome::Kind::timed_out);
  EXPECT_GE(s, 0.2);
  EXPECT_LT(s, 5.0);  // generous: a loaded machine may oversleep, but it must end
  EXPECT_GE(polls, 2);
}

TEST(Wait, WorkDoneByTheLastPollCountsAsDone) {
  int polls = 0;
  const auto out = wait_until([&](std::string&) { return ++polls == 1 ? Poll::done : Poll::pending; }, 0.0);
  EXPECT_EQ(out.kind, WaitOutcome::Kind::done);
  EXPECT_EQ(polls, 1);
}

TEST(Wait, GpuWaitEndsBeforeTheWatchdog) {
  EXPECT_DOUBLE_EQ(gpu_wait_timeout_s(120), 108);
  EXPECT_DOUBLE_EQ(gpu_wait_timeout_s(3), 2);
  EXPECT_GT(gpu_wait_timeout_s(0.5), 0);
  for (double t : {0.5, 1.0, 3.0, 10.0, 120.0, 3600.0}) EXPECT_LT(gpu_wait_timeout_s(t), t);
}

// Within the spin the loop never sleeps: with a 10 s interval, five polls inside a 60 s spin end at
// once, and once the spin is over the next wait is a sleep of the interval.
TEST(Wait, SpinPollsWithoutSleeping) {
  int polls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = wait_until([&](std::string&) { return ++polls < 5 ? Poll::pending : Poll::done; }, 100.0,
                              std::chrono::seconds(10), std::chrono::seconds(60));
  EXPECT_EQ(out.kind, WaitOutcome::Kind::done);
  EXPECT_EQ(polls, 5);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(Wait, AfterTheSpinItSleepsTheInterval) {
  int polls = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const auto out = wait_until([&](std::string&) { return ++polls < 2 ? Poll::pending : Poll::done; }, 100.0,
                              std::chrono::milliseconds(300), std::chrono::microseconds(0));
  EXPECT_EQ(out.kind, WaitOutcome::Kind::done);
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.3);
}
