#include "bench/suites/tcp/acceptor.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <exception>

namespace gpunet::bench::tcp {

namespace {

// A connection that has sent nothing for this long is the first to give way to a newcomer.
constexpr auto kSilentGrace = std::chrono::milliseconds(200);

std::string plural(int64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

void Rejections::add(const std::string& why) {
  ++count;
  if (first.size() < kKept) first.push_back(why);
}

void Rejections::add_stranger(const std::string& why) {
  ++unauthenticated;
  add(why);
}

std::string Rejections::summary() const {
  std::string out;
  if (unauthenticated > 0) out = plural(unauthenticated, "unauthenticated connection", "unauthenticated connections") + " rejected";
  if (const int64_t peers = count - unauthenticated; peers > 0)
    out += (out.empty() ? "" : ", ") + plural(peers, "authenticated peer stream", "authenticated peer streams") + " refused";
  return out;
}

Acceptor::Acceptor(int listen_fd, const auth::Key& key, const Admission& admission)
    : listen_fd_(listen_fd),
      key_(key),
      admission_(admission),
      timeout_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(admission.timeout_s))) {}

size_t Acceptor::add_pollfds(std::vector<pollfd>& fds) const {
  const size_t start = fds.size();
  fds.push_back({listen_fd_, POLLIN, 0});
  for (const auto& p : pending_) fds.push_back({p.fd.get(), POLLIN, 0});  // none once closed to newcomers
  return start;
}

std::vector<Accepted> Acceptor::handle(std::span<const pollfd> mine, Clock::time_point now) {
  std::vector<Accepted> out;
  // Pending connections first (their slots follow the listener's, in pending_ order).
  std::vector<Pending> keep;
  keep.reserve(pending_.size());
  for (size_t i = 0; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    const short ev = i + 1 < mine.size() ? mine[i + 1].revents : 0;
    const Step step = ev != 0 ? advance(p) : Step::waiting;
    if (step == Step::waiting) keep.push_back(std::move(p));
    if (step == Step::authenticated) out.push_back({std::move(p.fd), *p.hello, p.peer});
  }
  pending_ = std::move(keep);
  if (!mine.empty() && (mine[0].revents & POLLIN)) accept_some(now);
  return out;
}

Acceptor::Step Acceptor::advance(Pending& p) {
  const size_t want = p.hello ? kResponseBytes : kHelloBytes;
  uint8_t buf[std::max(kHelloBytes, kResponseBytes)];
  const ssize_t n = ::recv(p.fd.get(), buf, want - p.got.size(), 0);
  if (n < 0 && net::would_block(errno)) return Step::waiting;
  if (n <= 0) {
    rejected_.add_stranger(p.peer.to_string() +
                           (p.hello ? ": closed before answering the challenge" : ": closed before a complete hello"));
    return Step::rejected;
  }
  p.got.insert(p.got.end(), buf, buf + n);
  return p.hello ? take_response(p) : take_hello(p);
}

Acceptor::Step Acceptor::take_hello(Pending& p) {
  const std::string who = p.peer.to_string() + ": ";
  if (!hello_prefix_ok(p.got)) {
    rejected_.add_stranger(who + "not a gpunet-bench hello");
    return Step::rejected;
  }
  if (p.got.size() < kHelloBytes) return Step::waiting;
  const auto hello = decode_hello(p.got);
  if (!hello) {
    rejected_.add_stranger(who + "malformed hello");
    return Step::rejected;
  }
  if (const auto why = hello_mismatch(*hello, admission_.test_id, admission_.kind); !why.empty()) {
    rejected_.add_stranger(who + why);
    return Step::rejected;
  }
  try {
    p.nonce = auth::random_nonce();
  } catch (const std::exception& e) {
    rejected_.add(who + e.what());
    return Step::rejected;
  }
  const auto challenge = encode_challenge(p.nonce);
  if (::send(p.fd.get(), challenge.data(), challenge.size(), MSG_NOSIGNAL | MSG_DONTWAIT) !=
      static_cast<ssize_t>(challenge.size())) {
    rejected_.add_stranger(who + "could not send the challenge");
    return Step::rejected;
  }
  p.hello = *hello;
  p.got.clear();
  return Step::waiting;
}

Acceptor::Step Acceptor::take_response(Pending& p) {
  if (p.got.size() < kResponseBytes) return Step::waiting;
  if (!response_ok(key_, p.nonce, *p.hello, admission_.receiver, p.got)) {
    rejected_.add_stranger(p.peer.to_string() + ": wrong answer to the challenge (its hello claimed sender " +
                           std::to_string(p.hello->sender) + ", stream " + std::to_string(p.hello->stream) + ")");
    return Step::rejected;
  }
  return Step::authenticated;
}

void Acceptor::accept_some(Clock::time_point now) {
  for (int k = 0; k < kAcceptBatch; ++k) {
    net::Endpoint peer;
    net::Fd fd = net::accept_one(listen_fd_, &peer);
    if (!fd) break;
    if (!admitting_) {
      rejected_.add_stranger(peer.to_string() + ": " + closed_why_);
      continue;  // fd closes here
    }
    if (pending_.size() >= kMaxPending) make_room(now);
    pending_.push_back({std::move(fd), peer, {}, now, now + timeout_, std::nullopt, {}});
  }
}

void Acceptor::make_room(Clock::time_point now) {
  // The oldest connection that has said nothing for a while, else the oldest of all: a peer sends
  // its hello at once and answers the challenge within a round trip, so it is rarely either.
  auto victim = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& p) {
    return p.got.empty() && !p.hello && now - p.accepted >= kSilentGrace;
  });
  if (victim == pending_.end()) victim = pending_.begin();
  rejected_.add_stranger(victim->peer.to_string() + ": dropped before authenticating, to make room (" +
                         std::to_string(kMaxPending) + " connections were in their handshake)");
  pending_.erase(victim);
}

void Acceptor::close_to_newcomers(const std::string& why) {
  if (!admitting_) return;
  admitting_ = false;
  closed_why_ = why;
  for (const auto& p : pending_) rejected_.add_stranger(p.peer.to_string() + ": " + why);
  pending_.clear();
}

void Acceptor::expire(Clock::time_point now) {
  std::erase_if(pending_, [&](const Pending& p) {
    if (p.deadline > now) return false;
    rejected_.add_stranger(p.peer.to_string() + (p.hello ? ": no answer to the challenge within the timeout"
                                                         : ": no complete hello within the timeout"));
    return true;
  });
}

}  // namespace gpunet::bench::tcp
