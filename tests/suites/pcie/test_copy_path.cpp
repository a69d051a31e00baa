// What one GPU's copy is judged against (bench/suites/pcie): a pinned copy against its PCIe link, a
// pageable copy against nothing, so that a healthy node's pageable copies (bounded by the host's
// memory copy through the driver's staging buffer) cannot turn its verdict to WARN. The records are
// the H200's of the first GPU run (Gen5 x16, MPS 256).
#include <gtest/gtest.h>

#include "bench/suites/pcie/suite.hpp"
#include "report/analysis/analysis.hpp"
#include "report/analysis/topology_view.hpp"

namespace gpunet::bench {
namespace {

report::Record h200_copy(gpu::HostKind kind, double GBps) {
  report::Record r;
  r.suite = "pcie";
  r.name = "h2d";
  r.host = "vm";
  r.variant = "gpu0 " + gpu::to_string(kind) + " default";
  r.status = report::Status::passed;
  r.algbw_GBps = GBps;
  r.extra["pcie"] = {{"gen", 5}, {"width", 16}, {"max_gen", 5}, {"max_width", 16}, {"mps", 256}, {"gpu_index", 0}};
  r.figure = report::rate_figure("pcie.h2d", GBps, "GB/s", report::gpu_subject("vm", 0), copy_path(kind));
  return r;
}

TEST(PcieCopyPath, PinnedAgainstTheLinkPageableAgainstNothing) {
  EXPECT_EQ(copy_path(gpu::HostKind::pinned), report::PathModel::pcie_link);
  EXPECT_EQ(copy_path(gpu::HostKind::pageable), report::PathModel::none);
  const gpunet::json topology = gpunet::json::object();
  const report::TopologyView view(topology);
  report::Record pinned = h200_copy(gpu::HostKind::pinned, 55.30);
  report::Record pageable = h200_copy(gpu::HostKind::pageable, 8.48);
  report::attach_ceiling(pinned, {}, view);
  report::attach_ceiling(pageable, {}, view);
  ASSERT_TRUE(pinned.figure->ceiling && pinned.figure->ceiling->known);
  EXPECT_NEAR(pinned.figure->ceiling->value, 57.61, 0.01);
  ASSERT_TRUE(pinned.figure->efficiency.has_value());
  EXPECT_NEAR(*pinned.figure->efficiency, 0.96, 0.005);
  EXPECT_FALSE(pageable.figure->ceiling && pageable.figure->ceiling->known);
  EXPECT_FALSE(pageable.figure->efficiency.has_value());
}

}  // namespace
}  // namespace gpunet::bench
