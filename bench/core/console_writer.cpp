#include "bench/core/console_writer.hpp"

#include <algorithm>

#include "report/text/text_format.hpp"

namespace gpunet::bench {

std::optional<ProgressMode> progress_mode(const std::string& option, bool err_is_terminal) {
  if (option == "auto") return err_is_terminal ? ProgressMode::line : ProgressMode::plain;
  if (option == "line") return ProgressMode::line;
  if (option == "plain") return ProgressMode::plain;
  if (option == "off") return ProgressMode::off;
  return std::nullopt;
}

report::Progress ConsoleWriter::at(const report::Progress& p, Clock::time_point set_at, Clock::time_point now) {
  report::Progress shown = p;
  const double since = std::max(0.0, std::chrono::duration<double>(now - set_at).count());
  shown.elapsed_s += since;
  if (!shown.remaining_s) shown.remaining_s = report::estimate_remaining_s(p.done, p.total, p.elapsed_s);
  if (shown.remaining_s) shown.remaining_s = std::max(0.0, *shown.remaining_s - since);
  return shown;
}

namespace {
// The progress line, with the time so far when the time left is not known.
std::string progress_text(const report::Progress& p) {
  std::string s = report::progress_line(p);
  if (!p.remaining_s) s += "  " + report::format_duration(p.elapsed_s) + " so far";
  return s;
}
}  // namespace

// Each piece of console text goes out in one call, so it is one write(2) on an unbuffered stderr:
// mpirun forwards rank 0's stdout and stderr apart, and a line written in parts can be split there
// by a line of the other stream.
void ConsoleWriter::put(std::ostream& os, const std::string& s) { os.write(s.data(), static_cast<std::streamsize>(s.size())).flush(); }

void ConsoleWriter::draw(Clock::time_point now) {
  if (!state_) return;
  put(err_, "\r" + progress_text(at(*state_, set_at_, now)) + "\x1b[K");
  drawn_ = true;
}

void ConsoleWriter::plain(Clock::time_point now) {
  put(err_, "# progress " + progress_text(at(*state_, set_at_, now)) + "\n");
  last_plain_ = now;
  if (!state_->step.empty() || state_->total > 0) plain_suite_ = state_->suite;  // a step, not the bare start
}

void ConsoleWriter::text(const std::string& lines) {
  if (lines.empty()) return;
  std::lock_guard lock(mu_);
  if (drawn_) put(err_, "\r\x1b[K");
  put(out_, lines);
  if (drawn_) draw(Clock::now());
}

void ConsoleWriter::progress(const report::Progress& p) {
  if (mode_ == ProgressMode::off) return;
  std::lock_guard lock(mu_);
  const auto now = Clock::now();
  const bool new_step = !state_ || state_->step != p.step || state_->suite != p.suite;
  state_ = p;
  set_at_ = now;
  if (mode_ == ProgressMode::line) return draw(now);
  const double gap = last_plain_ ? std::chrono::duration<double>(now - *last_plain_).count() : 1e9;
  const bool bare = p.step.empty() && p.total == 0;  // a suite's start: worth a log line only if it lasts
  const bool first_of_suite = p.suite != plain_suite_;  // every suite's plan shows once, however quick
  if ((new_step && !bare && (gap >= kPlainProgressGap_s || first_of_suite)) || (last_plain_ && gap >= kPlainProgressEvery_s))
    plain(now);
}

void ConsoleWriter::tick() {
  if (mode_ == ProgressMode::off) return;
  std::lock_guard lock(mu_);
  if (!state_) return;
  const auto now = Clock::now();
  if (mode_ == ProgressMode::line) return draw(now);
  const auto since = now - (last_plain_ ? std::max(*last_plain_, set_at_) : set_at_);
  if (std::chrono::duration<double>(since).count() >= kPlainProgressEvery_s) plain(now);
}

void ConsoleWriter::end_progress() {
  std::lock_guard lock(mu_);
  if (drawn_) put(err_, "\r\x1b[K");
  drawn_ = false;
  state_.reset();
}

}  // namespace gpunet::bench
