// The node micro-benchmarks: kernels and thread slices, and Google Benchmark runs turned into
// Records through the RecordReporter, run for real on this machine's memory.
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <numeric>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bench/suites/node/gbench_records.hpp"
#include "bench/suites/node/membw.hpp"
#include "bench/engines/numa.hpp"
#include "bench/suites/node/team_barrier.hpp"
#include "bench/suites/node/thread_team.hpp"

using namespace gpunet::bench::node;

TEST(NodeBench, SlicesCoverEveryElementOnceInWholeCacheLines) {
  for (size_t elems : {1ul, 7ul, 8ul, 1000ul, 1024ul, 12345ul})
    for (int n : {1, 2, 3, 7, 64}) {
      size_t covered = 0, next = 0;
      for (int t = 0; t < n; ++t) {
        const auto [lo, hi] = slice(elems, t, n);
        EXPECT_EQ(lo, next);
        EXPECT_LE(lo, hi);
        if (hi < elems) {
          EXPECT_EQ(hi % 8, 0u);
        }
        covered += hi - lo;
        next = hi;
      }
      EXPECT_EQ(covered, elems) << elems << " / " << n;
    }
}

TEST(NodeBench, KernelsComputeAndCountBytesLikeStream) {
  std::vector<double> a(100, 0), b(100), c(100);
  std::iota(b.begin(), b.end(), 0.0);
  std::fill(c.begin(), c.end(), 2.0);
  EXPECT_DOUBLE_EQ(run_kernel(MemKernel::read, a.data(), b.data(), c.data(), 0, 100, 3), 4950.0);
  run_kernel(MemKernel::triad, a.data(), b.data(), c.data(), 10, 20, 3);
  EXPECT_DOUBLE_EQ(a[10], 16.0);
  EXPECT_DOUBLE_EQ(a[20], 0.0);  // outside the slice
  run_kernel(MemKernel::copy, a.data(), b.data(), c.data(), 50, 60, 3);
  EXPECT_DOUBLE_EQ(a[55], 55.0);
  run_kernel(MemKernel::write, a.data(), b.data(), c.data(), 0, 5, 3);
  EXPECT_DOUBLE_EQ(a[4], 3.0);
  EXPECT_EQ(kernel_bytes(MemKernel::read, 10), 80);
  EXPECT_EQ(kernel_bytes(MemKernel::copy, 10), 160);
  EXPECT_EQ(kernel_bytes(MemKernel::triad, 10), 240);
}

TEST(NodeBench, RepetitionsBecomeTheRecordsSamples) {
  gpunet::report::Record base;
  base.host = "h";
  BenchMeta meta{"node", "membw_copy", "numa0", 2'000'000'000, {{"numa_node", 0}}};
  const auto r = record_from_repetitions(base, meta, 4, {0.1, 0.2, 0.1}, {10, 5, 10});
  EXPECT_EQ(r.suite, "node");
  EXPECT_EQ(r.name, "membw_copy");
  EXPECT_EQ(r.variant, "numa0 4 threads");
  EXPECT_EQ(r.host, "h");
  EXPECT_EQ(r.time_us.samples, 3);
  EXPECT_NEAR(r.time_us.mean, 133333.33, 0.01);
  EXPECT_NEAR(r.algbw_GBps, 2.0 / (0.4 / 3), 1e-9);  // bytes per iteration over the mean iteration time
  EXPECT_EQ(r.extra["repetitions_GBps"], gpunet::json::array({20.0, 10.0, 20.0}));
  EXPECT_EQ(r.extra["numa_node"], 0);
  EXPECT_EQ(r.extra["samples_us"], gpunet::json::array({100000.0, 200000.0, 100000.0}));
  EXPECT_EQ(r.extra["timing"]["batches"], 3);
  EXPECT_EQ(whole_iterations(40, 4), 10);
  EXPECT_EQ(whole_iterations(7, 1), 7);
}

TEST(NodeBench, HostMemoryBenchmarkRunsForRealThroughTheReporter) {
  const int numa = memory_nodes().front();
  const size_t elems = 1 << 18;  // 2 MiB per array
  NodeBuffer a(elems * 8, numa), b(elems * 8, numa);
  EXPECT_TRUE(node_of_address(b.data()) < 0 || node_of_address(b.data()) == numa);
  auto* pa = reinterpret_cast<double*>(a.data());
  auto* pb = reinterpret_cast<double*>(b.data());
  std::fill(pb, pb + elems, 1.5);
  std::map<std::string, BenchMeta> meta{{"copy", {"node", "membw_copy", "numa" + std::to_string(numa), kernel_bytes(MemKernel::copy, elems), {}}}};
  std::vector<gpunet::report::Record> got;
  RecordReporter reporter(gpunet::report::Record{}, meta, [&](gpunet::report::Record r) { got.push_back(std::move(r)); });
  benchmark::RegisterBenchmark("copy", [&](benchmark::State& st) {
    for (auto _ : st) benchmark::DoNotOptimize(run_kernel(MemKernel::copy, pa, pb, nullptr, 0, elems, 0));
  })->MinTime(0.01)->Repetitions(2)->UseRealTime();
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].status, gpunet::report::Status::passed);
  EXPECT_EQ(got[0].time_us.samples, 2);
  EXPECT_GT(got[0].algbw_GBps, 0.05);  // any machine copies 2 MiB faster than that
  EXPECT_EQ(got[0].bytes, static_cast<int64_t>(elems * 16));
  EXPECT_DOUBLE_EQ(pa[elems - 1], 1.5);
}

