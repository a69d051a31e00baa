// A node's load from /proc/stat and its own processes, on a fake /proc and on this machine's.
#include <gtest/gtest.h>

#include "bench/core/counters/host_load.hpp"
#include "bench/core/counters/window_load.hpp"
#include "tests/support/fake_tree.hpp"

using namespace gpunet::bench::counters;
using gpunet::test::FakeTree;

TEST(HostLoad, ParsesTheCpuLineWithAndWithoutSteal) {
  const auto t = parse_cpu_times("cpu  100 5 50 800 20 3 2 10 0 0\ncpu0 50 2 25 400 10 1 1 5 0 0\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->total, 990u);
  EXPECT_EQ(t->idle, 820u);
  EXPECT_EQ(t->steal, 10u);
  EXPECT_EQ(t->irq, 5u);
  const auto old = parse_cpu_times("cpu 1 2 3 4\n");  // kernels before 2.6.11 had four fields
  ASSERT_TRUE(old);
  EXPECT_EQ(old->total, 10u);
  EXPECT_FALSE(parse_cpu_times("intr 5\n"));
  EXPECT_FALSE(parse_cpu_times("cpu  x y\n"));
  EXPECT_FALSE(parse_cpu_times(""));
}

TEST(HostLoad, OthersAreTheBusyTimeThisRunDidNotSpend) {
  LoadSnapshot a, b;
  a.ok = b.ok = true;
  a.cpus = b.cpus = 2;
  a.cpu = {1000, 500, 0, 0};
  b.cpu = {1200, 520, 0, 0};  // 200 ticks: 180 busy
  a.own_ticks = 100;
  b.own_ticks = 160;  // the run used 60 of them, other work 120
  auto l = host_load(a, b, 12.5);
  ASSERT_TRUE(l);
  EXPECT_DOUBLE_EQ(l->busy_pct, 90);
  EXPECT_DOUBLE_EQ(l->others_pct, 60);
  EXPECT_TRUE(is_busy(*l, 30));
  EXPECT_FALSE(is_busy(*l, 100));  // --host-busy-pct 100: never busy from other work
  EXPECT_EQ(describe_load(*l, "mpi"), "its CPUs were 60 % busy with other work during mpi (load 12.5 on 2 CPUs)");
  b.own_ticks = 280;  // the run alone kept the CPUs busy: nobody else's work
  l = host_load(a, b, 2);
  EXPECT_DOUBLE_EQ(l->others_pct, 0);
  EXPECT_FALSE(is_busy(*l, 30));
  b.cpu = {1200, 520, 0, 20};  // interrupts (the run's own traffic, mostly) are not other work
  b.own_ticks = 260;
  EXPECT_DOUBLE_EQ(host_load(a, b, 2)->others_pct, 0);
  b.cpu = {1200, 680, 40, 0};  // a hypervisor took 20 %
  l = host_load(a, b, 1);
  EXPECT_DOUBLE_EQ(l->steal_pct, 20);
  EXPECT_TRUE(is_busy(*l, 30));
  EXPECT_EQ(describe_load(*l, "tcp"), "the hypervisor stole 20 % of its CPU time during tcp (load 1.0 on 2 CPUs)");
  EXPECT_FALSE(host_load(a, a, 0));  // no time passed
  LoadSnapshot brief = a;
  brief.cpu.total += 40;  // a suite of a few hundred ms: too short to judge
  EXPECT_FALSE(host_load(a, brief, 0));
  EXPECT_FALSE(host_load(LoadSnapshot{}, b, 0));
}

TEST(HostLoad, OtherProcessesCountWhereInterruptsInTheRunsOwnHideThem) {
  // 200 ticks: 180 busy, 80 of them in softirqs. The kernel counts a tick in a softirq as interrupt
  // time and as the interrupted process's too: the run's 100 hold 60 of them, a busy loop spent 60.
  LoadSnapshot a, b;
  a.ok = b.ok = true;
  a.cpus = b.cpus = 2;
  a.cpu = {1000, 500, 0, 0};
  b.cpu = {1200, 520, 0, 80};
  a.own_ticks = 100;
  b.own_ticks = 200;
  a.others_ticks = {{42, 1000}, {77, 5}};
  b.others_ticks = {{42, 1060}, {77, 5}};
  // busy - own - interrupts is 0: the loop's share would be lost.
  auto l = host_load(a, b, 1);
  ASSERT_TRUE(l);
  EXPECT_DOUBLE_EQ(l->others_pct, 30);
  EXPECT_TRUE(is_busy(*l, 25));
  // A process that began in the window spent all of its time in it; one that ended is not counted.
  b.others_ticks = {{77, 5}, {90, 40}};
  EXPECT_DOUBLE_EQ(host_load(a, b, 1)->others_pct, 20);
  // A PID reused by a process with fewer ticks than the old one had: all of the new one's.
  b.others_ticks = {{42, 30}};
  EXPECT_DOUBLE_EQ(host_load(a, b, 1)->others_pct, 15);
  // Where the busy time the run did not spend is more, it stands: processes that ended in the window.
  b.cpu = {1200, 520, 0, 0};
  b.own_ticks = 160;
  b.others_ticks = a.others_ticks;
  EXPECT_DOUBLE_EQ(host_load(a, b, 1)->others_pct, 60);
  // Never more than the busy time.
  b.others_ticks = {{42, 1500}};
  EXPECT_DOUBLE_EQ(host_load(a, b, 1)->others_pct, 90);
}

TEST(HostLoad, SnapshotsOfAFakeAndOfTheRealProc) {
  FakeTree t;
  t.write("stat", "cpu  10 0 10 80 0 0 0 0\n");
  t.write("loadavg", "3.25 2.00 1.00 4/100 1234\n");
  const auto s = take_load_snapshot(t.root());
  ASSERT_TRUE(s.ok);
  EXPECT_EQ(s.cpu.total, 100u);
  EXPECT_EQ(s.own_ticks, 0u);  // no process directories here
  EXPECT_DOUBLE_EQ(load_average(t.root()), 3.25);
  // Processes: this executable's (own), another's (by PID), one without an executable (a kernel thread).
  t.write("bin/gpunet-bench", "");
  t.write("bin/bash", "");
  const auto stat = [](int utime, int stime) {
    return "12 (a (b) c) R 1 1 1 0 -1 4194304 0 0 0 0 " + std::to_string(utime) + " " + std::to_string(stime) + " 0 0 20\n";
  };
  for (const auto& [pid, exe, ticks] : {std::tuple{"self", "gpunet-bench", 0}, std::tuple{"12", "gpunet-bench", 30},
                                        std::tuple{"13", "gpunet-bench", 12}, std::tuple{"40", "bash", 70}}) {
    t.mkdir(pid);
    std::filesystem::create_symlink(t.path(std::string("bin/") + exe), t.path(std::string(pid) + "/exe"));
    t.write(std::string(pid) + "/stat", stat(ticks / 3, ticks - ticks / 3));
  }
  t.write("2/stat", stat(500, 500));  // no exe link
  const auto p = take_load_snapshot(t.root());
  EXPECT_EQ(p.own_ticks, 42u);
  EXPECT_EQ(p.others_ticks, (std::map<int, uint64_t>{{40, 70}}));
  EXPECT_FALSE(take_load_snapshot(t.path("missing")).ok);
  // On this machine this test process is one of its own executable's processes.
  const auto before = take_load_snapshot("/proc");
  ASSERT_TRUE(before.ok);
  volatile double x = 0;
  for (int i = 0; i < 30000000; ++i) x = x + i * 1e-9;
  const auto after = take_load_snapshot("/proc");
  EXPECT_GT(after.own_ticks, before.own_ticks);
}

// A round's window on a fake /proc: another job's CPU time between the two snapshots makes the host
// busy; the busy windows go onto the figures of the hosts they involve, a whole-cluster figure takes
// them all, and a round on quiet hosts adds nothing.
TEST(WindowLoad, BusyWindowsGoOntoTheFiguresOfTheirHosts) {
  FakeTree t;
  t.write("stat", "cpu  100 0 0 900 0 0 0 0\n");
  t.write("loadavg", "1.50 1.00 1.00 2/100 1234\n");
  const WindowLoad window(t.root(), 30);
  t.write("stat", "cpu  180 0 0 1020 0 0 0 0\n");  // 200 ticks: 80 busy, none of them this run's
  const auto load = window.finish("node-2", "tcp latency round 2/2");
  ASSERT_TRUE(load.is_object());
  EXPECT_TRUE(load["busy"].get<bool>());
  EXPECT_DOUBLE_EQ(load["others_pct"].get<double>(), 40);
  EXPECT_EQ(load["summary"].get<std::string>().rfind(
                "its CPUs were 40 % busy with other work during tcp latency round 2/2 (load 1.5 on ", 0),
            0u)
      << load["summary"];  // then this machine's CPU count
  const WindowLoad too_short(t.root(), 30);
  EXPECT_TRUE(too_short.finish("node-2", "x").is_null()) << "no CPU time passed";

  gpunet::json quiet = load;
  quiet["host"] = "node-1", quiet["busy"] = false;
  const auto busy = busy_windows({quiet, load, nullptr});
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy.begin()->first, "node-2");

  using namespace gpunet::report;
  std::vector<Record> recs(3);
  recs[0].figure = time_figure("tcp.latency", 20, pair_subject("node-1", 0, "node-2", 1));
  recs[1].figure = time_figure("tcp.latency", 11, pair_subject("node-1", 0, "node-3", 2));
  recs[2].figure = time_figure("mpi.allreduce.time", 12, cluster_subject(3));
  attach_busy_windows(recs, busy);
  ASSERT_TRUE(recs[0].extra.contains("host_load_window"));
  EXPECT_EQ(recs[0].extra["host_load_window"], gpunet::json::array({load}));
  EXPECT_FALSE(recs[1].extra.contains("host_load_window")) << "neither end was busy";
  EXPECT_EQ(recs[2].extra["host_load_window"].size(), 1u);
  std::vector<Record> untouched(1);
  untouched[0].figure = recs[1].figure;
  attach_busy_windows(untouched, {});
  EXPECT_FALSE(untouched[0].extra.contains("host_load_window"));
}
