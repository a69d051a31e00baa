#include "bench/core/training_options.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench/core/sizes.hpp"

namespace gpunet::bench {

namespace {

// A finite, positive number, all of `text` consumed.
std::optional<double> positive_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

// A byte size option's check: given at all, it is a positive size ("" and overflow included are not).
std::string positive_size_problem(const std::string& v) {
  const auto bytes = parse_size(v);
  return bytes && *bytes > 0 ? std::string() : "bad size '" + v + "' (use e.g. 25M, 100G, 1T)";
}

// "a number from 0.125 to 64".
std::string range_text(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "a number from %g to %g", lo, hi);
  return buf;
}

}  // namespace

void add_training_options(CLI::App& app, TrainingOptionText& t) {
  const std::string group = "Training impact (report section)";
  app.add_option("--model-params", t.model_params,
                 "Parameters of your model, e.g. 7e9; shown beside the 1.3B/7B/13B/70B presets")
      ->type_name("N")->group(group);
  app.add_option("--grad-bytes", t.grad_bytes, "Bytes per gradient value (2 = bf16, 4 = fp32)")
      ->type_name("B")->default_str("2")->group(group);
  app.add_option("--bucket-size", t.bucket_size, "Gradient all-reduce bucket (PyTorch DDP's default: 25M)")
      ->type_name("SIZE")->default_str("25M")->check(positive_size_problem)->group(group);
  app.add_option("--step-compute-s", t.step_compute_s,
                 "Compute time of one training step without communication, measured on one node, seconds "
                 "(without it the report assumes 0.5 and says so)")
      ->type_name("S")->group(group);
  app.add_option("--sharding", t.sharding,
                 "none (DDP: all-reduce the gradients) or full (ZeRO-3 / FSDP: all-gather the parameters twice, "
                 "reduce-scatter the gradients)")
      ->type_name("MODE")->default_str("none")->group(group);
  app.add_option("--dataset-size", t.dataset_size, "Dataset or checkpoint to move over each network")
      ->type_name("SIZE")->default_str("1e12 B")->check(positive_size_problem)->group(group);
  app.add_option("--latency-threshold-us", t.latency_threshold_us,
                 "p99 round trip per pair an interactive workload accepts, microseconds")
      ->type_name("US")->default_str("100")->group(group);
  app.add_option("--alpha-us", t.alpha_us,
                 "Per-message latency (alpha) for the link-speed estimates, microseconds (default: the tcp latency "
                 "test's p50 on the data network, else the fit, at most 100)")
      ->type_name("US")->group(group);
}

std::optional<std::string> finish_training_options(const TrainingOptionText& t, report::training::TrainingParams& out) {
  for (const auto* text : {&t.model_params, &t.grad_bytes, &t.bucket_size, &t.step_compute_s, &t.sharding, &t.dataset_size,
                           &t.latency_threshold_us, &t.alpha_us})
    out.given = out.given || !text->empty();
  // Each number within a range that keeps every figure of the training section finite (--grad-bytes
  // 1e300 printed "inf GB of gradients").
  auto number = [](const std::string& name, const std::string& text, double lo, double hi,
                   auto&& set) -> std::optional<std::string> {
    if (text.empty()) return std::nullopt;
    const auto v = positive_number(text);
    if (!v) return name + ": '" + text + "' is not a finite positive number";
    if (*v < lo || *v > hi) return name + ": '" + text + "' is out of range (give " + range_text(lo, hi) + ")";
    set(*v);
    return std::nullopt;
  };
  auto size = [](const std::string& name, const std::string& text, auto&& set) -> std::optional<std::string> {
    if (text.empty()) return std::nullopt;
    const auto v = parse_size(text);
    if (!v || *v <= 0) return name + ": bad size '" + text + "' (use e.g. 25M, 100G, 1T)";
    set(static_cast<double>(*v));
    return std::nullopt;
  };
  if (auto e = number("--model-params", t.model_params, 1, 1e15, [&](double v) { out.model_params = v; })) return e;
  if (auto e = number("--grad-bytes", t.grad_bytes, 0.125, 64, [&](double v) { out.grad_bytes_per_param = v; })) return e;
  if (auto e = size("--bucket-size", t.bucket_size, [&](double v) { out.bucket_bytes = v; })) return e;
  if (auto e = number("--step-compute-s", t.step_compute_s, 1e-6, 1e6, [&](double v) { out.step_compute_s = v; })) return e;
  if (!t.sharding.empty()) {
    const auto s = report::training::sharding_from_string(t.sharding);
    if (!s) return "--sharding: '" + t.sharding + "' is not none or full";
    out.sharding = *s;
  }
  if (auto e = size("--dataset-size", t.dataset_size, [&](double v) { out.dataset_bytes = v; })) return e;
  if (auto e = number("--latency-threshold-us", t.latency_threshold_us, 1e-3, 1e9, [&](double v) { out.latency_threshold_us = v; }))
    return e;
  if (auto e = number("--alpha-us", t.alpha_us, 1e-3, 1e9, [&](double v) { out.alpha_us = v; })) return e;
  return std::nullopt;
}

}  // namespace gpunet::bench
