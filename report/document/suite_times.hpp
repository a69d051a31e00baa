// How long each suite took beside what the run's plan said it would (bench/core/plan.hpp), kept in
// report.json as extra.suite_times and shown as one row of the Run table: "tcp planned 13s, took 15s;
// mpi took 3s (not estimated)". Pure.
#pragma once

#include <string>
#include <vector>

#include "report/model/record.hpp"

namespace gpunet::report {

struct SuiteTime {
  std::string suite;
  double planned_s = -1;  // < 0: the suite gave no estimate
  double actual_s = 0;
};

// Writes them to rep.extra["suite_times"].
void set_suite_times(Report& rep, const std::vector<SuiteTime>& times);
// Reads them back (defensive: a stored report without them, or with odd entries, gives what is readable).
std::vector<SuiteTime> suite_times_of(const Report& rep);

// "tcp planned 13s, took 15s; mpi took 3s (not estimated)"; "" when none.
std::string suite_times_text(const std::vector<SuiteTime>& times);

}  // namespace gpunet::report
