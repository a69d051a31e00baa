// Console lines of rdma records.
#include <gtest/gtest.h>

#include "bench/suites/rdma/console.hpp"

using namespace gpunet;
using gpunet::json;

namespace {
report::Record rec(const std::string& name, const std::string& variant, int64_t bytes) {
  report::Record r;
  r.suite = "rdma";
  r.name = name;
  r.variant = variant;
  r.bytes = bytes;
  return r;
}
}  // namespace

TEST(RdmaConsole, Bandwidth) {
  auto r = rec("write_bw", "0->1 host", 1 << 20);
  r.check = "ok";
  r.extra = {{"bw_Gbps", 92.5}, {"bw_peak_Gbps", 93.25}};
  r.figure = report::rate_figure("rdma.write.bw", 92.5, "Gb/s", report::pair_subject("a", 0, "b", 1),
                                 report::PathModel::rdma_port);
  report::FigureCeiling c;
  c.known = true;
  c.value = 98.04;
  c.unit = "Gb/s";
  r.figure->ceiling = std::make_shared<const report::FigureCeiling>(c);
  r.figure->efficiency = 92.5 / 98.04;
  EXPECT_EQ(bench::rdma::console_line(r), "# rdma write_bw 0->1 host 1M: 92.50 Gb/s (peak 93.25), 94.3% of 98.04 Gb/s, check ok\n");
  r.name = "write_bw_bidir";
  r.figure->ceiling = std::make_shared<const report::FigureCeiling>();  // not known
  r.figure->efficiency.reset();
  EXPECT_EQ(bench::rdma::console_line(r),
            "# rdma write_bw_bidir 0->1 host 1M: 92.50 Gb/s per direction (peak 93.25), ceiling unknown, check ok\n");
}

TEST(RdmaConsole, LatencyConnectAndNotes) {
  auto lat = rec("write_lat", "0<->1 host", 8);
  lat.time_us.p50 = 1.5;
  lat.time_us.mean = 1.625;
  lat.time_us.p99 = 2.25;
  lat.time_us.samples = 1000;
  EXPECT_EQ(bench::rdma::console_line(lat), "# rdma write_lat 0<->1 host 8: 1.50 us p50, 1.62 mean, 2.25 p99 (1000 samples)\n");

  auto c = rec("connect", "0<->1 host", 0);
  c.extra = {{"sides", json::array({{{"device", "mlx5_0"}, {"port", 1}, {"gid_index", 3}, {"gid_type", "RoCE v2"}, {"gid", "::ffff:10.0.0.1"}},
                                    {{"device", "mlx5_1"}, {"port", 1}, {"gid_index", 1}, {"gid_type", "RoCE v2"}, {"gid", "::ffff:10.0.0.2"}}})},
             {"qp", {{"path_mtu", 4096}}}};
  EXPECT_EQ(bench::rdma::console_line(c),
            "# rdma connect 0<->1 host: mlx5_0:1 GID 3 (RoCE v2 ::ffff:10.0.0.1) <-> mlx5_1:1 GID 1 (RoCE v2 ::ffff:10.0.0.2), path MTU 4096\n");

  auto skip = rec("rdma", "", 0);
  skip.status = report::Status::skipped;
  skip.reason = "no RDMA devices";
  EXPECT_EQ(bench::rdma::console_line(skip), "# rdma rdma: skipped (no RDMA devices)\n");
  auto failed = rec("write_bw", "0->1 host", 1024);
  failed.status = report::Status::failed;
  failed.reason = "rank 1 (b): RDMA WRITE completion: transport retry counter exceeded (status 12, vendor error 0x81)";
  EXPECT_EQ(bench::rdma::console_line(failed), "# rdma write_bw 0->1 host: failed (" + failed.reason + ")\n");
}
