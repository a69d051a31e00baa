#include "bench/results_sink.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gpunet::bench {

ResultsSink::ResultsSink(const std::string& path) : path_(path) {
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

ResultsSink::~ResultsSink() {
  if (file_) std::fclose(file_);
}

void ResultsSink::append(const report::Record& r) {
  const std::string line = nlohmann::json(r).dump() + "\n";
  std::lock_guard lock(mu_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
  fsync(fileno(file_));
  records_.push_back(r);
}

std::vector<report::Record> ResultsSink::records() const {
  std::lock_guard lock(mu_);
  return records_;
}

}  // namespace gpunet::bench
