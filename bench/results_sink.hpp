// Rank 0's results file: every Record is appended to OUTPUT/results.jsonl as one JSON line and
// flushed at once, so nothing measured is lost if a later step dies. Thread-safe.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "report/record.hpp"

namespace gpunet::bench {

class ResultsSink {
 public:
  explicit ResultsSink(const std::string& path);  // truncates; throws std::runtime_error on failure
  ~ResultsSink();
  ResultsSink(const ResultsSink&) = delete;
  ResultsSink& operator=(const ResultsSink&) = delete;

  void append(const report::Record& r);
  std::vector<report::Record> records() const;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  mutable std::mutex mu_;
  std::vector<report::Record> records_;
};

}  // namespace gpunet::bench
