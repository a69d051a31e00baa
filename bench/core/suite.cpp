#include "bench/core/suite.hpp"

namespace gpunet::bench {

const Suite* find_suite(SuiteList suites, const std::string& name) {
  for (const auto& s : suites)
    if (s.name == name) return &s;
  return nullptr;
}

report::KnownTests spec_names(SuiteList suites) {
  report::KnownTests out;
  for (const auto& s : suites)
    for (auto t : s.spec_tests) {
      t.suite = s.name;
      for (auto& m : t.metrics) m.metric = s.name + "." + m.metric;
      out.push_back(std::move(t));
    }
  return out;
}

report::Record with_stated_kind(report::Record r, const Suite* suite) {
  if (suite && suite->record_kind && r.kind == report::RecordKind::unstated) r.kind = suite->record_kind(r);
  return r;
}

std::string suite_names(SuiteList suites, bool by_default) {
  std::string out;
  for (const auto& s : suites)
    if (s.by_default == by_default) out += (out.empty() ? "" : ",") + s.name;
  return out;
}

}  // namespace gpunet::bench
