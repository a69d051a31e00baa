// Whether a results file's records fit the memory this process may still take: the room read from
// /proc/meminfo and a cgroup's limit (its page cache given back), and the one line that refuses a file
// whose half does not fit.
#include <gtest/gtest.h>

#include "report/render/results_memory.hpp"

using namespace gpunet::report;

namespace {

constexpr const char* kMeminfo =
    "MemTotal:       24600000 kB\n"
    "MemFree:        20000000 kB\n"
    "MemAvailable:   22000000 kB\n"
    "SwapTotal:       2000000 kB\n"
    "SwapFree:        1000000 kB\n";

}  // namespace

TEST(ResultsMemory, TheRoomIsWhatMeminfoLeavesOrWhatACgroupLimitLeavesWhereThatIsLess) {
  const auto room = memory_room_of(kMeminfo, std::nullopt);
  ASSERT_TRUE(room);
  EXPECT_EQ(room->bytes, (22000000ull + 1000000ull) * 1024);
  EXPECT_EQ(room->from, "MemAvailable and SwapFree of /proc/meminfo");
  const auto limited = memory_room_of(kMeminfo, CgroupMemory{4000000000ull, 1500000000ull, 500000000ull});
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->bytes, 3000000000ull);
  EXPECT_EQ(limited->from, "the memory limit of this process's cgroup, 4.0 GB");  // its page cache given back
  EXPECT_EQ(memory_room_of(kMeminfo, CgroupMemory{4000000000ull, 1500000000ull, 0})->bytes, 2500000000ull);
  EXPECT_EQ(memory_room_of(kMeminfo, CgroupMemory{1000, 5000, 0})->bytes, 0u);       // over its limit already
  EXPECT_EQ(memory_room_of(kMeminfo, CgroupMemory{1000, 500, 900})->bytes, 1000u);   // all of it page cache
  EXPECT_EQ(memory_room_of(kMeminfo, CgroupMemory{1ull << 62, 0, 0})->bytes, room->bytes);  // a limit that limits nothing
  EXPECT_EQ(memory_room_of("MemTotal: 5 kB\n", std::nullopt), std::nullopt);
  EXPECT_EQ(memory_room_of("MemAvailable: lots\n", std::nullopt), std::nullopt);
  EXPECT_EQ(memory_room_of("MemAvailableX: 5 kB\nMemAvailable: 7 kB\n", std::nullopt)->bytes, 7u * 1024);
  EXPECT_EQ(memory_room_of("", std::nullopt), std::nullopt);
}

TEST(ResultsMemory, AFileWhoseHalfDoesNotFitIsRefusedWithOneLine) {
  const MemoryRoom room{1000000000, "the memory limit of this process's cgroup, 1.1 GB"};
  EXPECT_EQ(results_beyond_memory("r.jsonl", 2000000000, room), std::nullopt);  // half of it fits: it may
  const auto why = results_beyond_memory("r.jsonl", 2200000000, room);
  ASSERT_TRUE(why);
  EXPECT_EQ(*why,
            "r.jsonl: its records need about as much memory as the file's 2.2 GB to be analysed (never less than half), "
            "and this process may take 1.0 GB more (the memory limit of this process's cgroup, 1.1 GB): analyse it where "
            "there is more (gpunet-bench report r.jsonl -o DIR), or measure fewer pairs (--tcp-pairs random:K)");
  EXPECT_EQ(why->find('\n'), std::string::npos);
  EXPECT_EQ(results_beyond_memory("r.jsonl", 1, MemoryRoom{0, "x"}), std::nullopt);  // half of 1 byte is 0
  EXPECT_TRUE(results_beyond_memory("r.jsonl", 3, MemoryRoom{0, "x"}).has_value());
}

// This machine's room reads (a Linux /proc/meminfo), and the files of these tests fit it.
TEST(ResultsMemory, ThisMachinesRoomReads) {
  const auto room = memory_room();
  ASSERT_TRUE(room);
  EXPECT_GT(room->bytes, 0u);
  EXPECT_EQ(results_beyond_memory("r.jsonl", 1 << 20, *room), std::nullopt);
}
