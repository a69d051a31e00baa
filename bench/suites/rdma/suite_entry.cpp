// The rdma suite's entry in the suite list: its options and console line; the run is rdma.cpp.
#include "bench/suites/rdma/suite_entry.hpp"

#include <CLI/CLI.hpp>

#include "bench/core/cli_size.hpp"
#include "bench/suites/rdma/console.hpp"
#include "bench/suites/rdma/rails.hpp"

namespace gpunet::bench {

namespace {

void add_rdma_options(CLI::App& app, Config& c, OptionText&) {
  const std::string g = "rdma suite";
  app.add_option("--rdma-dev", c.rdma_dev, "RDMA device (and port) for the rdma suite, e.g. mlx5_0 or mlx5_0:1; "
                 "a list (mlx5_0,mlx5_1) or all (every ACTIVE port) gives one rail per port; "
                 "default: the first ACTIVE port")->type_name("DEV[:PORT][,...]|all")->group(g);
  app.add_option("--gid-index", c.gid_index, "RoCE GID index on every rank (default: chosen per rank, "
                 "IPv4-mapped global RoCE v2 first)")->check(CLI::Range(0, 65535))->group(g);
  app.add_flag("--rdma-ipv6", c.rdma_ipv6, "Prefer IPv6 GIDs to IPv4-mapped ones")->group(g);
  app.add_option("--rdma-mode", c.rdma_mode, "pair: the first two ranks (on different nodes when there are), "
                 "full sweep; matrix: every pair of ranks in N-1 rounds at --rdma-size")
      ->check(CLI::IsMember({"pair", "matrix"}))->capture_default_str()->group(g);
  app.add_flag("--rdma-bidir", c.rdma_bidir, "Also measure both directions at once")->group(g);
  add_size_option(app, "--rdma-size", c.rdma_size, "The one large RDMA message size (headline figure, matrix cells)")
      ->default_str("1M")->group(g);
  app.add_option("--rdma-tx-depth", c.rdma_tx_depth, "RDMA WRITEs in flight per queue pair")
      ->check(CLI::Range(1, 8192))->capture_default_str()->group(g);
  app.add_option("--rdma-mem", c.rdma_mem, "Memory the rdma suite registers: host (on the NIC's NUMA node), "
                 "cuda (GPUDirect RDMA), auto (host, plus cuda when built with CUDA)")
      ->check(CLI::IsMember({"host", "cuda", "auto"}))->capture_default_str()->group(g);
}

std::string finish_rdma_options(Config& c, const OptionText&, const CLI::App&) {
  if (c.rdma_size > (1LL << 30)) return "--rdma-size: RDMA messages are at most 1G here";
  rdma::RdmaDevRequest request;
  return rdma::parse_rdma_devs(c.rdma_dev, request);
}

report::RecordKind rdma_record_kind(const report::Record& r) {
  if (r.name == "write_bw" || r.name == "write_bw_bidir") return report::RecordKind::rdma_bandwidth;
  if (r.name == "write_lat") return report::RecordKind::rdma_latency;
  return report::RecordKind::rdma_other;
}

std::vector<report::KnownTest> rdma_spec_tests() {
  std::vector<report::KnownTest> out;
  for (const char* test : {"write_bw", "write_bw_bidir", "write_lat", "latency", "connect", "gpudirect", "devices"}) {
    const std::string t = test;
    std::vector<report::KnownMetric> metrics;
    if (t == "write_bw" || t == "write_bw_bidir") metrics = {{"write.bw", "extra.bw_Gbps"}};
    if (t == "write_lat" || t == "latency") metrics = {{"write.latency", "time_us.p50"}};
    out.push_back({"", test, {}, {}, "", false, metrics});
  }
  return out;
}

}  // namespace

Suite rdma_suite() {
  Suite s;
  s.name = "rdma";
  s.help = "RDMA WRITE bandwidth and latency between rank pairs over libibverbs (skipped without a device)";
  s.spec_tests = rdma_spec_tests();
  s.record_kind = rdma_record_kind;
  s.add_options = add_rdma_options;
  s.finish_options = finish_rdma_options;
  s.run = run_rdma_suite;
  s.console = rdma::console_line;
  return s;
}

}  // namespace gpunet::bench
