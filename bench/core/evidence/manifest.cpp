#include "bench/core/evidence/manifest.hpp"

#include <set>

namespace gpunet::evidence {

namespace {

bool is_sha256_hex(std::string_view s) {
  if (s.size() != 64) return false;
  for (const char ch : s)
    if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) return false;
  return true;
}

}  // namespace

std::string manifest_text(const std::vector<ManifestEntry>& entries) {
  std::string out;
  for (const auto& e : entries) out += e.sha256 + "  " + e.path + "\n";
  return out;
}

ManifestParsed parse_manifest(std::string_view text) {
  ManifestParsed parsed;
  std::set<std::string, std::less<>> seen;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_no;
    const std::string where = "line " + std::to_string(line_no);
    if (line.size() < 67 || !is_sha256_hex(line.substr(0, 64)) || line[64] != ' ' || (line[65] != ' ' && line[65] != '*')) {
      parsed.error = where + " is not \"SHA256  PATH\"";
      return parsed;
    }
    ManifestEntry e{std::string(line.substr(0, 64)), std::string(line.substr(66))};
    if (const auto why = unsafe_path_reason(e.path); !why.empty()) {
      parsed.error = where + ": " + why;
      return parsed;
    }
    if (!seen.insert(e.path).second) {
      parsed.error = where + ": " + e.path + " is listed twice";
      return parsed;
    }
    parsed.entries.push_back(std::move(e));
  }
  if (parsed.entries.empty()) parsed.error = "no file is listed";
  return parsed;
}

bool is_plain_file_name(std::string_view name) {
  if (name.empty() || name.front() == '.') return false;
  for (const char ch : name) {
    const bool alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (!alnum && ch != '.' && ch != '_' && ch != '-' && ch != '+' && ch != '@') return false;
  }
  return true;
}

std::string unsafe_path_reason(std::string_view path) {
  if (path.empty()) return "an empty path";
  if (path.front() == '/') return "an absolute path";
  if (path.find('\\') != std::string_view::npos) return "a backslash in the path";
  for (const char ch : path)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) return "a control character in the path";
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = path.find('/', start);
    const std::string_view part = path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (part == "..") return "a .. component";
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return "";
}

}  // namespace gpunet::evidence
