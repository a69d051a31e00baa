// A bounded polling wait, for GPU work that must not hang the run: poll until the work is done or
// has failed, or the time is up. Pure control flow (the poll function does the CUDA/NCCL queries),
// so it is tested without a GPU.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace gpunet::bench::gpu {

enum class Poll { pending, done, failed };

struct WaitOutcome {
  enum class Kind { done, failed, timed_out };
  Kind kind = Kind::done;
  std::string error;    // from the poll function, when failed
  double waited_s = 0;
};

// Calls poll(error) until it returns done or failed, or timeout_s has passed (then one last poll
// decides). For the first `spin` it only yields between polls, then sleeps `interval`: work that
// usually ends in microseconds (an NCCL group enqueued by its async thread) is seen at once instead
// of a sleep later, while a long wait still leaves the core to others.
WaitOutcome wait_until(const std::function<Poll(std::string& error)>& poll, double timeout_s,
                       std::chrono::microseconds interval = std::chrono::microseconds(50),
                       std::chrono::microseconds spin = std::chrono::microseconds(0));

// The deadline the GPU wait loops use for a step bounded by --timeout: a little before the watchdog
// acts, so a rank can abort its communicator and say what it was waiting for before the job ends.
double gpu_wait_timeout_s(double step_timeout_s);

}  // namespace gpunet::bench::gpu
