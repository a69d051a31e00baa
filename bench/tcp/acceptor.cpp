#include "bench/tcp/acceptor.hpp"

#include <sys/socket.h>

#include <cerrno>

namespace gpunet::bench::tcp {

void Rejections::add(const std::string& why) {
  ++count;
  if (first.size() < kKept) first.push_back(why);
}

Acceptor::Acceptor(int listen_fd, const Secret& secret, uint64_t test_id, StreamKind kind, double hello_timeout_s)
    : listen_fd_(listen_fd),
      secret_(secret),
      test_id_(test_id),
      kind_(kind),
      hello_timeout_(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(hello_timeout_s))) {}

size_t Acceptor::add_pollfds(std::vector<pollfd>& fds) const {
  const size_t start = fds.size();
  fds.push_back({listen_fd_, POLLIN, 0});
  for (const auto& p : pending_) fds.push_back({p.fd.get(), POLLIN, 0});
  return start;
}

std::vector<Accepted> Acceptor::handle(std::span<const pollfd> mine, Clock::time_point now) {
  std::vector<Accepted> out;
  // Pending connections first (their slots follow the listener's, in pending_ order).
  std::vector<Pending> keep;
  for (size_t i = 0; i < pending_.size(); ++i) {
    Pending& p = pending_[i];
    const short ev = i + 1 < mine.size() ? mine[i + 1].revents : 0;
    if (ev == 0) {
      keep.push_back(std::move(p));
      continue;
    }
    uint8_t buf[kHelloBytes];
    const ssize_t n = ::recv(p.fd.get(), buf, kHelloBytes - p.got.size(), 0);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      keep.push_back(std::move(p));
      continue;
    }
    if (n <= 0) {
      rejected_.add(p.peer.to_string() + ": closed before a complete hello");
      continue;
    }
    p.got.insert(p.got.end(), buf, buf + n);
    if (!hello_prefix_ok(p.got)) {
      rejected_.add(p.peer.to_string() + ": not a gpunet-bench hello");
      continue;
    }
    if (p.got.size() < kHelloBytes) {
      keep.push_back(std::move(p));
      continue;
    }
    const auto hello = decode_hello(p.got);
    if (!hello) {
      rejected_.add(p.peer.to_string() + ": malformed hello");
      continue;
    }
    if (const auto why = hello_mismatch(*hello, secret_, test_id_, kind_); !why.empty()) {
      rejected_.add(p.peer.to_string() + ": " + why);
      continue;
    }
    out.push_back({std::move(p.fd), *hello, p.peer});
  }
  pending_ = std::move(keep);

  if (!mine.empty() && (mine[0].revents & POLLIN)) {
    for (int k = 0; k < 16; ++k) {  // a bounded batch: a flood of connects can't starve the measurement
      Endpoint peer;
      Fd fd = accept_one(listen_fd_, &peer);
      if (!fd) break;
      if (pending_.size() >= kMaxPending) {
        rejected_.add(peer.to_string() + ": too many connections waiting for a hello");
        continue;
      }
      pending_.push_back({std::move(fd), peer, {}, now + hello_timeout_});
    }
  }
  return out;
}

void Acceptor::expire(Clock::time_point now) {
  std::erase_if(pending_, [&](const Pending& p) {
    if (p.deadline > now) return false;
    rejected_.add(p.peer.to_string() + ": no complete hello within the timeout");
    return true;
  });
}

}  // namespace gpunet::bench::tcp