TEST(NodeBench, ThreadSlicesTogetherMoveTheWholeArrayOnce) {
  for (MemKernel k : all_mem_kernels())
    for (size_t elems : {8ul, 1000ul, 12345ul})
      for (int n : {1, 2, 3, 8}) {
        int64_t sum = 0;
        for (int t = 0; t < n; ++t) sum += slice_bytes(k, elems, t, n);
        EXPECT_EQ(sum, kernel_bytes(k, static_cast<int64_t>(elems))) << to_string(k) << " " << elems << " / " << n;
      }
}

// The bytes a threaded benchmark is credited with (bytes per iteration x iterations of the record)
// equal the bytes its threads touched, counted by the kernel itself as it runs.
TEST(NodeBench, ThreadedBenchmarkIsCreditedTheBytesItsThreadsTouch) {
  constexpr int kThreads = 2, kIters = 5, kReps = 2;
  const size_t elems = 1 << 16;
  std::vector<double> a(elems), b(elems, 1.0), c(elems, 2.0);
  std::atomic<int64_t> touched{0};
  const int64_t pass = kernel_bytes(MemKernel::triad, static_cast<int64_t>(elems));
  std::map<std::string, BenchMeta> meta{{"triad", {"node", "membw_triad", "numa0", pass, {}}}};
  std::vector<gpunet::report::Record> got;
  RecordReporter reporter(gpunet::report::Record{}, meta, [&](gpunet::report::Record r) { got.push_back(std::move(r)); });
  benchmark::RegisterBenchmark("triad", [&](benchmark::State& st) {
    const int t = static_cast<int>(st.thread_index()), n = static_cast<int>(st.threads());
    const auto [lo, hi] = slice(elems, t, n);
    for (auto _ : st) {
      benchmark::DoNotOptimize(run_kernel(MemKernel::triad, a.data(), b.data(), c.data(), lo, hi, 3));
      touched += slice_bytes(MemKernel::triad, elems, t, n);
    }
  })->Iterations(kIters)->Repetitions(kReps)->Threads(kThreads)->UseRealTime();
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  ASSERT_EQ(got.size(), 1u);
  const auto iterations = got[0].extra["iterations"].get<std::vector<int64_t>>();
  ASSERT_EQ(iterations.size(), static_cast<size_t>(kReps));
  int64_t credited = 0;
  for (int64_t it : iterations) credited += it * got[0].bytes;
  EXPECT_EQ(credited, touched.load());
  EXPECT_EQ(touched.load(), int64_t{kReps} * kIters * pass);
  EXPECT_EQ(got[0].variant, "numa0 2 threads");
  EXPECT_EQ(got[0].extra["samples_us"].size(), static_cast<size_t>(kReps));
  EXPECT_DOUBLE_EQ(a[elems - 1], 7.0);
}

