// (CUDA builds only.) The nccl suite: one GPU per rank by local rank; NCCL's INFO log captured per
// rank and parsed for the transports it chose; sweeps of the selected collectives, out of place and
// in place; the scaling sweep; and, on any NCCL error or hang, an abort that names rank, host, step.
#include "bench/suites/nccl/nccl_run.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "bench/engines/cuda_device.hpp"
#include "bench/suites/nccl/nccl_bench.hpp"
#include "bench/suites/nccl/nccl_env.hpp"
#include "bench/suites/nccl/nccl_log.hpp"
#include "bench/engines/wait.hpp"
#include "bench/core/measure/measurement.hpp"
#include "bench/core/sizes.hpp"
#include "bench/core/step_progress.hpp"
#include "bench/engines/scaling.hpp"
#include "bench/engines/scaling_run.hpp"
#include "topology/json.hpp"
#include "topology/nccl_xml.hpp"
#include "topology/topology.hpp"

namespace gpunet::bench::gpu {

namespace {

using gpunet::json;
using report::Collective;

// Every string to rank 0 of comm (empty vector elsewhere).
std::vector<std::string> gather_strings(MPI_Comm comm, const std::string& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<size_t>(size)), offs(static_cast<size_t>(size));
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) {
    offs[static_cast<size_t>(r)] = total;
    total += lens[static_cast<size_t>(r)];
  }
  std::vector<char> all(static_cast<size_t>(std::max(total, 1)));
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r) out.emplace_back(all.data() + offs[static_cast<size_t>(r)], static_cast<size_t>(lens[static_cast<size_t>(r)]));
  return out;
}

std::string short_host() {
  char h[256] = {};
  gethostname(h, sizeof h - 1);
  std::string s(h);
  return s.substr(0, s.find('.'));
}

bool reducing(Collective c) { return c == Collective::allreduce || c == Collective::reduce_scatter || c == Collective::reduce; }

class NcclRun {
 public:
  explicit NcclRun(const SuiteContext& ctx) : ctx_(ctx), timeout_(gpu_wait_timeout_s(ctx.cfg.timeout_s)), steps_(ctx) {}

