// The tcp suite's command-line options (CLI11), kept beside the suite; the parser calls add_options()
// while building it and finish_options() after parsing (through the suite's entry, tcp_suite()).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "bench/core/config.hpp"
#include "bench/core/suite.hpp"

namespace gpunet::bench::tcp {

void add_options(CLI::App& app, Config& c, OptionText& text);

// Applies and checks what the parser could not; returns the one-line error ("" when fine).
std::string finish_options(Config& c, const OptionText& text, const CLI::App& app);

// "10G", "25Gbit", "2.5Gb/s", "100M", "1000000000" (bit/s, SI): bit/s; empty when malformed, <= 0,
// or in bytes ("10GB").
std::optional<double> parse_rate(const std::string& text);

// The matrix's pair strategy as --tcp-pairs takes it: "all", "ring" or "random:3".
std::string pairs_text(const TcpConfig& t);

}  // namespace gpunet::bench::tcp
