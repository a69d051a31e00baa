#include "report/analysis/oversubscription.hpp"

#include <cmath>
#include <cstdio>

#include "report/model/json_access.hpp"

namespace gpunet::report {

namespace {

std::optional<double> direction_ratio(const UplinkDirection& d) {
  if (!(d.measured_Gbps > 0) || !(d.nodes_Gbps > 0) || !std::isfinite(d.measured_Gbps) || !std::isfinite(d.nodes_Gbps))
    return std::nullopt;
  return d.nodes_Gbps / d.measured_Gbps;
}

// Two significant figures at least, as the report's sentences write rates: 3.9, 0.39, 12.
std::string uplink_rate_text(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, gbps >= 10 ? "%.0f" : gbps >= 1 ? "%.1f" : "%.2g", gbps);
  return buf;
}

}  // namespace

std::optional<Oversubscription> oversubscription(const UplinkDirection& up, const UplinkDirection& down) {
  const auto r_up = direction_ratio(up);
  const auto r_down = direction_ratio(down);
  if (!r_up || !r_down) return std::nullopt;
  const bool worse_up = *r_up >= *r_down;
  const UplinkDirection& d = worse_up ? up : down;
  return Oversubscription{worse_up ? *r_up : *r_down, d.measured_Gbps, d.nodes_Gbps, worse_up};
}

std::string oversubscription_text(const std::string& leaf, const std::string& parent, const Oversubscription& o) {
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2f:1", o.ratio);
  return leaf + " ↔ " + parent + ": " + ratio + ", " + uplink_rate_text(o.measured_Gbps) + " of " +
         uplink_rate_text(o.nodes_Gbps) + " Gb/s";
}

std::vector<UplinkFigure> uplink_figures(const Report& rep) {
  std::vector<UplinkFigure> out;
  for (const auto& r : rep.results) {
    if (r.status != Status::passed || !r.figure || r.figure->metric != kOversubscriptionMetric) continue;
    UplinkFigure u;
    u.leaf = jsonx::string(r.extra, "leaf").value_or(r.figure->subject.host);
    u.parent = jsonx::string(r.extra, "parent").value_or(r.figure->subject.dst_host);
    u.o.ratio = r.figure->value;
    u.o.measured_Gbps = jsonx::number(r.extra, "measured_Gbps").value_or(0);
    u.o.nodes_Gbps = jsonx::number(r.extra, "nodes_sum_Gbps").value_or(0);
    u.o.up = extra_string(r, "direction").value_or("up") == "up";
    if (const auto* hosts = jsonx::array_at(r.extra, "hosts"))
      for (const auto& h : *hosts)
        if (h.is_string()) u.hosts.push_back(h.get<std::string>());
    u.link_speed = jsonx::number(r.extra, "link_speed");
    u.record = &r;
    out.push_back(std::move(u));
  }
  return out;
}

}  // namespace gpunet::report
