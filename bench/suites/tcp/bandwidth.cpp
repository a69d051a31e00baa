#include "bench/suites/tcp/bandwidth.hpp"

#include <poll.h>

#include <algorithm>
#include <numeric>

#include "bench/suites/tcp/flows.hpp"

namespace gpunet::bench::tcp {

using detail::ReceiveFlow;
using detail::SendFlow;

BandwidthOutcome run_bandwidth(const net::Listener& listener, const auth::Key& key, const FlowPlan& plan,
                               const BandwidthParams& params) {
  auto now = Clock::now();
  Acceptor acceptor(listener.fd(), key, {plan.test_id, plan.self, StreamKind::bandwidth, params.connect_timeout_s});
  std::vector<SendFlow> senders;
  senders.reserve(plan.send_to.size());
  for (const auto& peer : plan.send_to) senders.emplace_back(peer, plan, key, params, now);
  std::vector<ReceiveFlow> receivers;
  receivers.reserve(plan.receive_from.size());
  for (const auto id : plan.receive_from) receivers.emplace_back(id, params, now);

  std::vector<char> out(static_cast<size_t>(std::max<int64_t>(1, params.msg_bytes)));
  std::iota(out.begin(), out.end(), 0);
  std::vector<char> in(out.size());
  std::vector<pollfd> fds;
  std::vector<size_t> at_send(senders.size()), at_recv(receivers.size());

  auto all_done = [&] {
    return std::all_of(senders.begin(), senders.end(), [](const SendFlow& f) { return f.done(); }) &&
           std::all_of(receivers.begin(), receivers.end(), [](const ReceiveFlow& f) { return f.done(); });
  };
  while (!all_done()) {
    fds.clear();
    for (size_t i = 0; i < senders.size(); ++i) {
      at_send[i] = fds.size();
      senders[i].add_pollfds(fds);
    }
    for (size_t i = 0; i < receivers.size(); ++i) {
      at_recv[i] = fds.size();
      receivers[i].add_pollfds(fds);
    }
    const size_t at_accept = acceptor.add_pollfds(fds);
    // Wake at least every 10 ms to end durations and check timeouts.
    ::poll(fds.data(), fds.size(), 10);
    now = Clock::now();
    const std::span<const pollfd> all(fds);
    for (size_t i = 0; i < senders.size(); ++i) {
      const size_t end = i + 1 < senders.size() ? at_send[i + 1] : (receivers.empty() ? at_accept : at_recv[0]);
      senders[i].handle(all.subspan(at_send[i], end - at_send[i]), now, out);
    }
    for (size_t i = 0; i < receivers.size(); ++i) {
      const size_t end = i + 1 < receivers.size() ? at_recv[i + 1] : at_accept;
      receivers[i].handle(all.subspan(at_recv[i], end - at_recv[i]), now, in);
    }
    for (auto& a : acceptor.handle(all.subspan(at_accept), now)) {
      auto it = std::find_if(receivers.begin(), receivers.end(),
                             [&](const ReceiveFlow& f) { return f.peer() == a.hello.sender; });
      const std::string from = a.peer.to_string();
      const std::string why = it == receivers.end()
                                  ? "sender " + std::to_string(a.hello.sender) + " is not expected in this test"
                                  : it->take(std::move(a), now);
      if (!why.empty()) acceptor.rejections().add(from + ": " + why);
    }
    if (acceptor.admitting() && std::all_of(receivers.begin(), receivers.end(), [](const ReceiveFlow& f) { return f.arrived(); }))
      acceptor.close_to_newcomers("closed at once: every stream this node receives had connected");
    acceptor.expire(now);
    for (auto& f : senders) f.check_timeouts(now);
    for (auto& f : receivers) f.check_timeouts(now);
  }

  BandwidthOutcome outcome;
  for (const auto& f : senders) outcome.sent.push_back(f.result());
  for (const auto& f : receivers) outcome.received.push_back(f.result());
  outcome.rejected = acceptor.rejections();
  return outcome;
}

}  // namespace gpunet::bench::tcp
