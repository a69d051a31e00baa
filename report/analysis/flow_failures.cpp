#include "report/analysis/flow_failures.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "report/model/json_access.hpp"

namespace gpunet::report {

namespace {

bool broken(Status s) { return s == Status::failed || s == Status::timed_out; }

bool involves(const FlowOutcome& f, const std::string& host) { return f.src == host || f.dst == host; }

// The words of a failure that say what happened: "receiver n3: connect: Connection timed out; sender
// ..." -> "connection timed out".
std::string cause_of(const std::string& reason) {
  std::string s = reason.substr(0, reason.find(';'));
  if (const auto colon = s.rfind(": "); colon != std::string::npos) s = s.substr(colon + 2);
  if (!s.empty()) s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s;
}

}  // namespace

std::vector<FlowOutcome> flow_outcomes(const Report& rep) {
  std::vector<FlowOutcome> out;
  for (const auto& r : rep.results) {
    if (r.status == Status::skipped || r.name == "finding") continue;
    const auto src = extra_string(r, "src_host"), dst = extra_string(r, "dst_host");
    if (!src || !dst || src->empty() || dst->empty()) continue;
    const bool moved = r.bytes > 0 || extra_integer(r, "bytes_sent").value_or(0) > 0;
    out.push_back({*src, *dst, r.status, extra_number(r, "started_s"), r.reason, moved});
  }
  return out;
}

std::optional<HostFailure> one_host_failing(const std::vector<FlowOutcome>& flows) {
  std::set<std::string> common;
  bool first = true;
  const FlowOutcome* earliest = nullptr;
  for (const auto& f : flows) {
    if (!broken(f.status)) continue;
    const std::set<std::string> ends{f.src, f.dst};
    if (first) common = ends;
    else std::erase_if(common, [&](const std::string& h) { return !ends.count(h); });
    first = false;
    if (!earliest || (f.started_s && (!earliest->started_s || *f.started_s < *earliest->started_s))) earliest = &f;
  }
  if (common.size() != 1) return std::nullopt;  // none failed, several hosts, or one pair of two
  HostFailure h;
  h.host = *common.begin();
  h.from_s = earliest->started_s;
  h.cause = cause_of(earliest->reason);
  for (const auto& f : flows) {
    if (!involves(f, h.host)) continue;
    const bool before = h.from_s && f.started_s && *f.started_s < *h.from_s;
    if (before) {
      h.ran_before = h.ran_before || f.status == Status::passed;
      continue;
    }
    ++h.with_host;
    h.failed += broken(f.status);
    h.ran_before = h.ran_before || (broken(f.status) && f.moved_data);
  }
  return h;
}

std::optional<HostFailure> one_host_failing(const Report& rep) {
  if (std::none_of(rep.results.begin(), rep.results.end(), [](const Record& r) { return broken(r.status); })) return std::nullopt;
  return one_host_failing(flow_outcomes(rep));
}

std::string failure_sentence(const HostFailure& f) {
  std::string s = std::to_string(f.failed) + " of " + std::to_string(f.with_host) + " flows with it failed";
  if (f.from_s) s += " from " + std::to_string(static_cast<long>(std::floor(*f.from_s))) + " s on";
  if (!f.cause.empty()) s += " (" + f.cause + ")";
  return s + (f.ran_before ? ": its data link went down?" : ": it cannot be reached on the data network?");
}

}  // namespace gpunet::report
