#include "bench/suites/rdma/gid.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace gpunet::bench::rdma {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> read_line(const fs::path& p) {
  std::ifstream in(p);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  return line;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::optional<int> parse_index(const std::string& name) {
  if (name.empty() || name.size() > 6 || !std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
  return std::stoi(name);
}

}  // namespace

std::optional<Gid> parse_gid(const std::string& text) {
  if (text.size() != 39) return std::nullopt;
  Gid g{};
  for (size_t group = 0; group < 8; ++group) {
    const size_t at = group * 5;
    if (group < 7 && text[at + 4] != ':') return std::nullopt;
    for (size_t k = 0; k < 4; ++k)
      if (hex_value(text[at + k]) < 0) return std::nullopt;
    g[2 * group] = static_cast<uint8_t>(hex_value(text[at]) * 16 + hex_value(text[at + 1]));
    g[2 * group + 1] = static_cast<uint8_t>(hex_value(text[at + 2]) * 16 + hex_value(text[at + 3]));
  }
  return g;
}

std::string format_gid(const Gid& g) {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, g.data(), buf, sizeof buf);
  return buf;
}

bool is_zero(const Gid& g) {
  return std::all_of(g.begin(), g.end(), [](uint8_t b) { return b == 0; });
}

bool is_ipv4_mapped(const Gid& g) {
  return std::all_of(g.begin(), g.begin() + 10, [](uint8_t b) { return b == 0; }) && g[10] == 0xff && g[11] == 0xff;
}

bool is_link_local(const Gid& g) { return g[0] == 0xfe && (g[1] & 0xc0) == 0x80; }

std::string to_string(GidType t) {
  switch (t) {
    case GidType::roce_v1: return "RoCE v1";
    case GidType::roce_v2: return "RoCE v2";
    default: return "IB";
  }
}

std::vector<GidEntry> read_gid_table(const std::string& sys_root, const std::string& dev, int port) {
  const fs::path base = fs::path(sys_root) / "class/infiniband" / dev / "ports" / std::to_string(port);
  std::vector<GidEntry> out;
  std::error_code ec;
  for (const auto& file : fs::directory_iterator(base / "gids", ec)) {
    const auto index = parse_index(file.path().filename().string());
    if (!index) continue;
    const auto text = read_line(file.path());
    const auto gid = text ? parse_gid(*text) : std::nullopt;
    if (!gid || is_zero(*gid)) continue;
    GidEntry e;
    e.index = *index;
    e.gid = *gid;
    const auto type = read_line(base / "gid_attrs/types" / std::to_string(*index));
    if (type && type->find("v2") != std::string::npos) e.type = GidType::roce_v2;
    else if (type && type->find("RoCE") != std::string::npos) e.type = GidType::roce_v1;
    e.ndev = read_line(base / "gid_attrs/ndevs" / std::to_string(*index)).value_or("");
    out.push_back(e);
  }
  std::sort(out.begin(), out.end(), [](const GidEntry& a, const GidEntry& b) { return a.index < b.index; });
  return out;
}

int gid_score(const GidEntry& e, bool prefer_ipv6) {
  int score = 0;
  if (is_ipv4_mapped(e.gid) != prefer_ipv6) score += 100;
  if (!is_link_local(e.gid)) score += 10;
  if (e.type == GidType::roce_v2) score += 2;
  if (e.type == GidType::roce_v1) score += 1;
  return score;
}

std::string describe_gid(const GidEntry& e) {
  std::string s = "index " + std::to_string(e.index) + ": " + to_string(e.type) + " " + format_gid(e.gid);
  if (!e.ndev.empty()) s += " on " + e.ndev;
  return s;
}

GidChoice choose_gid(const std::vector<GidEntry>& table, const GidPolicy& policy) {
  GidChoice c;
  if (policy.forced_index >= 0) {
    c.forced = true;
    const auto it = std::find_if(table.begin(), table.end(), [&](const GidEntry& e) { return e.index == policy.forced_index; });
    if (it == table.end()) {
      c.reason = "--gid-index " + std::to_string(policy.forced_index) + ": no such non-empty GID on this port (valid: ";
      for (size_t i = 0; i < table.size(); ++i) c.reason += (i ? ", " : "") + std::to_string(table[i].index);
      c.reason += table.empty() ? "none)" : ")";
      return c;
    }
    c.ok = true;
    c.entry = *it;
    c.reason = describe_gid(*it) + " (forced by --gid-index)";
    return c;
  }
  if (table.empty()) {
    c.reason = "the port has no configured GID";
    return c;
  }
  const GidEntry* best = &table.front();
  for (const auto& e : table)
    if (gid_score(e, policy.prefer_ipv6) > gid_score(*best, policy.prefer_ipv6)) best = &e;
  c.ok = true;
  c.entry = *best;
  std::string why;
  why += policy.prefer_ipv6 ? (is_ipv4_mapped(best->gid) ? "no IPv6 GID; " : "IPv6, ")
                            : (is_ipv4_mapped(best->gid) ? "IPv4-mapped, " : "no IPv4-mapped GID; ");
  why += is_link_local(best->gid) ? "link-local, " : "not link-local, ";
  why += to_string(best->type);
  c.reason = describe_gid(*best) + " (chosen: " + why + ", of " + std::to_string(table.size()) + " GIDs)";
  return c;
}

}  // namespace gpunet::bench::rdma
