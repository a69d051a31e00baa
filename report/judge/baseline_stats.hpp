// Statistics for the baseline comparison. Pure functions.
#pragma once

#include <cstddef>
#include <vector>

namespace gpunet::report {

// Two-sided p-value of the Mann-Whitney U test (normal approximation with tie and continuity
// corrections). 1 when either sample is empty or every value is tied.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// The smallest p-value mann_whitney_p can give samples of these sizes: that of two samples that do not
// overlap and hold no ties. 5 and 5 samples give 0.0122, so a test of them never reaches 0.01/2.
double mann_whitney_smallest_p(std::size_t n1, std::size_t n2);

// Whether every value of `low` is below every value of `high` (false when either is empty).
bool entirely_below(const std::vector<double>& low, const std::vector<double>& high);

// At most `keep` values standing for the distribution of `samples`: all of them (sorted) when there
// are no more than `keep`, else the quantiles at (i + 0.5) / keep, i = 0 .. keep-1.
std::vector<double> quantile_summary(std::vector<double> samples, std::size_t keep);

// Median (mean of the two middle values for an even count); 0 for an empty sample.
double median_of(std::vector<double> v);

}  // namespace gpunet::report
