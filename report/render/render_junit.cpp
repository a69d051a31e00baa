// junit.xml: one testcase per record, grouped into one testsuite per suite, in report order.
// failed / timed_out / wrong results -> <failure>; skipped -> <skipped>. A figure below its ceiling's
// threshold is not a failure here (acceptance verdicts judge that); it is written to system-out.
// At scale (a million flows at 1,024 hosts, which no CI server shows), the flows report.json
// summarises are one testcase per host and interface in a testsuite "tcp flows summarised".
#include <map>
#include <sstream>

#include "report/analysis/ceilings.hpp"
#include "report/text/escape.hpp"
#include "report/judge/figure_select.hpp"
#include "report/document/document_section.hpp"
#include "report/model/json_access.hpp"
#include "report/render/renderers.hpp"
#include "report/judge/run_verdict.hpp"
#include "report/analysis/sections.hpp"
#include "report/text/text_format.hpp"
#include "report/judge/verdicts_outputs.hpp"

namespace gpunet::report {

namespace {


std::string case_name(const Record& r) {
  std::string n = r.name;
  if (!r.variant.empty()) n += " " + r.variant;
  if (r.bytes > 0 && bytes_is_message_size(r)) n += " " + format_bytes(r.bytes);  // never a flow's bytes
  if (auto s = extra_string(r, "src_host"), d = extra_string(r, "dst_host"); s && d)
    n += " " + end_name(*s, jsonx::string(r.extra, "src_iface").value_or("")) + "->" +
         end_name(*d, jsonx::string(r.extra, "dst_iface").value_or(""));
  n += " @" + r.host + " rank " + std::to_string(r.rank);
  return n;
}

// Time the measurement took: its timed iterations, else the duration the suite recorded (TCP flows).
double seconds(const Record& r) {
  if (r.time_us.samples > 0) return r.time_us.mean * static_cast<double>(r.time_us.samples) * 1e-6;
  if (const auto s = extra_number(r, "seconds")) return *s;
  return extra_number(r, "duration_s").value_or(0);
}

struct Suite {
  std::vector<const Record*> records;
  int failures = 0, skipped = 0;
  double time = 0;
};

bool is_failure(const Record& r) {
  return r.status == Status::failed || r.status == Status::timed_out || r.wrong > 0 || r.check == "wrong";
}

std::string testcase(const Record& r) {
  std::string out = "    <testcase classname=" + xml_attr("gpunet-bench." + r.suite + "." + r.name) +
                    " name=" + xml_attr(case_name(r)) + " time=" + xml_attr(format_fixed(seconds(r), 6)) + ">\n";
  if (r.status == Status::skipped) {
    out += "      <skipped message=" + xml_attr(r.reason) + "/>\n";
  } else if (is_failure(r)) {
    const std::string type = r.status == Status::passed ? "wrong" : to_string(r.status);
    const std::string msg = !r.reason.empty() ? r.reason : std::to_string(r.wrong) + " wrong elements";
    out += "      <failure type=" + xml_attr(type) + " message=" + xml_attr(msg) + ">" + xml_escape(msg) + "</failure>\n";
  }
  const auto c = ceiling_view(r);
  std::string detail = figure_text(r);
  if (c.known) detail.append(detail.empty() ? "" : "; ").append("ceiling " + format_figure(c.value) + " ").append(c.unit);
  if (c.efficiency) detail += ", efficiency " + format_percent(*c.efficiency);
  if (!c.explanation.empty()) detail.append(". ").append(c.explanation);
  if (!detail.empty()) out += "      <system-out>" + xml_escape(detail) + "</system-out>\n";
  return out + "    </testcase>\n";
}

// "min 89.1 / median 93.9 / max 97.3 Gb/s" of a summary's spread (json_flows_kept.cpp); empty when none.
std::string spread_text(const gpunet::json& spread, bool percent) {
  const auto lo = jsonx::number(spread, "min"), mid = jsonx::number(spread, "median"), hi = jsonx::number(spread, "max");
  if (!lo || !mid || !hi) return "";
  const auto f = [&](double v) { return percent ? format_percent(v) : format_figure(v); };
  return "min " + f(*lo) + " / median " + f(*mid) + " / max " + f(*hi) + (percent ? "" : " Gb/s");
}

std::string side_text(const char* way, const gpunet::json& side) {
  std::string out = std::string(way) + ": " + std::to_string(jsonx::integer(side, "flows").value_or(0)) + " flows";
  if (const int failed = jsonx::integer(side, "failed").value_or(0)) out += " (" + std::to_string(failed) + " failed: their own testcases)";
  if (auto g = spread_text(jsonx::section(side, "goodput_Gbps"), false); !g.empty()) out += ", goodput " + g;
  if (auto e = spread_text(jsonx::section(side, "efficiency"), true); !e.empty()) out += ", efficiency " + e;
  return out;
}

// The testsuite of the summarised flows: one testcase per host and interface; empty when none.
std::string summarised_suite(const gpunet::json& summary, JunitCounts& counts) {
  const auto* hosts = jsonx::array_at(summary, "hosts");
  if (!hosts || hosts->empty()) return "";
  std::string cases;
  for (const auto& h : *hosts) {
    const std::string host = jsonx::string(h, "host").value_or(""), iface = jsonx::string(h, "iface").value_or("");
    std::string detail;
    for (const char* way : {"sent", "received"})
      if (const auto* side = jsonx::object_at(h, way)) detail += (detail.empty() ? "" : "; ") + side_text(way, *side);
    cases += "    <testcase classname=\"gpunet-bench.tcp.flows\" name=" + xml_attr("flows of " + end_name(host, iface)) +
             " time=\"0\">\n      <system-out>" + xml_escape(detail) + "</system-out>\n    </testcase>\n";
  }
  counts.tests += static_cast<int>(hosts->size());
  return "  <testsuite name=\"tcp flows summarised\" tests=" + xml_attr(std::to_string(hosts->size())) +
         " failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">\n" + cases + "  </testsuite>\n";
}

// One testsuite "verdict" with the run's one verdict (report/judge/run_verdict.hpp): FAIL -> failure,
// INCOMPLETE -> skipped, its reasons in the message.
std::string verdict_suite(const RunVerdict& v, JunitCounts& counts) {
  std::string reasons;
  for (const auto& r : v.reasons) reasons += (reasons.empty() ? "" : "; ") + r;
  const bool failed = v.outcome == RunOutcome::fail, skipped = v.outcome == RunOutcome::incomplete;
  counts.tests += 1;
  counts.failures += failed;
  counts.skipped += skipped;
  std::string out = "  <testsuite name=\"verdict\" tests=\"1\" failures=" + xml_attr(std::to_string(int{failed})) +
                    " errors=\"0\" skipped=" + xml_attr(std::to_string(int{skipped})) + " time=\"0\">\n" +
                    "    <testcase classname=\"gpunet-bench.verdict\" name=" + xml_attr("run verdict " + to_string(v.outcome)) +
                    " time=\"0\">\n";
  if (failed) out += "      <failure type=\"FAIL\" message=" + xml_attr(reasons) + ">" + xml_escape(reasons) + "</failure>\n";
  if (skipped) out += "      <skipped message=" + xml_attr(reasons) + "/>\n";
  if (!failed && !skipped) out += "      <system-out>" + xml_escape(reasons) + "</system-out>\n";
  return out + "    </testcase>\n  </testsuite>\n";
}

}  // namespace

void render_junit(const Report& rep, const Judgement& j, std::ostream& os) { render_junit(rep, j, FlowsKept{}, os); }

void render_junit(const Report& rep, const Judgement& j, const FlowsKept& kept, std::ostream& os) {
  std::vector<std::string> order;
  std::map<std::string, Suite> suites;
  std::size_t written = 0;
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Record& r = rep.results[i];
    auto [it, fresh] = suites.try_emplace(r.suite);
    if (fresh) order.push_back(r.suite);
    if (kept.whole.empty() || kept.whole[i] || is_failure(r) || r.status == Status::skipped) {
      it->second.records.push_back(&r);
      ++written;
    }
    it->second.failures += is_failure(r) ? 1 : 0;
    it->second.skipped += r.status == Status::skipped ? 1 : 0;
    it->second.time += seconds(r);
  }
  int failures = 0, skipped = 0;
  double time = 0;
  for (const auto& [name, s] : suites) {
    failures += s.failures;
    skipped += s.skipped;
    time += s.time;
  }
  auto acc = acceptance_junit(j);  // acceptance and baseline testsuites
  const std::string verdict = verdict_suite(j.verdict, acc.counts);
  const std::string summarised =
      summarised_suite(kept.summary.is_null() ? jsonx::section(rep.extra, kFlowsInPartKey) : kept.summary, acc.counts);
  failures += acc.counts.failures;
  skipped += acc.counts.skipped;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpunet-bench\" tests="
     << xml_attr(std::to_string(written + static_cast<size_t>(acc.counts.tests))) << " failures=" << xml_attr(std::to_string(failures))
     << " errors=\"0\" skipped=" << xml_attr(std::to_string(skipped)) << " time=" << xml_attr(format_fixed(time, 6)) << ">\n";
  for (const auto& name : order) {
    const Suite& s = suites.at(name);
    os << "  <testsuite name=" << xml_attr(name) << " tests=" << xml_attr(std::to_string(s.records.size()))
       << " failures=" << xml_attr(std::to_string(s.failures)) << " errors=\"0\" skipped=" << xml_attr(std::to_string(s.skipped))
       << " time=" << xml_attr(format_fixed(s.time, 6)) << ">\n";
    for (const Record* r : s.records) os << testcase(*r);
    os << "  </testsuite>\n";
  }
  os << summarised << verdict << acc.xml << "</testsuites>\n";
}

std::string render_junit(const Report& rep) {
  std::ostringstream os;
  render_junit(rep, stored_judgement(rep), os);
  return std::move(os).str();
}

}  // namespace gpunet::report
