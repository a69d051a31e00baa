#include "report/history/history_record.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>
#include <stdexcept>

#include "common/strings.hpp"
#include "report/history/field_hash.hpp"
#include "report/judge/baseline.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report::history {

namespace {

std::string history_subject_label(const Subject& s) {
  switch (s.kind) {
    case SubjectKind::cluster: return "cluster";
    case SubjectKind::host:
    case SubjectKind::pair: return pair_label(s);
    case SubjectKind::gpu: return s.host + " gpu" + s.device;
    case SubjectKind::nic: return s.host + " " + s.device;
    case SubjectKind::group: return s.group + " from " + s.host;
  }
  return "";
}

std::string joined_parameters(const Figure& f) {
  std::string out;
  for (const auto& [name, value] : f.parameters) out += (out.empty() ? "" : ";") + name + "=" + value;
  return out;
}

// OK, BELOW (under the analysis threshold), ABOVE (over the ceiling), or the record's status.
std::string figure_verdict(const Record& r, double threshold, double over_ceiling) {
  if (r.status != Status::passed) return to_string(r.status);
  if (!r.figure || !r.figure->efficiency) return "OK";
  if (*r.figure->efficiency < threshold) return "BELOW";
  if (*r.figure->efficiency > over_ceiling) return "ABOVE";
  return "OK";
}

double analysis_number(const Report& rep, const char* key, double fallback) {
  const auto& a = rep.extra.find("analysis");
  if (a == rep.extra.end() || !a->is_object()) return fallback;
  const auto it = a->find(key);
  return it != a->end() && it->is_number() ? it->get<double>() : fallback;
}

std::string distinct_hosts(const std::vector<std::string>& hosts) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& h : hosts)
    if (seen.insert(h).second) out.push_back(h);
  return join(out, ",");
}

std::string provenance_line(const Provenance& p) {
  std::string out = "gpunet-bench " + p.version + " (" + p.git_commit + ")";
  if (!p.mpi_version.empty()) out += "; MPI " + p.mpi_version.substr(0, p.mpi_version.find_first_of(",\n"));
  if (!p.hwloc_version.empty()) out += "; hwloc " + p.hwloc_version;
  if (!p.cuda_version.empty()) out += "; CUDA " + p.cuda_version;
  if (!p.nccl_version.empty()) out += "; NCCL " + p.nccl_version;
  out += "; " + std::to_string(p.hosts.size()) + " ranks";
  return printable(out);
}

// A short stable name of the run's provenance.
std::string provenance_hash(const Provenance& p) {
  FieldHash h;
  h << p.start_time << p.end_time << p.git_commit << join(p.hosts, ",") << join(p.argv, " ");
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h.value()));
  return std::string(text, 12);
}

}  // namespace

std::optional<int64_t> parse_utc_time(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
  const char* c = text.c_str();
  if (std::sscanf(c, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10) return std::nullopt;
  std::string rest = text.substr(10);
  if (!rest.empty()) {
    if (rest[0] != 'T' && rest[0] != ' ') return std::nullopt;
    int n = 0;
    if (std::sscanf(rest.c_str() + 1, "%2d:%2d%n", &h, &mi, &n) != 2 || n != 5) return std::nullopt;
    rest = rest.substr(6);
    if (rest.size() >= 3 && rest[0] == ':') {
      if (std::sscanf(rest.c_str() + 1, "%2d%n", &s, &n) != 1 || n != 2) return std::nullopt;
      rest = rest.substr(3);
      if (!rest.empty() && rest[0] == '.') rest.erase(0, std::min(rest.size(), rest.find_first_not_of("0123456789", 1)));
    }
    if (rest == "Z") rest.clear();
    if (!rest.empty()) return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60 || y < 1970) return std::nullopt;
  std::tm tm{};
  tm.tm_year = y - 1900, tm.tm_mon = mo - 1, tm.tm_mday = d, tm.tm_hour = h, tm.tm_min = mi, tm.tm_sec = s;
  return static_cast<int64_t>(timegm(&tm));
}

std::string utc_minutes_text(int64_t epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &tm);
  return text;
}

HistoryRun history_run_of(const Analysed& a, const std::string& source) {
  const Report& rep = a.report;
  const Provenance& p = rep.provenance;
  const auto start = parse_utc_time(p.start_time);
  if (!start)
    throw std::invalid_argument(printable(source + ": provenance.start_time '" + p.start_time +
                                          "' is not an ISO 8601 UTC time; the history needs when the run started"));
  HistoryRun run;
  run.start_time = p.start_time;
  run.start_epoch = *start;
  run.run_id = p.start_time + "/" + provenance_hash(p);
  run.end_time = p.end_time;
  run.version = p.version;
  run.git_commit = p.git_commit;
  run.hosts = distinct_hosts(p.hosts);
  run.provenance = provenance_line(p);
  run.verdict = to_string(a.judgement.verdict.outcome);
  run.source = source;
  run.baseline = baseline_text(make_baseline(rep));
  const double threshold = analysis_number(rep, "threshold", 0.8);
  const double over = analysis_number(rep, "over_ceiling", 1.02);
  for (const auto& r : rep.results) {
    if (!r.figure || r.status == Status::skipped) continue;
    const Figure& f = *r.figure;
    HistoryFigure h;
    h.metric = f.metric, h.subject = subject_key(f.subject), h.subject_label = history_subject_label(f.subject);
    h.parameters = joined_parameters(f), h.value = f.value, h.unit = f.unit;
    h.higher_is_better = f.better == Better::higher;
    if (f.ceiling && f.ceiling->known) h.ceiling = f.ceiling->value;
    h.efficiency = f.efficiency;
    h.verdict = figure_verdict(r, threshold, over);
    run.figures.push_back(std::move(h));
  }
  return run;
}

}  // namespace gpunet::report::history
