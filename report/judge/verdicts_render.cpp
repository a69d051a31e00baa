// Verdict serialisation and the two table renderers.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "report/text/escape.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

using gpunet::json;

std::string to_string(VerdictStatus s) {
  switch (s) {
    case VerdictStatus::pass: return "PASS";
    case VerdictStatus::fail: return "FAIL";
    case VerdictStatus::skip: return "SKIP";
    case VerdictStatus::warn: return "WARN";
  }
  return "SKIP";
}

std::string culprit_text(const Verdict& v) {
  std::string s;
  for (const auto& c : v.culprits) s += (s.empty() ? "" : "; ") + c;
  return s;
}

void to_json(json& j, const Verdict& v) {
  j = json{{"promise", v.promise}, {"status", to_string(v.status)}, {"measured", v.measured},
           {"limit", v.limit},     {"reason", v.reason}};
  if (!v.culprits.empty()) j["culprit"] = culprit_text(v);  // one text, as files before "culprits" held it
  if (v.culprits.size() > 1) j["culprits"] = v.culprits;
  if (!v.hosts.empty()) j["hosts"] = v.hosts;
}

void from_json(const json& j, Verdict& v) {
  v.promise = j.at("promise").get<std::string>();
  const auto s = j.at("status").get<std::string>();
  if (s == "PASS") v.status = VerdictStatus::pass;
  else if (s == "FAIL") v.status = VerdictStatus::fail;
  else if (s == "SKIP") v.status = VerdictStatus::skip;
  else if (s == "WARN") v.status = VerdictStatus::warn;
  else throw std::invalid_argument("unknown verdict status '" + s + "'");
  v.measured = j.value("measured", "");
  v.limit = j.value("limit", "");
  v.reason = j.value("reason", "");
  v.culprits = j.value("culprits", std::vector<std::string>{});
  if (v.culprits.empty() && !j.value("culprit", "").empty()) v.culprits = {j.value("culprit", "")};
  v.hosts = j.value("hosts", std::vector<std::string>{});
}

void attach_verdicts(Report& report, const Spec& spec, const std::vector<Verdict>& verdicts) {
  report.extra["verdicts"] = verdicts;
  report.extra["spec"] = json{{"file", spec.source}, {"name", spec.name}};
  if (const auto rate = promised_rate_Gbps(spec)) report.extra["spec"]["link_rate_Gbps"] = *rate;  // the pair heatmap's reference
}

std::string verdicts_summary(const std::vector<Verdict>& verdicts) {
  std::size_t n[4] = {0, 0, 0, 0};
  for (const auto& v : verdicts) ++n[static_cast<int>(v.status)];
  std::ostringstream os;
  os << n[0] << " PASS, " << n[1] << " FAIL, " << n[2] << " SKIP";
  if (n[3]) os << ", " << n[3] << " WARN";
  os << ": " << overall_verdict(verdicts);
  if (n[2]) {
    os << " (not judged:";
    for (const auto& v : verdicts)
      if (v.status == VerdictStatus::skip) os << " " << v.promise.substr(0, v.promise.find(' ')) << ";";
    os.seekp(-1, std::ios_base::end);
    os << ")";
  }
  return os.str();
}

std::string render_verdicts_console(const std::vector<Verdict>& verdicts) {
  // Promise, verdict, measured and limit in aligned columns; the reason on the same line after them.
  std::size_t w[3] = {7, 8, 5};
  for (const auto& v : verdicts) {
    w[0] = std::max(w[0], v.promise.size());
    w[1] = std::max(w[1], v.measured.size());
    w[2] = std::max(w[2], v.limit.size());
  }
  const auto pad = [](const std::string& s, std::size_t n) { return s + std::string(n > s.size() ? n - s.size() : 0, ' '); };
  std::ostringstream os;
  os << pad("Promise", w[0]) << "  Verdict  " << pad("Measured", w[1]) << "  " << pad("Limit", w[2]) << "  Reason\n";
  for (const auto& v : verdicts)
    os << pad(v.promise, w[0]) << "  " << pad(to_string(v.status), 7) << "  " << pad(v.measured, w[1]) << "  "
       << pad(v.limit, w[2]) << "  " << v.reason << "\n";
  os << verdicts_summary(verdicts) << "\n";
  return os.str();
}

}  // namespace gpunet::report
