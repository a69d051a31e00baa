#include "bench/core/control_channel.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <system_error>
#include <thread>

namespace gpunet::bench::control {

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point deadline_after(double s) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

int poll_ms_until(Clock::time_point t) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t - Clock::now()).count() + 1;
  return static_cast<int>(std::clamp<long long>(ms, 0, 60'000));
}

// Reads what is there into reader; false on end of stream or error.
bool read_frames_into(int fd, FrameReader& reader) {
  char buf[16384];
  for (;;) {
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      reader.feed(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && net::would_block(errno)) return !reader.broken();
    return false;
  }
}

bool send_whole_now(int fd, const std::string& bytes) {
  return ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

struct PendingMember {
  net::Fd fd;
  auth::Nonce nonce{};
  FrameReader reader;
  Clock::time_point deadline;
};

std::string ranks_not_admitted(const std::vector<bool>& admitted) {
  std::string out;
  for (size_t r = 1; r < admitted.size(); ++r)
    if (!admitted[r]) out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out;
}

}  // namespace

Link::Link(net::Fd fd, FrameReader reader) : fd_(std::move(fd)), reader_(std::move(reader)) {}

bool Link::send(char type, std::string_view payload) {
  std::lock_guard lock(mu_);
  if (failed_) return false;
  out_ += encode_frame(type, payload);
  return flush_locked();
}

bool Link::flush() {
  std::lock_guard lock(mu_);
  return flush_locked();
}

bool Link::flush_locked() {
  while (!failed_ && !out_.empty()) {
    const ssize_t n = ::send(fd_.get(), out_.data(), out_.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      out_.erase(0, static_cast<size_t>(n));
    } else if (n < 0 && net::would_block(errno)) {
      break;
    } else {
      failed_ = true;
    }
  }
  return !failed_;
}

bool Link::pending() const {
  std::lock_guard lock(mu_);
  return !failed_ && !out_.empty();
}

bool Link::read_available(std::vector<Frame>& out) {
  const bool open = read_frames_into(fd_.get(), reader_);
  while (auto f = reader_.next()) out.push_back(std::move(*f));
  return open && !reader_.broken();
}

void Link::close() {
  std::lock_guard lock(mu_);
  failed_ = true;
  fd_.reset();
}

Admission judge_answer(const auth::Key& key, const auth::Nonce& nonce, std::string_view answer_payload, int size,
                       const std::vector<bool>& admitted) {
  const auto a = parse_answer(answer_payload);
  if (!a) return {-1, "a malformed answer"};
  if (a->rank < 1 || a->rank >= size) return {-1, "an answer for rank " + std::to_string(a->rank) + ", not in this run"};
  if (admitted[static_cast<size_t>(a->rank)]) return {-1, "a second connection for rank " + std::to_string(a->rank)};
  if (!auth::verify(key, nonce, answer_context(a->rank), a->tag)) return {-1, "a wrong answer to the challenge"};
  return {a->rank, ""};
}

size_t handshake_slots(int size) { return std::max<size_t>(256, static_cast<size_t>(std::max(size, 0))); }

Members accept_members(int listen_fd, const auth::Key& key, int size, double timeout_s, double hello_timeout_s,
                       size_t max_pending) {
  constexpr size_t kMaxAnswerBytes = 1024;  // an answer is 41 bytes; a stranger may not fill memory
  if (max_pending == 0) max_pending = handshake_slots(size);
  Members m;
  m.links.resize(static_cast<size_t>(size));
  std::vector<bool> admitted(static_cast<size_t>(size), false);
  std::vector<PendingMember> pending;
  int count = 0;
  const auto deadline = deadline_after(timeout_s);
  while (count < size - 1 && Clock::now() < deadline) {
    // With every slot taken, new connections wait in the listen queue (not dropped) until a handshake ends.
    const bool room = pending.size() < max_pending;
    std::vector<pollfd> fds{{room ? listen_fd : -1, POLLIN, 0}};
    auto wake = deadline;
    for (const auto& p : pending) {
      fds.push_back({p.fd.get(), POLLIN, 0});
      wake = std::min(wake, p.deadline);
    }
    ::poll(fds.data(), fds.size(), poll_ms_until(wake));
    for (size_t i = 0; i < pending.size(); ++i) {
      if (!(fds[i + 1].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      PendingMember& p = pending[i];
      const bool open = read_frames_into(p.fd.get(), p.reader);
      const auto f = p.reader.next();
      if (!f && open && p.reader.buffered() <= kMaxAnswerBytes) continue;
      const Admission a = f && f->type == frame::answer ? judge_answer(key, p.nonce, f->payload, size, admitted)
                                                        : Admission{-1, "no answer"};
      if (a.refused.empty() && send_whole_now(p.fd.get(), encode_frame(frame::welcome))) {
        admitted[static_cast<size_t>(a.rank)] = true;
        m.links[static_cast<size_t>(a.rank)] = std::make_unique<Link>(std::move(p.fd), std::move(p.reader));
        ++count;
      } else {
        ++m.rejected;
      }
      p.fd.reset();
    }
    const auto now = Clock::now();
    std::erase_if(pending, [&](const PendingMember& p) {
      if (p.fd && now < p.deadline) return false;
      if (p.fd) ++m.rejected;  // silent past the hello bound
      return true;
    });
    while (pending.size() < max_pending) {
      errno = 0;
      net::Fd fd = net::accept_one(listen_fd, nullptr);
      if (!fd && (errno == EMFILE || errno == ENFILE))
        throw std::runtime_error("the control channel: rank 0 ran out of file descriptors with " + std::to_string(count) + " of " +
                                 std::to_string(size - 1) + " ranks connected: raise the open-file limit (ulimit -n) before mpirun");
      if (!fd && errno == ECONNABORTED) continue;  // gone before it was accepted
      if (!fd) break;
      PendingMember p{std::move(fd), auth::random_nonce(), {}, deadline_after(hello_timeout_s)};
      if (!send_whole_now(p.fd.get(), encode_frame(frame::nonce, encode_nonce(p.nonce)))) {
        ++m.rejected;
        continue;
      }
      pending.push_back(std::move(p));
    }
  }
  if (count < size - 1)
    throw std::runtime_error("the control channel: rank(s) " + ranks_not_admitted(admitted) + " did not connect to rank 0 within " +
                             net::seconds_text(timeout_s) + " (" + std::to_string(m.rejected) +
                             " connections refused); name the interface to use with --control-if");
  return m;
}

bool connect_retryable(int err) {
  return err == ECONNREFUSED || err == ECONNRESET || err == ECONNABORTED || err == EPIPE || err == EAGAIN;
}

double connect_retry_delay_s(int attempt, int rank) {
  const double base = std::min(kConnectRetryFirst_s * std::pow(2.0, std::clamp(attempt, 0, 30)), kConnectRetryCap_s);
  return base * (0.75 + 0.5 * static_cast<double>((static_cast<unsigned>(rank) * 37u) % 64u) / 64.0);
}

namespace {

// One try: the link, or why it may be tried again (a refused or reset connection, one closed before
// the challenge); throws on anything that another try would not change.
struct ConnectTry {
  std::unique_ptr<Link> link;
  std::string retry;
};

ConnectTry try_connect(const net::Endpoint& hub, const auth::Key& key, int rank, Clock::time_point deadline,
                       const std::string& where, double timeout_s) {
  net::Fd fd;
  try {
    fd = net::start_connect(hub, net::IpAddress{}, {});
  } catch (const std::system_error& e) {
    if (connect_retryable(e.code().value())) return {nullptr, net::errno_text(e.code().value())};
    throw std::runtime_error(where + ": " + e.what());
  }
  pollfd p{fd.get(), POLLOUT, 0};
  if (::poll(&p, 1, poll_ms_until(deadline)) <= 0) throw std::runtime_error(where + ": no connection within " + net::seconds_text(timeout_s));
  if (const int err = net::connect_error(fd.get()); err != 0) {
    if (connect_retryable(err)) return {nullptr, net::errno_text(err)};
    throw std::runtime_error(where + ": " + net::errno_text(err));
  }
  FrameReader reader;
  bool answered = false;
  while (Clock::now() < deadline) {
    p = {fd.get(), POLLIN, 0};
    ::poll(&p, 1, poll_ms_until(deadline));
    const bool open = read_frames_into(fd.get(), reader);
    while (auto f = reader.next()) {
      if (!answered && f->type == frame::nonce) {
        const auto nonce = parse_nonce(f->payload);
        if (!nonce) throw std::runtime_error(where + ": a malformed challenge");
        const Answer a{rank, auth::respond(key, *nonce, answer_context(rank))};
        if (!send_whole_now(fd.get(), encode_frame(frame::answer, encode_answer(a)))) throw std::runtime_error(where + ": sending the answer failed");
        answered = true;
      } else if (answered && f->type == frame::welcome) {
        return {std::make_unique<Link>(std::move(fd), std::move(reader)), ""};
      } else {
        throw std::runtime_error(where + ": an unexpected reply");
      }
    }
    // Closed before the challenge: rank 0 had no room for it then. Closed after the answer: refused.
    if (!open && !answered) return {nullptr, "closed before the challenge"};
    if (!open) throw std::runtime_error(where + ": rank 0 closed the connection (refused)");
  }
  throw std::runtime_error(where + ": no welcome within " + net::seconds_text(timeout_s));
}

}  // namespace

std::unique_ptr<Link> connect_to_hub(const net::Endpoint& hub, const auth::Key& key, int rank, double timeout_s) {
  const auto start = Clock::now();
  const auto deadline = deadline_after(timeout_s);
  const auto retry_end = std::min(deadline, deadline_after(kConnectRetryWindow_s));
  const std::string where = "the control channel: rank " + std::to_string(rank) + " to rank 0 at " + hub.to_string();
  for (int attempt = 0;; ++attempt) {
    ConnectTry t = try_connect(hub, key, rank, deadline, where, timeout_s);
    if (t.link) return std::move(t.link);
    const auto next = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(connect_retry_delay_s(attempt, rank)));
    if (next >= retry_end) {
      const double spent = std::chrono::duration<double>(Clock::now() - start).count();
      throw std::runtime_error(where + ": " + t.retry + " (" + std::to_string(attempt + 1) + " tries in " + net::seconds_text(spent) +
                               "); is rank 0 still running, and does --control-if name an interface every rank reaches?");
    }
    std::this_thread::sleep_until(next);
  }
}

}  // namespace gpunet::bench::control