  // Whether every rank can use GPU `local rank`; on rank 0, `reason` says why not.
  bool gpus_usable(std::string& reason) {
    const auto probe = probe_gpus();
    std::string why = probe.reason;
    if (why.empty() && ctx_.mpi.local_rank >= probe.count)
      why = "local rank " + std::to_string(ctx_.mpi.local_rank) + " but the node has " + std::to_string(probe.count) +
            " GPU(s): run at most one rank per GPU";
    int ok = why.empty(), all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, ctx_.mpi.world);
    if (all) return true;
    const auto whys = gather_strings(ctx_.mpi.world, why);
    int bad = 0;
    for (size_t r = 0; r < whys.size(); ++r)
      if (!whys[r].empty() && bad++ == 0) reason = whys[r] + ", on " + ctx_.mpi.describe_rank(static_cast<int>(r));
    if (bad == ctx_.mpi.size && bad > 1) reason = whys[0] + ", on all " + std::to_string(bad) + " ranks";
    else if (bad > 1) reason += " and " + std::to_string(bad - 1) + " more of " + std::to_string(ctx_.mpi.size) + " ranks";
    return false;
  }

  void setup_env() {
    std::error_code ec;
    std::filesystem::create_directories(ctx_.cfg.output_dir, ec);
    env_ = nccl_env([](const char* n) { return std::getenv(n); }, ctx_.cfg.output_dir, ctx_.mpi.host, ctx_.mpi.rank,
                    ctx_.cfg.nccl_topo_dump, leader_rank());
    if (ec) {
      log_note_ = "cannot create " + ctx_.cfg.output_dir + " on " + ctx_.mpi.host + ": " + ec.message();
      return;  // NCCL would print its log to stdout instead
    }
    for (const auto& s : env_)
      if (!s.user_set) setenv(s.name.c_str(), s.value.c_str(), 1);
    if (log_readable(env_, log_note_)) log_path_ = log_file(env_, short_host(), static_cast<long>(getpid()));
  }

  void run() {
    step_ = "nccl init";
    {
      Step s(ctx_.control, step_);
      world_ = std::make_unique<NcclComm>(ctx_.mpi.world, ctx_.mpi.local_rank, timeout_);
    }
    learn_transports();
    const auto sizes = size_sweep(ctx_.cfg.min_bytes, ctx_.cfg.max_bytes, ctx_.cfg.step_factor, ctx_.cfg.step_bytes);
    plan_steps(sizes.size());
    for (const auto& name : ctx_.cfg.nccl_collectives) {
      const Collective c = *report::collective_from_string(name);
      for (int64_t bytes : sizes) {
        measure(c, bytes, false);
        if (patterns::supports_in_place(c)) measure(c, bytes, true);
      }
    }
    if (ctx_.cfg.scaling) {
      const int64_t bytes = ctx_.cfg.scaling_bytes > 0 ? ctx_.cfg.scaling_bytes : ctx_.cfg.max_bytes;
      run_scaling(ctx_, "nccl", "device", bytes, [&](MPI_Comm comm, const ScalingGroup& g, report::Record& rec) {
        steps_.start_paced("scaling allreduce " + std::to_string(g.nodes.size()) + " nodes" + (g.probe ? " probe" : ""), bytes);
        return scaling_point(comm, g, bytes, rec);
      });
    }
    report_transports();
    report_topology();
    step_ = "nccl finalize";
    world_.reset();
  }

  [[noreturn]] void end(const std::exception& e, bool timed_out) {
    const std::string msg = "nccl: " + ctx_.mpi.describe_rank(ctx_.mpi.rank) + ", step '" + step_ + "': " + e.what();
    std::fprintf(stderr, "gpunet-bench: %s\n", msg.c_str());
    std::fflush(stderr);
    auto rec = ctx_.record("nccl", "error");
    rec.variant = step_;
    rec.status = timed_out ? report::Status::timed_out : report::Status::failed;
    rec.reason = msg;
    rec.extra = {{"culprit_rank", ctx_.mpi.rank}, {"culprit_host", ctx_.mpi.host}};
    ctx_.emit(rec);
    // A hang: the watchdog ends the job with its view of every rank; give it the time to. An error:
    // end the job now, once the record had a moment to reach rank 0.
    const double grace = timed_out ? ctx_.cfg.timeout_s - timeout_ + 8.0 : 1.0;
    std::this_thread::sleep_for(std::chrono::duration<double>(grace));
    MPI_Abort(MPI_COMM_WORLD, 3);
    std::_Exit(3);
  }

 private:
  int leader_rank() const {
    for (int r = 0; r < ctx_.mpi.size; ++r)
      if (ctx_.mpi.node_of_rank[static_cast<size_t>(r)] == ctx_.mpi.node_index) return r;
    return ctx_.mpi.rank;
  }

  json my_summary() const {
    json s;
    if (log_path_.empty()) {
      s = {{"note", log_note_.empty() ? "no NCCL log" : log_note_}};
    } else {
      std::ifstream in(log_path_);
      s = in ? summarize(parse_nccl_log(in, ctx_.mpi.rank)) : json{{"note", "cannot read " + log_path_}};
      s["log_file"] = log_path_;
    }
    if (const char* algo = std::getenv("NCCL_ALGO")) s["algo"] = algo;
    return s;
  }

  // Connections come up at first use: run all_reduce once at the smallest and the largest size,
  // then read every rank's log so the records can say which transports carry the traffic.
  void learn_transports() {
    step_ = "nccl connect";
    {
      Step s(ctx_.control, step_);
      for (int64_t bytes : {ctx_.cfg.min_bytes, ctx_.cfg.max_bytes}) {
        NcclCase warm(Collective::allreduce, "float", "sum", std::max<int64_t>(bytes, 4 * ctx_.mpi.size), false, *world_);
        warm.init();
        warm.enqueue(*world_, timeout_);
        world_->wait(step_, timeout_);
      }
    }
    std::vector<json> all;
    for (const auto& s : gather_strings(ctx_.mpi.world, my_summary().dump())) all.push_back(json::parse(s));
    if (ctx_.mpi.is_root()) merged_ = merge_summaries(all);
  }

  report::Record base_record(Collective c, const std::string& variant, const NcclCase& k, int ranks) const {
    auto rec = ctx_.record("nccl", report::to_string(c));
    rec.variant = variant;
    rec.ranks = ranks;
    rec.dtype = ctx_.cfg.dtype;
    rec.op = reducing(c) ? ctx_.cfg.op : "none";
    rec.count = k.shape().count;
    rec.bytes = k.shape().size_bytes;
    rec.extra["reduction"] = to_string(ctx_.cfg.reduction);
    rec.extra["nccl"] = merged_;
    if (const char* algo = std::getenv("NCCL_ALGO")) rec.extra["nccl"]["algo"] = algo;
    return rec;
  }

  // Times, verifies and fills rec for one collective on comm; returns nothing, rec holds the figures.
  void timed(Collective c, NcclCase& k, NcclComm& comm, MPI_Comm mpi_comm, const std::string& step, report::Record& rec) {
    step_ = step;
    k.init();
    measure::record_timing(rec, time_on_gpu(ctx_, step, mpi_comm, comm, [&](double t) { k.enqueue(comm, t); }));
    if (ctx_.cfg.cuda_graph_launches > 0) rec.extra["timing"]["cuda_graph_launches"] = ctx_.cfg.cuda_graph_launches;
    if (k.moves_no_data()) {
      // The events bracket only the call's host cost: a rate from it read 600,000 GB/s on an H200.
      rec.extra["moves_no_data"] = true;
      rec.extra["note"] = "in place on one rank the output is the input: NCCL puts no work on the GPU, so the time is "
                          "the call's host cost and no rate is given";
    } else {
      rec.algbw_GBps = report::algbw_GBps(rec.bytes, rec.time_us.mean * 1e-6);
      rec.busbw_GBps = report::busbw_GBps(c, rec.bytes, rec.time_us.mean * 1e-6, comm.size());
    }
    if (!ctx_.cfg.check) return;
    step_ = step + " verify";
    Step verify(ctx_.control, step_);
    k.init();
    k.enqueue(comm, timeout_);
    comm.wait(step_, timeout_);
    int64_t wrong = k.wrong();
    MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, mpi_comm);
    rec.wrong = wrong;
    rec.check = wrong == 0 ? "ok" : "wrong";
    if (wrong) {
      rec.status = report::Status::failed;
      rec.reason = std::to_string(wrong) + " wrong elements after " + report::to_string(c);
    }
  }

  // The steps: each collective at each size, out of place and (where it has one) in place, then
  // each node count of the scaling sweep. Their lengths follow the adaptive iteration counts.
  void plan_steps(size_t sizes) {
    for (const auto& name : ctx_.cfg.nccl_collectives)
      steps_.plan(static_cast<int>(sizes) * (patterns::supports_in_place(*report::collective_from_string(name)) ? 2 : 1));
    if (ctx_.cfg.scaling) steps_.plan(static_cast<int>(scaling_groups(ctx_.mpi.num_nodes).size()));
  }

  void measure(Collective c, int64_t bytes, bool in_place) {
    const std::string variant = in_place ? "in-place" : "out-of-place";
    steps_.start_paced(report::to_string(c) + " " + variant, bytes);
    NcclCase k(c, ctx_.cfg.dtype, ctx_.cfg.op, bytes, in_place, *world_);
    auto rec = base_record(c, variant, k, ctx_.mpi.size);
    rec.extra["nodes"] = ctx_.mpi.num_nodes;
    if (k.shape().count == 0) {
      rec.bytes = bytes;
      rec.status = report::Status::skipped;
      rec.reason = "size " + std::to_string(bytes) + " B is smaller than one " + ctx_.cfg.dtype + " per rank";
    } else {
      timed(c, k, *world_, ctx_.mpi.world, "nccl " + report::to_string(c) + " " + format_size(bytes) + " " + variant, rec);
      rec.figure = report::collective_figure("nccl", "device", rec, report::cluster_subject(ctx_.mpi.num_nodes),
                                            measure::batch_means_us(rec));
    }
    if (ctx_.mpi.is_root()) ctx_.emit(rec);
  }

  // One scaling point on a sub-communicator; ranks outside it (comm null) mirror its steps. On two
  // nodes it is measured again with NCCL_ALGO=Ring: NCCL may pick Tree there, whose busbw can
  // exceed what the network carries (report/CEILINGS.md §5.4).
  double scaling_point(MPI_Comm comm, const ScalingGroup& g, int64_t bytes, report::Record& rec) {
    const std::string base = "nccl scaling allreduce " + std::to_string(g.nodes.size()) + " nodes" + (g.probe ? " probe" : "");
    const bool ring = g.nodes.size() == 2 && !g.probe && !std::getenv("NCCL_ALGO");
    std::vector<std::string> runs{base};
    if (ring) runs.push_back(base + " NCCL_ALGO=Ring");
    if (comm == MPI_COMM_NULL) {
      for (const auto& r : runs) {
        idle_step(ctx_, r + " init");
        idle_step(ctx_, r);
        if (ctx_.cfg.check) idle_step(ctx_, r + " verify");
      }
      return 0;
    }
    double busbw = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (i == 1) setenv("NCCL_ALGO", "Ring", 1);
      std::unique_ptr<NcclComm> sub;
      step_ = runs[i] + " init";
      {
        Step s(ctx_.control, step_);
        sub = std::make_unique<NcclComm>(comm, ctx_.mpi.local_rank, timeout_);
      }
      NcclCase k(Collective::allreduce, ctx_.cfg.dtype, ctx_.cfg.op, bytes, false, *sub);
      report::Record r = base_record(Collective::allreduce, rec.variant, k, sub->size());
      r.extra["nodes"] = rec.extra["nodes"];
      r.extra["scaling"] = rec.extra["scaling"];
      timed(Collective::allreduce, k, *sub, comm, runs[i], r);
      if (i == 0) {
        busbw = r.busbw_GBps;
        rec = r;
      } else {
        unsetenv("NCCL_ALGO");
        r.variant += " NCCL_ALGO=Ring";
        r.extra["nccl"]["algo"] = "Ring";
        r.figure = report::collective_figure("nccl", "device", r,
                                             report::group_subject("scaling", "", r.extra["nodes"].get<int>()),
                                             measure::batch_means_us(r));
        if (ctx_.mpi.is_root()) ctx_.emit(r);
      }
      step_ = runs[i] + " finalize";
      sub.reset();
    }
    return busbw;
  }

  void report_transports() {
    auto rec = ctx_.record("nccl", "transport");
    rec.variant = "rank " + std::to_string(ctx_.mpi.rank);
    rec.ranks = 1;
    rec.extra["nccl"] = my_summary();
    rec.extra["gpu_index"] = ctx_.mpi.local_rank;
    ctx_.emit(rec);
  }

  void report_topology() {
    if (!ctx_.cfg.nccl_topo_dump || ctx_.mpi.local_rank != 0) return;
    std::string path;
    for (const auto& s : env_)
      if (s.name == "NCCL_TOPO_DUMP_FILE") path = s.value;
    auto rec = ctx_.record("nccl", "topology");
    rec.ranks = 1;
    rec.extra["nccl_topo_file"] = path;
    if (path.empty() || !std::filesystem::exists(path)) {
      rec.status = report::Status::skipped;
      rec.reason = "NCCL wrote no topology file at '" + path + "'";
      ctx_.emit(rec);
      return;
    }
    // The topology module reads NCCL's view and says where it differs from hwloc's.
    try {
      const topo::NodeTopology nccl = topo::load_topology_file(path);
      rec.extra["nccl_topology"] = topo::to_json(nccl);
      json findings = json::array();
      for (const auto& f : topo::compare_views(topo::discover_local(), nccl)) findings.push_back(topo::to_json(f));
      if (!findings.empty()) rec.extra["findings"] = findings;
    } catch (const std::exception& e) {
      rec.status = report::Status::failed;
      rec.reason = "cannot read NCCL's topology dump " + path + ": " + e.what();
    }
    ctx_.emit(rec);
  }

  const SuiteContext& ctx_;
  const double timeout_;
  std::vector<EnvSetting> env_;
  std::string log_path_, log_note_, step_ = "nccl setup";
  json merged_ = json::object();
  std::unique_ptr<NcclComm> world_;
  StepProgress steps_;  // rank 0 shows it
};

}  // namespace

void run_nccl_suite_cuda(const SuiteContext& ctx) {
  NcclRun run(ctx);
  std::string reason;
  if (!run.gpus_usable(reason)) {
    if (ctx.mpi.is_root()) {
      auto r = ctx.record("nccl", "collectives");
      r.status = report::Status::skipped;
      r.reason = reason;
      r.ranks = ctx.mpi.size;
      ctx.emit(r);
    }
    return;
  }
  run.setup_env();
  try {
    run.run();
  } catch (const NcclError& e) {
    run.end(e, e.kind == NcclError::Kind::timed_out);
  } catch (const std::exception& e) {
    run.end(e, false);
  }
}

}  // namespace gpunet::bench::gpu
