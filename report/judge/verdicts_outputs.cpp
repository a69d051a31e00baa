#include "report/judge/verdicts_outputs.hpp"

#include <cstdio>
#include <optional>

#include "report/analysis/fabric_view.hpp"
#include "report/model/json_access.hpp"
#include "report/text/escape.hpp"
#include "report/judge/verdicts_facts.hpp"

namespace gpunet::report {

using gpunet::json;

namespace {

std::string str(const json& j, const char* key) { return jsonx::string(j, key).value_or(""); }

std::optional<Change> change_from(const std::string& s) {
  for (const Change c : {Change::same, Change::faster, Change::slower, Change::uncertain})
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string opt(const std::optional<double>& v) { return v ? fmt_num(*v) : "-"; }

std::string change_text(const Comparison& c) {
  if (!c.change_pct) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f %%", *c.change_pct);
  return buf;
}

}  // namespace

std::vector<Verdict> verdicts_of(const Report& rep) {
  std::vector<Verdict> out;
  const auto* all = jsonx::array_at(rep.extra, "verdicts");
  if (!all) return out;
  for (const auto& v : *all) {
    try {
      out.push_back(v.get<Verdict>());
    } catch (const std::exception&) {
    }
  }
  return out;
}

BaselineComparison comparison_of(const Report& rep) {
  BaselineComparison c;
  const auto& base = jsonx::section(rep.extra, "baseline");
  if (const auto n = jsonx::number(base, "new_figures"); n && *n > 0) c.new_figures = static_cast<std::size_t>(*n);
  const auto& not_listed = jsonx::section(base, "not_listed");
  const auto counted = [&](const char* key) {
    const auto n = jsonx::number(not_listed, key);
    return n && *n > 0 && *n < 1e15 ? static_cast<std::size_t>(*n) : std::size_t{0};
  };
  c.not_listed = {counted("SAME"), counted("FASTER"), counted("UNCERTAIN"), counted("SLOWER")};
  const auto* rows = jsonx::array_at(base, "rows");
  if (!rows) return c;
  for (const auto& r : *rows) {
    if (!r.is_object()) continue;
    const auto change = change_from(str(r, "change"));
    if (!change) continue;
    Comparison x;
    x.key = str(r, "figure");
    x.change = *change;
    x.base_value = jsonx::number(r, "base");
    x.now_value = jsonx::number(r, "now");
    x.unit = str(r, "unit");
    x.threshold_pct = jsonx::number(r, "threshold_pct");
    if (const auto* h = jsonx::array_at(r, "hosts"))
      for (const auto& name : *h)
        if (name.is_string()) x.hosts.push_back(name.get<std::string>());
    x.change_pct = jsonx::number(r, "change_pct");
    x.p_value = jsonx::number(r, "p_value");
    x.method = str(r, "method");
    x.reason = str(r, "reason");
    c.rows.push_back(x);
  }
  return c;
}

std::string spec_title(const Report& rep) {
  const auto& spec = jsonx::section(rep.extra, "spec");
  const auto name = str(spec, "name");
  return name.empty() ? str(spec, "file") : name;
}

std::string baseline_file(const Report& rep) { return str(jsonx::section(rep.extra, "baseline"), "file"); }

Judgement stored_judgement(const Report& rep) {
  Judgement j;
  j.verdicts = verdicts_of(rep);
  if (jsonx::object_at(rep.extra, "baseline")) j.comparison = comparison_of(rep);
  j.verdict = run_verdict_of(rep, j.verdicts, j.comparison);
  j.fabric = fabric_location(rep);
  return j;
}

namespace {

// One <testcase> of the acceptance or baseline testsuite: failed (a <failure> of that type),
// skipped (a <skipped> with that message), or passed (the detail as <system-out>).
struct JunitCase {
  std::string name, detail;
  std::string failure;                 // the <failure type>; empty when not failed
  std::optional<std::string> skipped;  // the <skipped message>; none when not skipped
};

void put_suite(std::string& out, JunitCounts& n, const std::string& suite, const std::vector<JunitCase>& cases) {
  if (cases.empty()) return;
  int failures = 0, skipped = 0;
  std::string body;
  for (const auto& c : cases) {
    body += "    <testcase classname=" + xml_attr("gpunet-bench." + suite) + " name=" + xml_attr(c.name) + " time=\"0\">\n";
    if (!c.failure.empty()) {
      ++failures;
      body += "      <failure type=" + xml_attr(c.failure) + " message=" + xml_attr(c.detail) + ">" + xml_escape(c.detail) + "</failure>\n";
    } else if (c.skipped) {
      ++skipped;
      body += "      <skipped message=" + xml_attr(*c.skipped) + "/>\n";
    } else {
      body += "      <system-out>" + xml_escape(c.detail) + "</system-out>\n";
    }
    body += "    </testcase>\n";
  }
  const int tests = static_cast<int>(cases.size());
  out += "  <testsuite name=" + xml_attr(suite) + " tests=" + xml_attr(std::to_string(tests)) + " failures=" +
         xml_attr(std::to_string(failures)) + " errors=\"0\" skipped=" + xml_attr(std::to_string(skipped)) + " time=\"0\">\n" +
         body + "  </testsuite>\n";
  n.tests += tests;
  n.failures += failures;
  n.skipped += skipped;
}

}  // namespace

AcceptanceJunit acceptance_junit(const Judgement& j) {
  AcceptanceJunit a;
  std::vector<JunitCase> verdicts;
  for (const auto& v : j.verdicts) {
    JunitCase c{v.promise, (v.culprits.empty() ? "" : culprit_text(v) + ". ") + "measured " + v.measured + ", limit " + v.limit + ": " + v.reason,
                "", std::nullopt};
    if (v.status == VerdictStatus::fail) c.failure = "verdict";
    if (v.status == VerdictStatus::skip) c.skipped = v.reason;
    verdicts.push_back(std::move(c));
  }
  put_suite(a.xml, a.counts, "acceptance", verdicts);
  std::vector<JunitCase> rows;
  if (j.comparison) {
    const auto listed = comparison_rows_listed(*j.comparison);
    for (std::size_t i = 0; i < j.comparison->rows.size(); ++i) {
      if (!listed.empty() && !listed[i]) continue;
      const Comparison& r = j.comparison->rows[i];
      JunitCase c{r.key, to_string(r.change) + ": " + opt(r.base_value) + " -> " + opt(r.now_value) + " " + r.unit + " (" + change_text(r) + "); " + r.reason,
                  "", std::nullopt};
      if (r.change == Change::slower) c.failure = "regression";
      if (r.change == Change::uncertain) c.skipped = c.detail;
      rows.push_back(std::move(c));
    }
    // The rows left out at scale (a million figures, which no CI server shows): one testcase says what they were.
    if (const RowsNotListed n = rows_not_listed(*j.comparison, listed); n.total()) {
      JunitCase c{std::to_string(n.total()) + " figures not listed",
                  (n.slower ? std::to_string(n.slower) + " SLOWER, " : "") + std::to_string(n.same) + " SAME, " + std::to_string(n.faster) +
                      " FASTER, " + std::to_string(n.uncertain) + " UNCERTAIN; every figure is in the run's baseline.csv",
                  "", std::nullopt};
      if (n.slower) c.failure = "regression";
      rows.push_back(std::move(c));
    }
  }
  put_suite(a.xml, a.counts, "baseline", rows);
  return a;
}

}  // namespace gpunet::report
