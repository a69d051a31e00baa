// Whether two readings of one results.jsonl line gave the same record: the same JSON written back, the
// same extra left in the tree, and the same facts held apart from it (report/model/record.hpp).
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "report/model/json_lines_parser.hpp"

namespace gpunet::test_support {

inline ::testing::AssertionResult same_record_line(const report::RecordLine& a, const report::RecordLine& b) {
  const auto differ = [](const char* what) { return ::testing::AssertionFailure() << what << " differs"; };
  const report::Record &x = a.record, &y = b.record;
  if (gpunet::json(x).dump() != gpunet::json(y).dump()) return differ("the JSON written back");
  if (x.extra.dump() != y.extra.dump()) return differ("extra");
  if (a.link_texts != b.link_texts) return differ("a link's text");
  for (const auto& [p, q] : {std::pair{&x.link, &y.link}, std::pair{&x.dst_link, &y.dst_link}})
    if (bool(*p) != bool(*q) || (*p && **p != **q)) return differ("a link held apart");
  if (x.cpu.has_value() != y.cpu.has_value()) return differ("the CPU cost held apart");
  if (x.timeline_in_samples != y.timeline_in_samples) return differ("the timeline held in the samples");
  if (x.flow.empty() != y.flow.empty()) return differ("the flow's facts held apart");
  if (report::written_extra(x).dump() != report::written_extra(y).dump()) return differ("the extra written back");
  if (x.figure.has_value() != y.figure.has_value() || (x.figure && !x.figure->parameters.empty() &&
                                                      x.figure->parameters.map() != y.figure->parameters.map()))
    return differ("the figure");
  return ::testing::AssertionSuccess();
}

}  // namespace gpunet::test_support
