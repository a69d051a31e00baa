#include "report/analysis/direction.hpp"

#include <algorithm>
#include <cstdio>

#include "report/model/json_access.hpp"
#include "report/analysis/path_ceilings.hpp"
#include "report/model/stats.hpp"

namespace gpunet::report {

std::set<std::string> hosts_receiving_above_shaper(const std::vector<Record>& results, double tolerance) {
  std::set<std::string> out;
  for (const auto& r : results) {
    if (r.status != Status::passed || !r.figure || r.figure->path != PathModel::tcp_flow) continue;
    const auto& dst_link = link_facts(r, LinkEnd::destination);
    if (jsonx::number(dst_link, "shaped_rate_bps").value_or(0) <= 0) continue;  // no root tbf to take for both ways
    const auto host = extra_string(r, "dst_host").value_or(r.figure->subject.dst_host);
    if (host.empty()) continue;
    const Ceiling assumed = incoming_link_ceiling(dst_link, false);
    const Ceiling without = incoming_link_ceiling(dst_link, true);
    if (!assumed.known || (without.known && without.value <= assumed.value)) continue;  // no shaper bound it
    const int share = std::max(r.figure->receiving_share, 1);
    if (r.figure->value > tolerance * assumed.value / share) out.insert(host);
  }
  return out;
}

namespace {

std::string rate_text(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g Gb/s", gbps);
  return buf;
}

std::vector<double> rates_where(const std::vector<DirectedRate>& v, bool from, const std::string& host) {
  std::vector<double> out;
  for (const auto& d : v)
    if ((from ? d.src : d.dst) == host) out.push_back(d.Gbps);
  return out;
}

}  // namespace

std::string one_way_slowness(const std::string& host, const std::vector<DirectedRate>& slow,
                             const std::vector<DirectedRate>& all) {
  const auto slow_out = rates_where(slow, true, host), slow_in = rates_where(slow, false, host);
  if (slow_out.empty() == slow_in.empty()) return "";  // both ways, or neither
  const bool sending = !slow_out.empty();
  const auto& mine = sending ? slow_out : slow_in;
  const auto every = rates_where(all, sending, host);
  const auto other = rates_where(all, !sending, host);
  const char* way = sending ? "from" : "into";
  std::string s = std::string("slow ") + (sending ? "sending" : "receiving") + ": " + std::to_string(mine.size()) +
                  " of " + std::to_string(std::max(every.size(), mine.size())) + " flows " + way + " it at " +
                  rate_text(percentile(mine, 0.5));
  if (!other.empty()) s += std::string(", flows ") + (sending ? "into" : "from") + " it at " + rate_text(percentile(other, 0.5));
  return s;
}

NamedSlow::NamedSlow(const std::vector<Record>& results) {
  for (const auto& r : results) {
    if (r.name != "finding" || r.status != Status::failed) continue;
    const auto& f = jsonx::section(r.extra, "finding");
    const auto subject = jsonx::string(f, "subject").value_or("");
    if (subject == "pair") {
      pairs_.emplace(jsonx::string(f, "src_host").value_or(""), jsonx::string(f, "dst_host").value_or(""));
    } else if (subject == "host") {
      const auto host = jsonx::string(f, "host").value_or(r.host);
      const auto way = jsonx::string(f, "direction").value_or("both");
      if (way != "receiving") sending_.insert(host);
      if (way != "sending") receiving_.insert(host);
    }
  }
}

bool NamedSlow::operator()(const Subject& pair) const {
  if (pair.kind != SubjectKind::pair) return false;
  return sending_.count(pair.host) || receiving_.count(pair.dst_host) || pairs_.count({pair.host, pair.dst_host});
}

}  // namespace gpunet::report
