// The pieces of the Prometheus text exposition format (version 0.0.4) that metrics.prom is built
// from, pure: metric and label names, units in names, escaped label values and HELP text, numbers.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpunet::report::prom {

// How a figure's unit appears in a metric name, and the factor that takes a value there. Gb/s stays
// Gb/s ("gbps", the unit every report prints); GB/s becomes bytes per second and us seconds, the base
// units Prometheus asks for (promtool's lint rejects "gigabytes" and "us"). Another unit becomes its
// letters and digits ("x" -> "x") unchanged; no unit, no suffix.
struct Unit {
  std::string suffix;
  double times = 1, per = 1;  // value in the name's unit = value × times / per (exact for powers of ten)
  double apply(double v) const { return v * times / per; }
  bool converts() const { return times != 1 || per != 1; }
};
Unit unit_of(const std::string& unit);

// Lower case letters, digits and single '_' ("nccl.all-reduce" -> "nccl_all_reduce"); a name that
// would start with a digit gets a leading '_'; an empty one becomes "_".
std::string name_part(std::string_view text);
// "gpunet_" + name_part(metric) + "_" + unit suffix: "tcp.goodput", "Gb/s" -> gpunet_tcp_goodput_gbps.
std::string metric_name(const std::string& metric, const std::string& unit);
// The ceiling and efficiency series of a figure family: gpunet_tcp_goodput_ceiling_gbps,
// gpunet_tcp_goodput_efficiency_ratio.
std::string ceiling_name(const std::string& metric, const std::string& unit);
std::string efficiency_name(const std::string& metric);

// A label value as the format requires: \ " and line feed backslash-escaped; other control
// characters and bytes that are not UTF-8 become '?'.
std::string label_value(std::string_view v);
// HELP text: \ and line feed escaped, other control characters folded into spaces.
std::string help_text(std::string_view v);
// A sample value: shortest round-trip decimal; NaN, +Inf, -Inf as the format spells them.
std::string number(double v);

using Labels = std::vector<std::pair<std::string, std::string>>;  // name, raw value; in this order
// {a="x",b="y"}, values escaped; "" when there are none.
std::string label_set(const Labels& labels);

}  // namespace gpunet::report::prom
