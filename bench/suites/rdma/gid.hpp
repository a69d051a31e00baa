// GID table reading and the RoCE GID choice. The table comes from sysfs, as libibverbs reads it:
//   SYS/class/infiniband/<dev>/ports/<p>/gids/<idx>              "fe80:0000:...:0001"
//   SYS/class/infiniband/<dev>/ports/<p>/gid_attrs/types/<idx>   "IB/RoCE v1" or "RoCE v2"
//   SYS/class/infiniband/<dev>/ports/<p>/gid_attrs/ndevs/<idx>   the netdev (RoCE only)
// A GID with no readable type is an InfiniBand GID. Tests build such trees; the suite passes "/sys".
//
// Choice (report/CEILINGS.md §7.1): --gid-index wins when given. Otherwise every non-zero entry is scored:
// +100 when its address family is the wanted one (IPv4-mapped by default, IPv6 with --rdma-ipv6),
// +10 when it is not link-local, +2 for RoCE v2 (+1 for v1); the best score wins, lowest index on a tie.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpunet::bench::rdma {

using Gid = std::array<uint8_t, 16>;

enum class GidType { ib, roce_v1, roce_v2 };

struct GidEntry {
  int index = 0;
  Gid gid{};
  GidType type = GidType::ib;
  std::string ndev;  // RoCE: the network interface the GID belongs to; "" when none
};

struct GidPolicy {
  int forced_index = -1;     // --gid-index; -1 = choose
  bool prefer_ipv6 = false;  // --rdma-ipv6
};

struct GidChoice {
  bool ok = false;
  GidEntry entry;
  bool forced = false;
  std::string reason;  // what was chosen and why, or (when !ok) what is wrong
};

std::optional<Gid> parse_gid(const std::string& text);  // sysfs form, 8 groups of 4 hex digits
std::string format_gid(const Gid& g);                    // RFC 5952 text; "::ffff:10.0.0.1" when mapped
bool is_zero(const Gid& g);
bool is_ipv4_mapped(const Gid& g);
bool is_link_local(const Gid& g);  // fe80::/10
std::string to_string(GidType t);   // "IB", "RoCE v1", "RoCE v2"

// The non-zero entries of one port's table, by index. Empty when the port has no table.
std::vector<GidEntry> read_gid_table(const std::string& sys_root, const std::string& dev, int port);

int gid_score(const GidEntry& e, bool prefer_ipv6);
GidChoice choose_gid(const std::vector<GidEntry>& table, const GidPolicy& policy);

// "index 3: RoCE v2 ::ffff:192.168.1.5 on eth2"
std::string describe_gid(const GidEntry& e);

}  // namespace gpunet::bench::rdma
