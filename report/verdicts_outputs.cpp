#include "report/verdicts_outputs.hpp"

#include <cstdio>

#include "report/escape.hpp"
#include "report/verdicts_facts.hpp"

namespace gpunet::report {

using nlohmann::json;

namespace {

std::optional<double> num(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string{};
}

std::optional<Change> change_from(const std::string& s) {
  for (const Change c : {Change::same, Change::faster, Change::slower, Change::uncertain})
    if (to_string(c) == s) return c;
  return std::nullopt;
}

std::string spec_title(const Report& rep) {
  const auto it = rep.extra.find("spec");
  if (it == rep.extra.end() || !it->is_object()) return "";
  const auto name = str(*it, "name");
  return name.empty() ? str(*it, "file") : name;
}

std::string baseline_file(const Report& rep) {
  const auto it = rep.extra.find("baseline");
  return it != rep.extra.end() && it->is_object() ? str(*it, "file") : "";
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
  const auto it = rep.extra.find("verdicts");
  if (it == rep.extra.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    try {
      out.push_back(v.get<Verdict>());
    } catch (const std::exception&) {
    }
  }
  return out;
}

BaselineComparison comparison_of(const Report& rep) {
  BaselineComparison c;
  const auto it = rep.extra.find("baseline");
  if (it == rep.extra.end() || !it->is_object()) return c;
  if (const auto n = num(*it, "new_figures"); n && *n > 0) c.new_figures = static_cast<std::size_t>(*n);
  const auto rows = it->find("rows");
  if (rows == it->end() || !rows->is_array()) return c;
  for (const auto& r : *rows) {
    if (!r.is_object()) continue;
    const auto change = change_from(str(r, "change"));
    if (!change) continue;
    Comparison x;
    x.key = str(r, "figure");
    x.change = *change;
    x.base_p50_us = num(r, "base_p50_us");
    x.now_p50_us = num(r, "now_p50_us");
    x.change_pct = num(r, "change_pct");
    x.p_value = num(r, "p_value");
    x.method = str(r, "method");
    x.reason = str(r, "reason");
    c.rows.push_back(x);
  }
  return c;
}

std::string acceptance_markdown(const Report& rep) {
  std::string out;
  if (const auto v = verdicts_of(rep); !v.empty())
    out += "\n## Acceptance: " + md_escape(spec_title(rep)) + "\n\n" + render_verdicts_markdown(v);
  if (const auto c = comparison_of(rep); !c.rows.empty())
    out += "\n## Baseline: " + md_escape(baseline_file(rep)) + "\n\n" + render_comparison_markdown(c);
  return out;
}

std::string acceptance_html(const Report& rep) {
  std::string out;
  const auto td = [](const std::string& s) { return "<td>" + html_escape(s) + "</td>"; };
  if (const auto verdicts = verdicts_of(rep); !verdicts.empty()) {
    out += "<h2>Acceptance: " + html_escape(spec_title(rep)) +
           "</h2><table><tr><th>Promise</th><th>Verdict</th><th>Measured</th><th>Limit</th><th>Reason</th></tr>";
    for (const auto& v : verdicts) {
      const char* cls = v.status == VerdictStatus::fail ? "failed" : v.status == VerdictStatus::skip ? "skipped" : "passed";
      out += std::string("<tr class=\"") + cls + "\">" + td(v.promise) + "<td><b>" + to_string(v.status) + "</b></td>" +
             td(v.measured) + td(v.limit) + "<td class=\"w\">" + html_escape(v.reason) + "</td></tr>";
    }
    out += "</table>";
  }
  if (const auto c = comparison_of(rep); !c.rows.empty()) {
    out += "<h2>Baseline: " + html_escape(baseline_file(rep)) +
           "</h2><table><tr><th>Figure</th><th>Baseline p50 (us)</th><th>Now p50 (us)</th><th>Change</th><th>Test</th>"
           "<th>Verdict</th><th>Reason</th></tr>";
    for (const auto& r : c.rows) {
      const char* cls = r.change == Change::slower ? "failed" : r.change == Change::uncertain ? "skipped" : "passed";
      out += std::string("<tr class=\"") + cls + "\">" + td(r.key) + td(opt(r.base_p50_us)) + td(opt(r.now_p50_us)) +
             td(change_text(r)) + td(r.method.empty() ? "-" : r.method) + "<td><b>" + to_string(r.change) + "</b></td>" +
             "<td class=\"w\">" + html_escape(r.reason) + "</td></tr>";
    }
    out += "</table>";
  }
  return out;
}

JunitCounts acceptance_junit_counts(const Report& rep) {
  JunitCounts n;
  for (const auto& v : verdicts_of(rep)) {
    ++n.tests;
    n.failures += v.status == VerdictStatus::fail;
    n.skipped += v.status == VerdictStatus::skip;
  }
  for (const auto& r : comparison_of(rep).rows) {
    ++n.tests;
    n.failures += r.change == Change::slower;
    n.skipped += r.change == Change::uncertain;
  }
  return n;
}

std::string acceptance_junit(const Report& rep) {
  std::string out;
  const auto suite = [&](const std::string& name, int tests, int failures, int skipped, const std::string& cases) {
    out += "  <testsuite name=" + xml_attr(name) + " tests=" + xml_attr(std::to_string(tests)) + " failures=" +
           xml_attr(std::to_string(failures)) + " errors=\"0\" skipped=" + xml_attr(std::to_string(skipped)) + " time=\"0\">\n" +
           cases + "  </testsuite>\n";
  };
  const auto verdicts = verdicts_of(rep);
  if (!verdicts.empty()) {
    std::string cases;
    int failures = 0, skipped = 0;
    for (const auto& v : verdicts) {
      const std::string detail = "measured " + v.measured + ", limit " + v.limit + ": " + v.reason;
      cases += "    <testcase classname=\"gpunet-bench.acceptance\" name=" + xml_attr(v.promise) + " time=\"0\">\n";
      if (v.status == VerdictStatus::fail) {
        ++failures;
        cases += "      <failure type=\"verdict\" message=" + xml_attr(detail) + ">" + xml_escape(detail) + "</failure>\n";
      } else if (v.status == VerdictStatus::skip) {
        ++skipped;
        cases += "      <skipped message=" + xml_attr(v.reason) + "/>\n";
      } else {
        cases += "      <system-out>" + xml_escape(detail) + "</system-out>\n";
      }
      cases += "    </testcase>\n";
    }
    suite("acceptance", static_cast<int>(verdicts.size()), failures, skipped, cases);
  }
  const auto c = comparison_of(rep);
  if (!c.rows.empty()) {
    std::string cases;
    int failures = 0, skipped = 0;
    for (const auto& r : c.rows) {
      const std::string detail = to_string(r.change) + ": p50 " + opt(r.base_p50_us) + " -> " + opt(r.now_p50_us) +
                                 " us (" + change_text(r) + "); " + r.reason;
      cases += "    <testcase classname=\"gpunet-bench.baseline\" name=" + xml_attr(r.key) + " time=\"0\">\n";
      if (r.change == Change::slower) {
        ++failures;
        cases += "      <failure type=\"regression\" message=" + xml_attr(detail) + ">" + xml_escape(detail) + "</failure>\n";
      } else if (r.change == Change::uncertain) {
        ++skipped;
        cases += "      <skipped message=" + xml_attr(detail) + "/>\n";
      } else {
        cases += "      <system-out>" + xml_escape(detail) + "</system-out>\n";
      }
      cases += "    </testcase>\n";
    }
    suite("baseline", static_cast<int>(c.rows.size()), failures, skipped, cases);
  }
  return out;
}

}  // namespace gpunet::report
