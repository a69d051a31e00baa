#include "report/analysis/link_sentences.hpp"

#include <cstdio>

#include "report/text/text_format.hpp"

namespace gpunet::report {

namespace {

constexpr std::size_t kPairsNamed = 3;  // the slow pairs no link explains, named at most

std::string locate_gbps(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g Gb/s", v);
  return buf;
}

std::string pairs_at(const LinkCulprit& c, const LinkLocation& loc) {
  return locate_gbps(c.gbps) + " (" + format_fixed(c.fraction, 2) + (loc.against_ceiling ? " of their ceiling)" : " of the best pair)");
}

// How sure: how fast the pairs that no named link carries are, and how many slow pairs no link explains.
std::string others_fine(const LinkLocation& loc) {
  std::string out;
  if (loc.fine > 0)
    out = "; the " + std::to_string(loc.fine) + " pairs through no named link at " + format_fixed(loc.fine_worst, 2) + " or better";
  if (const auto n = loc.unexplained.size(); n > 0) {
    out += "; " + std::to_string(n) + (n == 1 ? " slow pair" : " slow pairs") + " that no link explains (";
    for (std::size_t i = 0; i < n && i < kPairsNamed; ++i)
      out += (i ? ", " : "") + loc.unexplained[i].first + " → " + loc.unexplained[i].second;
    out += (n > kPairsNamed ? " and " + std::to_string(n - kPairsNamed) + " more)" : ")");
  }
  return out;
}

std::string leaves_of(const LinkCulprit& c) {
  std::string out;
  for (const auto& l : c.links)
    if (l.kind == LinkKind::uplink && out.find(l.name) == std::string::npos) out += (out.empty() ? "" : " and ") + l.name;
  return out;
}

}  // namespace

std::string fabric_culprit_sentence(const LinkCulprit& c, const LinkLocation& loc) {
  const std::string names = link_names(c);
  const auto n = std::to_string(c.pairs.size());
  if (c.links[0].kind == LinkKind::spine)
    return names + ": " + n + " of " + n + " pairs between its leaves at " + pairs_at(c, loc) + ", pairs within its leaves at " +
           locate_gbps(c.within_gbps) + others_fine(loc) + ": suspect the spine, not the uplinks or the nodes";
  const bool one = c.links.size() == 1;
  std::string out = names + ": " + n + " of " + n + " pairs crossing " + (one ? "it" : "them") + " at " + pairs_at(c, loc) +
                    ", pairs within " + leaves_of(c) + " at " + locate_gbps(c.within_gbps) + others_fine(loc) + ": suspect " +
                    (one ? "the uplink" : "an uplink") + ", not the nodes";
  if (!one)
    out += " (each of these pairs crosses all of these links and the switch above them, so the pair figures cannot tell "
           "which; a third rack or a test of each uplink can)";
  return out;
}

std::string nic_culprit_sentence(const LinkCulprit& c, const LinkLocation& loc) {
  const auto way = c.links[0].way;
  const auto n = std::to_string(c.pairs.size());
  return std::string("its NIC") + (way == UplinkWay::up ? " sending" : way == UplinkWay::down ? " receiving" : "") + ": " + n +
         " of " + n + " pairs " + (way == UplinkWay::up ? "from" : way == UplinkWay::down ? "to" : "to and from") + " it at " +
         pairs_at(c, loc) + others_fine(loc) + ": the node, not the fabric";
}

}  // namespace gpunet::report
