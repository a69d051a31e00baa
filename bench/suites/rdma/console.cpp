#include "bench/suites/rdma/console.hpp"

#include <cstdio>

#include "bench/core/sizes.hpp"
#include "report/render/console.hpp"

namespace gpunet::bench::rdma {

namespace {

using gpunet::json;

std::string str(const json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; }

double num(const json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0; }

// "mlx5_0:1 GID 3 (RoCE v2 ::ffff:10.0.0.1)" or "mlx5_0:1 LID 7"
std::string side(const json& s) {
  std::string out = str(s, "device") + ":" + std::to_string(s.value("port", 0));
  if (s.value("gid_index", -1) >= 0) out += " GID " + std::to_string(s.value("gid_index", -1)) + " (" + str(s, "gid_type") + " " + str(s, "gid") + ")";
  else out += " " + str(s, "gid_choice");
  return out;
}

std::string head(const report::Record& r) {
  std::string h = "# rdma " + r.name + " " + r.variant;
  if (r.name == "write_bw" || r.name == "write_bw_bidir" || r.name == "write_lat") h += " " + format_size(r.bytes);
  return h + ": ";
}

std::string devices_line(const report::Record& r) {
  std::string out = "# rdma devices on " + r.host + ":";
  for (const auto& d : r.extra.value("devices", json::array())) {
    for (const auto& p : d.value("ports", json::array())) {
      char buf[160];
      std::snprintf(buf, sizeof buf, " %s:%d %s %s %s %s %g Gb/s MTU %d;", str(d, "name").c_str(), p.value("port", 0),
                    str(p, "state").c_str(), str(p, "link_layer").c_str(), str(p, "width").c_str(), str(p, "speed").c_str(),
                    num(p, "rate_Gbps"), p.value("active_mtu", 0));
      out += buf;
    }
  }
  if (!out.empty() && out.back() == ';') out.pop_back();
  return out + " (using " + str(r.extra.value("selection", json::object()), "device") + ")\n";
}

}  // namespace

std::string console_line(const report::Record& r) {
  if (r.status != report::Status::passed) return report::console_note(r);
  if (r.name == "devices") return devices_line(r);
  if (r.name == "connect" || r.name == "gpudirect") {
    const json sides = r.extra.value("sides", json::array());
    std::string line = head(r) + (sides.size() == 2 ? side(sides[0]) + " <-> " + side(sides[1]) : "connected");
    if (r.extra.contains("qp")) line += ", path MTU " + std::to_string(r.extra["qp"].value("path_mtu", 0));
    if (r.extra.contains("registration")) line += "; memory registration: " + r.extra["registration"][0].get<std::string>() + " / " + r.extra["registration"][1].get<std::string>();
    return line + "\n";
  }
  char buf[320];
  if (r.name == "write_lat") {
    std::snprintf(buf, sizeof buf, "%.2f us p50, %.2f mean, %.2f p99 (%lld samples)\n", r.time_us.p50, r.time_us.mean, r.time_us.p99,
                  static_cast<long long>(r.time_us.samples));
    return head(r) + buf;
  }
  std::string ceiling = "ceiling unknown";
  if (r.figure && r.figure->ceiling && r.figure->ceiling->known && r.figure->efficiency) {
    std::snprintf(buf, sizeof buf, "%.1f%% of %.4g Gb/s", 100 * *r.figure->efficiency, r.figure->ceiling->value);
    ceiling = buf;
  }
  std::snprintf(buf, sizeof buf, "%.2f Gb/s%s (peak %.2f), %s, check %s\n", num(r.extra, "bw_Gbps"),
                r.name == "write_bw_bidir" ? " per direction" : "", num(r.extra, "bw_peak_Gbps"), ceiling.c_str(), r.check.c_str());
  return head(r) + buf;
}

}  // namespace gpunet::bench::rdma
