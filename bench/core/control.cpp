#include "bench/core/control.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "bench/core/control_wireup.hpp"

namespace gpunet::bench {

namespace {
constexpr auto kControlBeat = std::chrono::seconds(1);
constexpr double kControlSilentEndMin_s = 5.0;  // the least silence that ends the job (heartbeats are 1 s apart)
constexpr auto kControlFlushBound = std::chrono::seconds(5);

int control_poll_ms(std::chrono::steady_clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - std::chrono::steady_clock::now()).count() + 1;
  return static_cast<int>(std::clamp<long long>(ms, 0, 3'600'000));
}
}  // namespace

ControlPlane::ControlPlane(const MpiContext& mpi, double timeout_s, ResultsSink* sink, const std::string& control_if,
                           ConsoleWriter* console)
    : mpi_(mpi),
      console_(mpi.is_root() ? console : nullptr),
      timeout_s_(timeout_s),
      silent_end_s_(std::max(timeout_s, kControlSilentEndMin_s)),
      sink_(sink),
      links_(control::open_channel(mpi, control_if)),
      wake_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!wake_) throw std::runtime_error("the control plane: eventfd failed");
  const auto now = Clock::now();
  peers_.resize(mpi_.is_root() ? static_cast<size_t>(mpi_.size) : 2);
  for (auto& p : peers_) p.since = p.heard = now;
  thread_ = std::thread([this] {
    ::pthread_setname_np(::pthread_self(), "gpunet-control");  // tells it apart in top -H and profiles
    serve();
  });
}

ControlPlane::~ControlPlane() {
  if (!thread_.joinable()) return;
  for (auto& l : links_)
    if (l) l->send(control::frame::bye);  // an orderly close, not a dead rank
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  const uint64_t one = 1;
  (void)!::write(wake_.get(), &one, sizeof one);
  thread_.join();
}

void ControlPlane::moved(Clock::time_point deadline) {
  if (deadline >= planned_wake_) return;
  planned_wake_ = deadline;
  const uint64_t one = 1;
  (void)!::write(wake_.get(), &one, sizeof one);
}

void ControlPlane::send_to_root(char type, std::string_view payload) {
  auto& l = links_.front();
  l->send(type, payload);  // a failed link is seen by the service thread as a closed connection
  if (l->pending()) {
    std::lock_guard lock(mu_);
    moved(Clock::time_point::min());
  }
}

void ControlPlane::enter(const std::string& step, StepScope scope) {
  const bool local = scope == StepScope::this_rank;
  // No hours of measuring into nothing: a run whose records cannot be written stops here.
  if (mpi_.is_root() && sink_ && sink_->failed()) stop_for_unwritable_results(step);
  const long seq = local ? seq_ : ++seq_;
  {
    std::lock_guard lock(mu_);
    auto& me = self();
    const auto now = Clock::now();
    if (local) {
      me.in_local = true;
      me.local_step = step;
      me.local_since = now;
    } else {
      me.entered = seq;
      me.step = step;
      me.since = now;
    }
    moved(now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_)));
  }
  if (!mpi_.is_root()) send_to_root(local ? control::frame::enter_local : control::frame::enter,
                                    local ? step : std::to_string(seq) + "\t" + step);
}

void ControlPlane::leave(StepScope scope) {
  const bool local = scope == StepScope::this_rank;
  {
    std::lock_guard lock(mu_);
    if (local)
      self().in_local = false;
    else
      self().left = seq_;
  }
  if (!mpi_.is_root()) send_to_root(local ? control::frame::leave_local : control::frame::leave, local ? "" : std::to_string(seq_));
}

void ControlPlane::emit(const report::Record& r) {
  if (mpi_.is_root())
    sink_->append(r);
  else
    send_to_root(control::frame::record, gpunet::json(r).dump());
}

void ControlPlane::live(const std::string& text) {
  if (text.empty()) return;
  if (!mpi_.is_root()) return send_to_root(control::frame::live, control::live_payload(text));
  if (!console_) return;
  {
    std::lock_guard lock(live_mu_);
    live_queue_.push_back(control::live_payload(text));
  }
  std::lock_guard lock(mu_);
  moved(Clock::time_point::min());  // the service thread prints it now
}

void ControlPlane::print_live() {
  if (!console_) return;
  std::lock_guard printing(live_print_mu_);
  std::vector<std::string> lines;
  {
    std::lock_guard lock(live_mu_);
    lines.swap(live_queue_);
  }
  for (const auto& l : lines) console_->text(l);
}

