// A suite's steps on the progress line (bench/core/step_progress): counted as they start, with the
// planned time left or, for steps of unknown length, the counts the console paces.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "bench/core/console_writer.hpp"
#include "bench/core/step_progress.hpp"

namespace {

using gpunet::bench::ConsoleWriter;
using gpunet::bench::ProgressMode;
using gpunet::bench::StepProgress;

// What a suite's calls hand to the console, one entry a call.
struct Seen {
  std::string step;
  int done = 0, total = 0;
  double left_s = -1;  // -1: paced (no planned time)
  int64_t bytes = 0;
  bool operator==(const Seen&) const = default;
};

struct Recorder {
  std::vector<Seen> seen;
  StepProgress progress() {
    return StepProgress([this](const std::string& s, int d, int t, double left) { seen.push_back({s, d, t, left, 0}); },
                        [this](const std::string& s, int64_t b, int d, int t) { seen.push_back({s, d, t, -1, b}); });
  }
};

TEST(StepProgress, PlannedStepsCountDownTheirPlannedTime) {
  Recorder r;
  auto steps = r.progress();
  steps.plan(2, 3.0);  // e.g. two memory kernels of 3 s each
  steps.plan(1, 4.0);  // and a copy of 4 s
  steps.start_planned("read", 3.0);
  steps.start_planned("write", 3.0);
  steps.start_planned("copy", 4.0);
  EXPECT_EQ(r.seen, (std::vector<Seen>{{"read", 0, 3, 10.0, 0}, {"write", 1, 3, 7.0, 0}, {"copy", 2, 3, 4.0, 0}}));
  EXPECT_EQ(steps.started(), 3);
}

TEST(StepProgress, AStepBeyondThePlanAddsItself) {
  Recorder r;
  auto steps = r.progress();
  steps.plan(1, 2.0);
  steps.start_planned("matrix", 2.0);
  steps.start_planned("re-test", 2.0);  // decided once the matrix ran
  EXPECT_EQ(r.seen, (std::vector<Seen>{{"matrix", 0, 1, 2.0, 0}, {"re-test", 1, 2, 2.0, 0}}));
  EXPECT_DOUBLE_EQ(steps.planned_left_s(), 2.0);
}

TEST(StepProgress, PacedStepsHandTheirCountsAndSizes) {
  Recorder r;
  auto steps = r.progress();
  steps.plan(3);
  steps.start_paced("allreduce out-of-place", 1024);
  steps.start_paced("allreduce in-place", 1024);
  steps.start_paced("h2d gpu0 pinned local");
  EXPECT_EQ(r.seen, (std::vector<Seen>{{"allreduce out-of-place", 0, 3, -1, 1024},
                                       {"allreduce in-place", 1, 3, -1, 1024},
                                       {"h2d gpu0 pinned local", 2, 3, -1, 0}}));
  steps.plan(0);
  steps.plan(-2);
  EXPECT_EQ(steps.total(), 3);
}

// End to end to the console: what --progress plain prints for a suite's planned and paced steps.
TEST(StepProgress, PlainProgressShowsEachSuitesStepsWithTheTimeLeft) {
  std::ostringstream out, err;
  ConsoleWriter w(out, err, ProgressMode::plain);
  const auto planned = [&](const std::string& suite) {
    return [&w, suite](const std::string& s, int d, int t, double left) { w.progress({suite, s, 0, d, t, 0.0, left}); };
  };
  StepProgress node(planned("node"), [](const std::string&, int64_t, int, int) {});
  node.plan(8, 1.5);
  node.start_planned("membw numa0 read 1 thread", 1.5);
  node.start_planned("membw numa0 read 2 threads", 1.5);  // within the gap: not printed
  w.end_progress();
  StepProgress pcie([](const std::string&, int, int, double) {},
                    [&w](const std::string& s, int64_t b, int d, int t) { w.progress({"pcie", s, b, d, t, 4.0, std::nullopt}); });
  pcie.plan(12);
  pcie.start_paced("h2d gpu0 pinned local", 256 << 20);
  pcie.start_paced("h2d gpu0 pinned remote", 256 << 20);  // within the gap
  w.end_progress();
  EXPECT_EQ(err.str(),
            "# progress [node] membw numa0 read 1 thread  0/8 (0%)  about 12s left\n"
            "# progress [pcie] h2d gpu0 pinned local 256 MiB  0/12 (0%)  4s so far\n");
}

}  // namespace
