// A CLI11 option that takes a byte size with a K/M/G suffix (bench/core/sizes.hpp); a bad size is a usage
// error that names the option.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "bench/core/sizes.hpp"

namespace gpunet::bench {

inline CLI::Option* add_size_option(CLI::App& app, const std::string& names, int64_t& target, const std::string& help) {
  return app
      .add_option_function<std::string>(
          names,
          [&target, names](const std::string& v) {
            const auto bytes = parse_size(v);
            if (!bytes) throw CLI::ValidationError(names, "bad size '" + v + "' (use e.g. 8, 64K, 1M, 2G)");
            target = *bytes;
          },
          help)
      ->type_name("SIZE");
}

}  // namespace gpunet::bench
