// The receiving end of a bandwidth flow: takes the flow's streams from the acceptor, acknowledges
// each, counts bytes into the timeline, and closes each stream at its end of data so the sender
// knows the receiver has everything.
#include <sys/socket.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>

#include "bench/suites/tcp/flows.hpp"
#include "bench/net/socket.hpp"

namespace gpunet::bench::tcp::detail {

using report::Status;

namespace {
constexpr double kReadBound_s = 0.01;  // a blocking read that finds nothing gives up after this
}  // namespace

ReceiveFlow::ReceiveFlow(uint32_t peer, const BandwidthParams& params, Clock::time_point now)
    : params_(params),
      streams_(static_cast<size_t>(std::clamp(params.streams, 1, 1024))),
      // A little longer than the sender's own connect timeout, so that the sender, who knows why,
      // is the one to report a connection that never came.
      arrival_deadline_(now + to_duration(params.connect_timeout_s + 1.0)),
      timeline_(params.interval_s) {
  result_.peer = peer;
}

std::string ReceiveFlow::take(Accepted&& a, Clock::time_point now) {
  if (finished_) return "stream from sender " + std::to_string(a.hello.sender) + " after its flow ended";
  if (a.hello.streams != streams_.size())
    return "sender " + std::to_string(a.hello.sender) + " announced " + std::to_string(a.hello.streams) +
           " streams, expected " + std::to_string(streams_.size());
  Stream& s = streams_[a.hello.stream];
  if (s.open || s.eof) return "duplicate stream " + std::to_string(a.hello.stream) + " from sender " + std::to_string(a.hello.sender);
  const auto ack = encode_ack();
  if (::send(a.fd.get(), ack.data(), ack.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(ack.size()))
    return "could not acknowledge " + a.peer.to_string();
  net::enable_rx_timestamps(a.fd.get());
  // Reads block (each only after poll said the stream is readable, so it returns at once): a
  // nonblocking recvmsg stops where the receive queue ends even when packets wait in the socket's
  // backlog, a blocking one takes them in and goes on copying. On loopback the nonblocking reader
  // cost the sending core 12 % more per byte (README, "CPU per byte"). The bound only guards
  // against a read that would wait after all.
  net::set_blocking_with_timeout(a.fd.get(), kReadBound_s);
  s.fd = std::move(a.fd);
  s.open = true;
  s.last_progress = now;
  return "";
}

bool ReceiveFlow::arrived() const {
  return finished_ || std::all_of(streams_.begin(), streams_.end(), [](const Stream& s) { return s.open || s.eof; });
}

void ReceiveFlow::add_pollfds(std::vector<pollfd>& fds) {
  polled_.clear();
  if (finished_) return;
  for (size_t i = 0; i < streams_.size(); ++i) {
    if (!streams_[i].open) continue;
    fds.push_back({streams_[i].fd.get(), POLLIN, 0});
    polled_.push_back(i);
  }
}

void ReceiveFlow::handle(std::span<const pollfd> fds, Clock::time_point now, std::span<char> buf) {
  // One read per readable stream and poll, as iperf3 does: a read blocks, so a second would wait.
  for (size_t k = 0; k < polled_.size() && k < fds.size() && !finished_; ++k)
    if (fds[k].revents) read_stream(polled_[k], now, buf);
  if (std::all_of(streams_.begin(), streams_.end(), [](const Stream& s) { return s.eof; })) {
    finished_ = true;
    result_.status = Status::passed;
    cpu_.close(now);
  }
}

void ReceiveFlow::read_stream(size_t index, Clock::time_point now, std::span<char> buf) {
  Stream& s = streams_[index];
  std::optional<double> stamp;
  const ssize_t n = net::recv_stamped(s.fd.get(), buf.data(), buf.size(), stamp);
  if (n < 0 && net::would_block(errno)) return;
  if (n < 0)
    return fail(Status::failed, "receiving: " + net::errno_text(errno) + " after " + std::to_string(result_.bytes) + " bytes");
  if (n == 0) {  // end of data: close, which tells the sender we have it all
    s.fd.reset();
    s.open = false;
    s.eof = true;
    return;
  }
  // When the data arrived, by the kernel's stamp: a reader that was not scheduled for a while
  // does not make the link look slow and then fast. Without a sane stamp, the read time.
  const double read_at = net::realtime_now_s();
  const double at = stamp && std::abs(*stamp - read_at) < 5.0 ? std::min(*stamp, read_at) : read_at;
  if (!first_s_) {
    cpu_.open(now);
    first_s_ = at;
    first_chunk_ = n;
  }
  last_s_ = last_s_ ? std::max(*last_s_, at) : at;
  s.last_progress = now;
  result_.bytes += n;
  result_.stream_bytes.resize(streams_.size(), 0);
  result_.stream_bytes[index] += n;
  timeline_.add(at - *first_s_, n);
}

void ReceiveFlow::check_timeouts(Clock::time_point now) {
  if (finished_) return;
  const auto arrived = std::count_if(streams_.begin(), streams_.end(), [](const Stream& s) { return s.open || s.eof; });
  if (arrived < static_cast<std::ptrdiff_t>(streams_.size()) && now > arrival_deadline_)
    return fail(Status::failed, std::to_string(arrived) + " of " + std::to_string(streams_.size()) +
                                    " streams from the sender arrived within " +
                                    net::seconds_text(params_.connect_timeout_s + 1.0));
  for (const auto& s : streams_)
    if (s.open && now - s.last_progress > to_duration(params_.io_timeout_s))
      return fail(Status::timed_out, "no data for " + net::seconds_text(params_.io_timeout_s) + " after " +
                                         std::to_string(result_.bytes) + " bytes");
}

void ReceiveFlow::fail(Status status, const std::string& why) {
  if (finished_) return;
  finished_ = true;
  result_.status = status;
  result_.reason = why;
  cpu_.close(Clock::now());
  for (auto& s : streams_) {
    abort_close(s.fd);
    s.open = false;
  }
}

ReceiveResult ReceiveFlow::result() const {
  ReceiveResult r = result_;
  r.stream_bytes.resize(streams_.size(), 0);
  r.cpu = cpu_.result();
  if (first_s_ && last_s_) {
    r.seconds = *last_s_ - *first_s_;
    if (r.seconds > 0) r.goodput_bps = static_cast<double>(r.bytes - first_chunk_) * 8.0 / r.seconds;
    r.timeline_Gbps = timeline_.gbps(r.seconds);
  }
  return r;
}

}  // namespace gpunet::bench::tcp::detail
