#include "bench/control.hpp"

#include <cstdio>
#include <sstream>

namespace gpunet::bench {

namespace {
constexpr int kTag = 7001;
constexpr auto kBeat = std::chrono::milliseconds(250);
constexpr auto kPoll = std::chrono::milliseconds(10);
constexpr double kSilentAfter_s = 2.0;     // no heartbeat for this long: the rank is named
constexpr double kMemberGrace_s = 3.0;     // members act if rank 0 has not ended a late step

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string fmt_s(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}
}  // namespace

ControlPlane::ControlPlane(const MpiContext& mpi, double timeout_s, ResultsSink* sink)
    : mpi_(mpi), timeout_s_(timeout_s), sink_(sink) {
  const auto now = Clock::now();
  peers_.resize(mpi_.is_root() ? static_cast<size_t>(mpi_.size) : 2);
  for (auto& p : peers_) p.since = p.heard = now;
  thread_ = std::thread([this] { mpi_.is_root() ? serve_root() : serve_member(); });
}

ControlPlane::~ControlPlane() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void ControlPlane::send(int dest, const std::string& msg) const {
  MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, dest, kTag, mpi_.control);
}

void ControlPlane::enter(const std::string& step, StepScope scope) {
  const bool local = scope == StepScope::this_rank;
  const long seq = local ? seq_ : ++seq_;
  {
    std::lock_guard lock(mu_);
    auto& self = peers_[mpi_.is_root() ? 0 : 1];
    if (local) {
      self.in_local = true;
      self.local_step = step;
      self.local_since = Clock::now();
    } else {
      self.entered = seq;
      self.step = step;
      self.since = Clock::now();
    }
  }
  if (!mpi_.is_root()) send(0, local ? "e" + step : "E" + std::to_string(seq) + "\t" + step);
}

void ControlPlane::leave(StepScope scope) {
  const bool local = scope == StepScope::this_rank;
  {
    std::lock_guard lock(mu_);
    auto& self = peers_[mpi_.is_root() ? 0 : 1];
    if (local)
      self.in_local = false;
    else
      self.left = seq_;
  }
  if (!mpi_.is_root()) send(0, local ? std::string("l") : "L" + std::to_string(seq_));
}

void ControlPlane::emit(const report::Record& r) {
  if (mpi_.is_root())
    sink_->append(r);
  else
    send(0, "R" + nlohmann::json(r).dump());
}

void ControlPlane::handle(int source, const std::string& msg) {
  if (msg.empty()) return;
  const std::string body = msg.substr(1);
  if (msg[0] == 'R') {
    sink_->append(nlohmann::json::parse(body).get<report::Record>());
    return;
  }
  std::lock_guard lock(mu_);
  auto& p = peers_[static_cast<size_t>(source)];
  p.heard = Clock::now();
  if (msg[0] == 'E') {
    const auto tab = body.find('\t');
    p.entered = std::stol(body.substr(0, tab));
    p.step = body.substr(tab + 1);
    p.since = p.heard;
  } else if (msg[0] == 'L') {
    p.left = std::stol(body);
  } else if (msg[0] == 'e') {
    p.in_local = true;
    p.local_step = body;
    p.local_since = p.heard;
  } else if (msg[0] == 'l') {
    p.in_local = false;
  } else if (msg[0] == 'D') {
    p.done = true;
    all_done_.notify_all();
  }
}

void ControlPlane::serve_root() {
  auto next_beat = Clock::now();
  while (!stop_) {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      MPI_Iprobe(MPI_ANY_SOURCE, kTag, mpi_.control, &flag, &st);
      if (!flag) break;
      int n = 0;
      MPI_Get_count(&st, MPI_CHAR, &n);
      std::string msg(static_cast<size_t>(n), '\0');
      MPI_Recv(msg.data(), n, MPI_CHAR, st.MPI_SOURCE, kTag, mpi_.control, MPI_STATUS_IGNORE);
      handle(st.MPI_SOURCE, msg);
    }
    const auto now = Clock::now();
    if (now >= next_beat) {
      for (int r = 1; r < mpi_.size; ++r) send(r, "H");
      next_beat = now + kBeat;
    }
    check_root_deadlines(now);
    std::this_thread::sleep_for(kPoll);
  }
}

void ControlPlane::check_local_deadlines(Clock::time_point now, std::unique_lock<std::mutex>& lock) {
  for (size_t r = 0; r < peers_.size(); ++r) {
    const Peer& p = peers_[r];
    if (!p.in_local || seconds(now - p.local_since) <= timeout_s_) continue;
    std::string msg = "step '" + p.local_step + "' exceeded --timeout " + fmt_s(timeout_s_) + " s on " +
                      mpi_.describe_rank(static_cast<int>(r)) + ", which runs it alone; ";
    msg += r != 0 && seconds(now - p.heard) > kSilentAfter_s
               ? "no heartbeat for " + fmt_s(seconds(now - p.heard)) + " s"
               : "a hang inside the operation";
    const std::string step = p.local_step;
    lock.unlock();
    abort_timeout(static_cast<int>(r), step, msg);
  }
}