void ControlPlane::handle(size_t link, const control::Frame& f) {
  namespace frame = control::frame;
  if (f.type == frame::quit) quiet_exit(f.payload == "died");  // another rank ended the job and told the story
  if (f.type == frame::record && mpi_.is_root()) {
    sink_->append(gpunet::json::parse(f.payload).get<report::Record>());
    return;
  }
  if (f.type == frame::live && console_) console_->text(control::live_payload(f.payload));
  std::lock_guard lock(mu_);
  auto& p = peers_[mpi_.is_root() ? link : 0];
  p.heard = Clock::now();
  switch (f.type) {
    case frame::enter: {
      const auto tab = f.payload.find('\t');
      p.entered = std::stol(f.payload.substr(0, tab));
      p.step = f.payload.substr(tab + 1);
      p.since = p.heard;
      break;
    }
    case frame::leave: p.left = std::stol(f.payload); break;
    case frame::enter_local:
      p.in_local = true;
      p.local_step = f.payload;
      p.local_since = p.heard;
      break;
    case frame::leave_local: p.in_local = false; break;
    case frame::done:
    case frame::finished:
      p.done = true;
      changed_.notify_all();
      break;
    case frame::bye:
      p.gone = true;
      changed_.notify_all();
      break;
    default: break;  // heartbeats
  }
}

void ControlPlane::serve() {
  auto next_beat = Clock::now() + kControlBeat;
  while (serve_once(next_beat)) {
  }
  const auto bound = Clock::now() + kControlFlushBound;  // what was said last (finished, bye) goes out
  for (auto& l : links_) {
    while (l && l->pending() && Clock::now() < bound) {
      pollfd p{l->fd(), POLLOUT, 0};
      ::poll(&p, 1, control_poll_ms(bound));
      l->flush();
    }
  }
}

// One round: sleep until something happens or is due, read everything that arrived, and only then
// judge (a rank that was itself stopped reads what others said meanwhile before it blames anyone).
bool ControlPlane::serve_once(Clock::time_point& next_beat) {
  std::vector<pollfd> fds{{wake_.get(), POLLIN, 0}};
  for (const auto& l : links_)
    fds.push_back({l ? l->fd() : -1, static_cast<short>(POLLIN | (l && l->pending() ? POLLOUT : 0)), 0});
  Clock::time_point wake_at;
  {
    std::lock_guard lock(mu_);
    if (stop_) return false;
    wake_at = planned_wake_ = std::min(next_beat, next_deadline());
  }
  ::poll(fds.data(), fds.size(), control_poll_ms(wake_at));
  uint64_t drained = 0;
  (void)!::read(wake_.get(), &drained, sizeof drained);
  std::vector<size_t> closed;
  for (size_t i = 0; i < links_.size(); ++i) {
    if (!links_[i] || !(fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    std::vector<control::Frame> frames;
    if (!links_[i]->read_available(frames)) closed.push_back(i);
    for (const auto& f : frames) handle(i, f);
  }
  for (size_t i : closed) lost(i);
  const auto now = Clock::now();
  if (now >= next_beat) {
    for (auto& l : links_)
      if (l) l->send(control::frame::heartbeat);
    next_beat = now + kControlBeat;
  }
  for (auto& l : links_)
    if (l) l->flush();
  if (console_) {
    print_live();
    console_->tick();
  }
  if (mpi_.is_root())
    check_root_deadlines(now);
  else
    check_member_deadlines(now);
  return true;
}

void ControlPlane::finish() {
  if (mpi_.is_root()) {
    std::unique_lock lock(mu_);
    peers_[0].done = true;
    peers_[0].entered = ++seq_;
    peers_[0].step = "collect results";
    peers_[0].since = Clock::now();
    moved(peers_[0].since + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s_)));
    // A rank that never finishes is caught by the service thread's deadline check.
    changed_.wait(lock, [this] { return std::all_of(peers_.begin(), peers_.end(), [](const Peer& p) { return p.done || p.gone; }); });
    peers_[0].left = seq_;
    lock.unlock();
    for (auto& l : links_)
      if (l) l->send(control::frame::finished);
  } else {
    send_to_root(control::frame::done);
    std::unique_lock lock(mu_);
    changed_.wait(lock, [this] { return peers_[0].done || peers_[0].gone; });
  }
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  const uint64_t one = 1;
  (void)!::write(wake_.get(), &one, sizeof one);
  thread_.join();
}

}  // namespace gpunet::bench