// One pass of a t-member team is one pass over the whole array: the bytes the members touch in a
// pass, counted by each member as it runs its slice, are the bytes the record credits per iteration.
TEST(NodeBench, ThreadTeamPassTouchesTheBytesCreditedPerIteration) {
  const size_t elems = 100003;
  std::vector<double> a(elems), b(elems, 1.0), c(elems, 2.0);
  for (int members : {1, 2, 3, 5}) {
    std::atomic<int64_t> touched{0};
    std::vector<int> runs(static_cast<size_t>(members));
    ThreadTeam team(members, -1, [&](int m, int n) {
      const auto [lo, hi] = slice(elems, m, n);
      run_kernel(MemKernel::triad, a.data(), b.data(), c.data(), lo, hi, 3);
      touched += kernel_bytes(MemKernel::triad, static_cast<int64_t>(hi - lo));
      ++runs[static_cast<size_t>(m)];
    });
    EXPECT_EQ(team.size(), members);
    for (int pass = 1; pass <= 3; ++pass) {
      std::fill(a.begin(), a.end(), 0.0);
      team.pass();
      EXPECT_EQ(touched.load(), pass * kernel_bytes(MemKernel::triad, static_cast<int64_t>(elems))) << members;
      EXPECT_EQ(std::count(a.begin(), a.end(), 7.0), static_cast<std::ptrdiff_t>(elems)) << members;
    }
    for (int r : runs) EXPECT_EQ(r, 3);
  }
}

// The team's barrier (it spins before it sleeps) lets nobody through a phase before every member has
// arrived, phase after phase, spinning long or briefly; it spins as libgomp does.
TEST(NodeBench, TeamBarrierLetsNobodyThroughBeforeEveryMemberArrived) {
  EXPECT_EQ(TeamBarrier::spins_for(2, 2), 300'000);
  EXPECT_EQ(TeamBarrier::spins_for(3, 2), 1'000);
  constexpr int kMembers = 3, kPhases = 300;
  for (int spins : {0, 1'000}) {
    TeamBarrier barrier(kMembers, spins);
    std::atomic<int> arrivals{0};
    std::atomic<bool> early{false};
    std::vector<std::thread> members;
    for (int m = 0; m < kMembers; ++m)
      members.emplace_back([&] {
        for (int p = 1; p <= kPhases; ++p) {
          ++arrivals;
          barrier.arrive_and_wait();
          if (arrivals.load() != p * kMembers) early = true;
          barrier.arrive_and_wait();  // nobody arrives at the next phase before all have looked
        }
      });
    for (auto& t : members) t.join();
    EXPECT_FALSE(early.load()) << spins;
    EXPECT_EQ(arrivals.load(), kMembers * kPhases) << spins;
  }
}

// Members are pinned one to a CPU, member m on the m-th CPU of the node (as OMP_PROC_BIND=close with
// OMP_PLACES=cores pins the plain loop it is compared with), and the calling thread gets its own CPU
// mask back when the team ends.
TEST(NodeBench, ThreadTeamPinsMemberMToTheMthCpuOfTheNodeAndRestoresTheCaller) {
  const int numa = memory_nodes().front();
  const auto cpus = node_cpus(numa);
  cpu_set_t before;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof before, &before), 0);
  {
    const int members = static_cast<int>(cpus.size()) + 1;  // one more than CPUs: wraps around
    std::vector<int> ran_on(static_cast<size_t>(members), -2);
    ThreadTeam team(members, numa, [&](int m, int) { ran_on[static_cast<size_t>(m)] = sched_getcpu(); });
    team.pass();
    for (int m = 0; m < members; ++m) {
      EXPECT_EQ(team.cpu_of(m), cpus[static_cast<size_t>(m) % cpus.size()]) << m;
      EXPECT_EQ(ran_on[static_cast<size_t>(m)], team.cpu_of(m)) << m;
    }
  }
  cpu_set_t after;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof after, &after), 0);
  EXPECT_TRUE(CPU_EQUAL(&before, &after));
  ThreadTeam unpinned(2, -1, [](int, int) {});
  EXPECT_EQ(unpinned.cpu_of(1), -1);
}

TEST(NodeBench, NumaFallsBackToOneNode) {
  const auto nodes = memory_nodes();
  ASSERT_FALSE(nodes.empty());
  EXPECT_FALSE(node_cpus(nodes.front()).empty());
  NodeBuffer empty(0, -1);
  EXPECT_EQ(empty.data(), nullptr);
  NodeBuffer moved(NodeBuffer(4096, nodes.front()));
  EXPECT_NE(moved.data(), nullptr);
  EXPECT_EQ(moved.size(), 4096u);
}