void ControlPlane::check_root_deadlines(Clock::time_point now) {
  std::unique_lock lock(mu_);
  check_local_deadlines(now, lock);
  for (size_t r = 0; r < peers_.size(); ++r) {
    const Peer& late = peers_[r];
    if (late.entered <= late.left || seconds(now - late.since) <= timeout_s_) continue;
    std::ostringstream why;
    int culprit = -1;
    for (size_t q = 0; q < peers_.size(); ++q) {
      const Peer& p = peers_[q];
      std::string what;
      if (q != 0 && seconds(now - p.heard) > kSilentAfter_s)
        what = "no heartbeat for " + fmt_s(seconds(now - p.heard)) + " s";
      else if (p.entered < late.entered)
        what = p.entered > p.left ? "still in step '" + p.step + "'" : "has not reached it (last step '" + p.step + "')";
      if (what.empty()) continue;
      why << (culprit < 0 ? "" : "; ") << mpi_.describe_rank(static_cast<int>(q)) << ": " << what;
      if (culprit < 0) culprit = static_cast<int>(q);
    }
    std::string msg = "step '" + late.step + "' exceeded --timeout " + fmt_s(timeout_s_) + " s on " +
                      mpi_.describe_rank(static_cast<int>(r)) + "; ";
    if (culprit >= 0)
      msg += "did not arrive: " + why.str();
    else
      msg += "every rank arrived and none finished (a hang inside the operation)";
    const std::string step = late.step;
    lock.unlock();
    abort_timeout(culprit < 0 ? static_cast<int>(r) : culprit, step, msg);
  }
}

void ControlPlane::abort_timeout(int culprit_rank, const std::string& step, const std::string& reason) {
  if (mpi_.is_root() && sink_) {
    report::Record rec;
    rec.suite = step.substr(0, step.find(' '));
    rec.name = "watchdog";
    rec.variant = step;
    rec.ranks = mpi_.size;
    rec.host = mpi_.host;
    rec.status = report::Status::timed_out;
    rec.reason = reason;
    rec.extra = {{"culprit_rank", culprit_rank}, {"culprit_host", mpi_.hosts[static_cast<size_t>(culprit_rank)]}};
    sink_->append(rec);
  }
  std::fprintf(stderr, "gpunet-bench: timeout: %s.%s\n", reason.c_str(),
               sink_ ? (" Results measured so far are in " + sink_->path()).c_str() : "");
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::_Exit(3);
}

void ControlPlane::serve_member() {
  auto next_beat = Clock::now();
  while (!stop_) {
    for (;;) {
      int flag = 0;
      MPI_Iprobe(0, kTag, mpi_.control, &flag, MPI_STATUS_IGNORE);
      if (!flag) break;
      char c = 0;
      MPI_Recv(&c, 1, MPI_CHAR, 0, kTag, mpi_.control, MPI_STATUS_IGNORE);
      std::lock_guard lock(mu_);
      peers_[0].heard = Clock::now();
    }
    const auto now = Clock::now();
    if (now >= next_beat) {
      send(0, "H");
      next_beat = now + kBeat;
    }
    std::unique_lock lock(mu_);
    const Peer& self = peers_[1];
    const bool late = self.entered > self.left && seconds(now - self.since) > timeout_s_ + kMemberGrace_s;
    const bool late_local = self.in_local && seconds(now - self.local_since) > timeout_s_ + kMemberGrace_s;
    if (late || late_local) {  // rank 0 should have ended the job by now
      const double silent = seconds(now - peers_[0].heard);
      const std::string step = late ? self.step : self.local_step;
      const std::string msg = "step '" + step + "' exceeded --timeout " + fmt_s(timeout_s_) + " s on " +
                              mpi_.describe_rank(mpi_.rank) + "; " +
                              (silent > kSilentAfter_s ? "did not arrive: " + mpi_.describe_rank(0) +
                                                             ": no heartbeat for " + fmt_s(silent) + " s"
                                                       : "rank 0 did not end the job");
      lock.unlock();
      abort_timeout(late ? 0 : mpi_.rank, step, msg);
    }
    lock.unlock();
    std::this_thread::sleep_for(kPoll);
  }
}

void ControlPlane::finish() {
  if (mpi_.is_root()) {
    {
      std::unique_lock lock(mu_);
      peers_[0].done = true;
      peers_[0].entered = ++seq_;
      peers_[0].step = "collect results";
      peers_[0].since = Clock::now();
      // A rank that never finishes is caught by the service thread's deadline check.
      all_done_.wait(lock, [this] {
        for (const auto& p : peers_)
          if (!p.done) return false;
        return true;
      });
      peers_[0].left = seq_;
    }
    stop_ = true;
    thread_.join();
    for (int r = 1; r < mpi_.size; ++r) send(r, "F");
  } else {
    stop_ = true;
    thread_.join();
    send(0, "D");
    for (char c = 0; c != 'F';) MPI_Recv(&c, 1, MPI_CHAR, 0, kTag, mpi_.control, MPI_STATUS_IGNORE);
  }
}

}  // namespace gpunet::bench
