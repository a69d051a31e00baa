// The control plane's judgements: which deadline comes next, who is late, dead or stalled, and how
// the job ends. Runs on the service thread.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <thread>

#include "bench/core/control.hpp"
#include "bench/core/results_fallback.hpp"
#include "bench/core/results_sink.hpp"

namespace gpunet::bench {

namespace {
constexpr double kWatchdogSilentNote_s = 2.5;   // no heartbeat for this long is worth saying (beats are 1 s apart)
constexpr double kWatchdogMemberGrace_s = 3.0;  // members act if rank 0 has not ended a late step
constexpr auto kWatchdogTellerFirst = std::chrono::seconds(2);  // a quiet member waits so that the teller speaks first
// After a death (a rank killed by a signal) mpirun ends the job itself at once; every rank waits that
// long for it, so that mpirun reports the death (128 + the signal) rather than a survivor's exit.
constexpr auto kWatchdogDeathGrace = std::chrono::seconds(5);

double elapsed_s(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::chrono::steady_clock::duration as_duration(double s) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

std::string one_decimal(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}
}  // namespace

ControlPlane::Clock::time_point ControlPlane::next_deadline() const {
  auto next = Clock::time_point::max();
  const double grace = mpi_.is_root() ? 0.0 : kWatchdogMemberGrace_s;
  for (size_t r = 0; r < peers_.size(); ++r) {
    const Peer& p = peers_[r];
    if (mpi_.is_root() || r == 1) {  // rank 0 times every rank's steps; a member its own
      if (p.entered > p.left) next = std::min(next, p.since + as_duration(timeout_s_ + grace));
      if (p.in_local) next = std::min(next, p.local_since + as_duration(timeout_s_ + grace));
    }
    const bool remote = mpi_.is_root() ? r != 0 : r == 0;
    if (remote && !p.done && !p.gone) next = std::min(next, p.heard + as_duration(silent_end_s_));
  }
  return next;
}

std::string ControlPlane::place_of(size_t peer) const {
  const Peer& p = peers_[peer];
  if (p.in_local) return "during step '" + p.local_step + "'";
  if (p.entered > p.left) return "during step '" + p.step + "'";
  if (!p.step.empty()) return "after step '" + p.step + "'";
  return "before its first step";
}

void ControlPlane::lost(size_t link) {
  links_[link]->close();
  std::unique_lock lock(mu_);
  const size_t peer = mpi_.is_root() ? link : 0;
  if (peers_[peer].done || peers_[peer].gone) return;
  const size_t where = mpi_.is_root() ? peer : 1;  // a member names the step it is in itself
  const std::string step = peers_[where].in_local ? peers_[where].local_step : peers_[where].step;
  const std::string line = mpi_.describe_rank(static_cast<int>(peer)) + " died " + place_of(where) +
                           ": its control connection closed";
  lock.unlock();
  end_job(static_cast<int>(peer), step, line, report::Status::failed, mpi_.is_root() || mpi_.rank == 1, true);
}

void ControlPlane::check_local_deadlines(Clock::time_point now, std::unique_lock<std::mutex>& lock) {
  for (size_t r = 0; r < peers_.size(); ++r) {
    const Peer& p = peers_[r];
    if (!p.in_local || elapsed_s(now - p.local_since) <= timeout_s_) continue;
    std::string msg = "timeout: step '" + p.local_step + "' exceeded --timeout " + one_decimal(timeout_s_) + " s on " +
                      mpi_.describe_rank(static_cast<int>(r)) + ", which runs it alone; ";
    msg += r != 0 && elapsed_s(now - p.heard) > kWatchdogSilentNote_s ? "no heartbeat for " + one_decimal(elapsed_s(now - p.heard)) + " s"
                                                             : "a hang inside the operation";
    const std::string step = p.local_step;
    lock.unlock();
    end_job(static_cast<int>(r), step, msg, report::Status::timed_out, true);
  }
}

void ControlPlane::check_root_deadlines(Clock::time_point now) {
  std::unique_lock lock(mu_);
  check_local_deadlines(now, lock);
  for (size_t r = 0; r < peers_.size(); ++r) {
    const Peer& late = peers_[r];
    if (late.entered <= late.left || elapsed_s(now - late.since) <= timeout_s_) continue;
    std::ostringstream why;
    int culprit = -1;
    for (size_t q = 0; q < peers_.size(); ++q) {
      const Peer& p = peers_[q];
      std::string what;
      if (p.gone)
        what = "left the run (an error on that rank)";
      else if (q != 0 && elapsed_s(now - p.heard) > kWatchdogSilentNote_s)
        what = "no heartbeat for " + one_decimal(elapsed_s(now - p.heard)) + " s";
      else if (p.entered < late.entered)
        what = p.entered > p.left ? "still in step '" + p.step + "'" : "has not reached it (last step '" + p.step + "')";
      if (what.empty()) continue;
      why << (culprit < 0 ? "" : "; ") << mpi_.describe_rank(static_cast<int>(q)) << ": " << what;
      if (culprit < 0) culprit = static_cast<int>(q);
    }
    std::string msg = "timeout: step '" + late.step + "' exceeded --timeout " + one_decimal(timeout_s_) + " s on " +
                      mpi_.describe_rank(static_cast<int>(r)) + "; ";
    msg += culprit >= 0 ? "did not arrive: " + why.str() : "every rank arrived and none finished (a hang inside the operation)";
    const std::string step = late.step;
    lock.unlock();
    end_job(culprit < 0 ? static_cast<int>(r) : culprit, step, msg, report::Status::timed_out, true);
  }
  for (size_t r = 1; r < peers_.size(); ++r) {
    const Peer& p = peers_[r];
    const double silent = elapsed_s(now - p.heard);
    if (p.done || p.gone || silent <= silent_end_s_) continue;
    const std::string step = p.in_local ? p.local_step : p.step;
    const std::string msg = mpi_.describe_rank(static_cast<int>(r)) + " stalled " + place_of(r) + ": no heartbeat for " +
                            one_decimal(silent) + " s";
    lock.unlock();
    end_job(static_cast<int>(r), step, msg, report::Status::timed_out, true);
  }
}

void ControlPlane::check_member_deadlines(Clock::time_point now) {
  std::unique_lock lock(mu_);
  const Peer& me = peers_[1];
  const Peer& root = peers_[0];
  if (root.done || root.gone) return;
  const double silent = elapsed_s(now - root.heard);
  const bool late = me.entered > me.left && elapsed_s(now - me.since) > timeout_s_ + kWatchdogMemberGrace_s;
  const bool late_local = me.in_local && elapsed_s(now - me.local_since) > timeout_s_ + kWatchdogMemberGrace_s;
  const std::string step = late_local || me.in_local ? me.local_step : me.step;
  if (late || late_local) {  // rank 0 should have ended the job by now
    const bool root_silent = silent > kWatchdogSilentNote_s;
    const std::string msg = "timeout: step '" + step + "' exceeded --timeout " + one_decimal(timeout_s_) + " s on " +
                            mpi_.describe_rank(mpi_.rank) + "; " +
                            (root_silent ? "did not arrive: " + mpi_.describe_rank(0) + ": no heartbeat for " + one_decimal(silent) + " s"
                                         : "rank 0 did not end the job");
    lock.unlock();
    end_job(root_silent ? 0 : mpi_.rank, step, msg, report::Status::timed_out, !root_silent || mpi_.rank == 1);
  }
  if (silent > silent_end_s_) {
    const std::string msg = mpi_.describe_rank(0) + " stalled " + place_of(1) + ": no heartbeat for " + one_decimal(silent) + " s";
    lock.unlock();
    end_job(0, step, msg, report::Status::timed_out, mpi_.rank == 1);
  }
}

void ControlPlane::end_job(int culprit_rank, const std::string& step, const std::string& line, report::Status status,
                           bool tell, bool died) {
  if (mpi_.is_root() && sink_) {
    report::Record rec;
    rec.suite = step.empty() ? "control" : step.substr(0, step.find(' '));
    rec.name = "watchdog";
    rec.variant = step;
    rec.ranks = mpi_.size;
    rec.host = mpi_.host;
    rec.status = status;
    rec.reason = line;
    rec.extra = {{"culprit_rank", culprit_rank}, {"culprit_host", mpi_.hosts[static_cast<size_t>(culprit_rank)]}};
    try {
      sink_->append(rec);
    } catch (const std::exception&) {  // the line below still says what happened
    }
  }
  if (tell) {
    const std::string where = sink_ ? " Results measured so far are in " + sink_->path() + "."
                                    : " Every record measured before is in rank 0's results.jsonl.";
    std::fprintf(stderr, "gpunet-bench: %s.%s\n", line.c_str(), where.c_str());
    std::fflush(stderr);
  }
  for (auto& l : links_)
    if (l) {
      l->send(control::frame::quit, died ? "died" : "");
      l->flush();
    }
  if (died)
    std::this_thread::sleep_for(kWatchdogDeathGrace);
  else if (!tell)
    std::this_thread::sleep_for(kWatchdogTellerFirst);
  std::fflush(nullptr);  // stderr is line-buffered (main); what was said must not stay in a buffer
  std::_Exit(3);
}

void ControlPlane::stop_for_unwritable_results(const std::string& step) {
  std::string saved;
  try {
    const std::vector<report::Record> records = sink_->records();
    const std::string where = write_fallback(sink_->run(), records, fallback_places(std::getenv("TMPDIR"), ::getpid()), std::cout);
    saved = fallback_line(records.size(), where);
  } catch (const std::runtime_error& e) {
    saved = e.what();
  }
  std::fprintf(stderr, "gpunet-bench: error: stopped measuring before step '%s' because %s cannot be written; %s\n",
               step.c_str(), sink_->path().c_str(), saved.c_str());
  std::fflush(nullptr);
  for (auto& l : links_)
    if (l) {
      l->send(control::frame::quit, "");
      l->flush();
    }
  std::_Exit(3);
}

void ControlPlane::quiet_exit(bool after_death) {
  if (after_death) std::this_thread::sleep_for(kWatchdogDeathGrace);
  std::fflush(nullptr);
  std::_Exit(3);
}

}  // namespace gpunet::bench
