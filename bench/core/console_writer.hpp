// Rank 0's console writer: the one place the run's console text is printed from while suites run.
// Record lines (main thread) and live lines (the control plane's service thread: interval lines from
// any rank) go to `out`; the progress line goes to `err`. How progress shows (--progress):
//  - line:  one line on a terminal, rewritten in place ("\r", clear to end of line), cleared before
//           any other text and drawn again after it, and refreshed about once a second;
//  - plain: ordinary lines for logs and CI, no control characters, at a modest rate: when a step
//           starts and kPlainProgressGap_s have passed since the last one or it is its suite's first
//           step, or every kPlainProgressEvery_s during a long step (a suite's bare start, only then);
//  - off:   none.
// auto is line when stderr is a terminal, plain otherwise. The time left counts down between
// updates. Thread-safe; measuring code never calls it (it hands lines to the control plane).
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>

#include "report/render/progress.hpp"

namespace gpunet::bench {

enum class ProgressMode { line, plain, off };
// "auto", "line", "plain", "off" (--progress); nullopt for anything else.
std::optional<ProgressMode> progress_mode(const std::string& option, bool err_is_terminal);

inline constexpr double kPlainProgressGap_s = 5;
inline constexpr double kPlainProgressEvery_s = 30;

class ConsoleWriter {
 public:
  using Clock = std::chrono::steady_clock;
  ConsoleWriter(std::ostream& out, std::ostream& err, ProgressMode mode) : out_(out), err_(err), mode_(mode) {}

  void text(const std::string& lines);           // whole lines, each ending in '\n'
  void progress(const report::Progress& p);      // a new state: step, counts, time left
  void tick();                                   // time passed: refresh the line, or a plain line when due
  void end_progress();                           // the suite ended: the line is cleared, the state forgotten

  // The progress as shown at `now`: elapsed and time left moved on since the state was set.
  static report::Progress at(const report::Progress& p, Clock::time_point set_at, Clock::time_point now);

 private:
  void draw(Clock::time_point now);   // mu_ held
  void plain(Clock::time_point now);  // mu_ held
  static void put(std::ostream& os, const std::string& s);  // one call: one write

  std::ostream& out_;
  std::ostream& err_;
  const ProgressMode mode_;
  std::mutex mu_;
  std::optional<report::Progress> state_;
  Clock::time_point set_at_{};
  std::optional<Clock::time_point> last_plain_;
  std::string plain_suite_;  // the suite of the last plain line of a step
  bool drawn_ = false;  // the line is on the terminal
};

}  // namespace gpunet::bench
