#include "topology/sysfs_util.hpp"

#include <algorithm>
#include <fstream>

#include "common/small_file.hpp"
#include "topology/model.hpp"

namespace gpunet::topo::fsutil {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const fs::path& p) { return read_small_file(p); }

std::optional<std::string> read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.pop_back();
  return line;
}

std::optional<long long> read_int(const fs::path& p) {
  const auto line = read_line(p);
  if (!line || line->empty()) return std::nullopt;
  try {
    size_t used = 0;
    const long long v = std::stoll(*line, &used, 0);
    if (used != line->size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string link_basename(const fs::path& p) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(p, ec);
  if (ec) return "";
  return target.filename().string();
}

std::optional<std::string> pci_function_of(const fs::path& device_link) {
  std::error_code ec;
  fs::path real = fs::canonical(device_link, ec);
  if (ec) return std::nullopt;
  for (; !real.empty() && real != real.root_path(); real = real.parent_path())
    if (auto id = parse_bus_id(real.filename().string())) return id;
  return std::nullopt;
}

std::vector<std::string> list_dir(const fs::path& p) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace gpunet::topo::fsutil
