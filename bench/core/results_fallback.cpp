#include "bench/core/results_fallback.hpp"

#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <system_error>

#include "report/model/file_write.hpp"

namespace gpunet::bench {

std::vector<std::string> fallback_places(const char* tmpdir, long pid) {
  const std::string tmp = tmpdir && *tmpdir ? tmpdir : "/tmp";
  const std::string id = "gpunet-bench-" + std::to_string(pid);
  return {tmp + "/" + id + "/results.jsonl", "./" + id + "-results.jsonl"};
}

std::string write_fallback(report::Provenance provenance, const std::vector<report::Record>& records,
                           const std::vector<std::string>& places, std::ostream& console) {
  provenance.end_time = report::utc_now_iso8601();
  std::string text = gpunet::json{{"provenance", provenance}}.dump() + "\n";
  for (const auto& r : records) text += gpunet::json(r).dump() + "\n";
  for (const auto& path : places) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    try {
      report::write_file_replacing(path, text);  // whole or not at all
      return path;
    } catch (const std::exception&) {
      continue;  // the next place
    }
  }
  console << text << std::flush;
  return "the console (stdout) as JSON lines";
}

std::string fallback_line(size_t count, const std::string& where) {
  const bool file = where.rfind("the console", 0) != 0;
  return "all " + std::to_string(count) + " records measured are in " + where +
         (file ? " (render them with: gpunet-bench report " + where + " -o DIR)" : "");
}

}  // namespace gpunet::bench
