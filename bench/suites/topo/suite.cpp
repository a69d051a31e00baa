// The `topo` suite: one leader rank per node discovers its node's topology (hwloc + sysfs), analyses
// it, emits a record carrying its findings and sends its section to rank 0, which compares the nodes
// (another record) and fills the report's topology. Also the offline mode `--topology-xml FILE`,
// which needs no MPI.
#include <cstdlib>
#include <iostream>
#include <map>

#include "bench/suites/topo/suite.hpp"
#include "bench/suites/topo/mpi_interfaces.hpp"
#include "topology/json.hpp"
#include "topology/nccl_xml.hpp"
#include "topology/render.hpp"
#include "topology/topology.hpp"

namespace gpunet::bench {

namespace {

using gpunet::json;

// The interface NCCL's socket transport is told to use, when NCCL_SOCKET_IFNAME names exactly one.
std::string data_interface_from_env() {
  const char* v = std::getenv("NCCL_SOCKET_IFNAME");
  std::string s = v ? v : "";
  if (!s.empty() && s.front() == '=') s.erase(0, 1);
  if (s.empty() || s.front() == '^' || s.find(',') != std::string::npos) return "";
  return s;
}

// Where the file in NCCL_TOPO_FILE (what NCCL will believe) disagrees with what hwloc sees here.
std::vector<topo::Finding> nccl_topo_file_findings(const topo::NodeTopology& live) {
  const char* path = std::getenv("NCCL_TOPO_FILE");
  if (path == nullptr || *path == '\0') return {};
  try {
    const topo::NodeTopology nccl = topo::load_topology_file(path);
    if (nccl.format == topo::SourceFormat::nccl_xml) return topo::compare_views(live, nccl);
    return {{topo::Severity::warning, "nccl_topo_file",
             std::string("NCCL_TOPO_FILE=") + path + " is an hwloc export, not an NCCL topology file.", {path},
             live.hostname}};
  } catch (const topo::InputError& e) {
    return {{topo::Severity::warning, "nccl_topo_file", std::string("NCCL_TOPO_FILE cannot be used: ") + e.what(),
             {path}, live.hostname}};
  }
}

// Discovery and analysis on a node leader: emits the node's record, returns what rank 0 needs.
json discover_node(const SuiteContext& ctx) {
  auto rec = ctx.record("topo", "node");
  rec.variant = ctx.mpi.host;
  json payload = {{"host", ctx.mpi.host}};
  try {
    topo::NodeTopology t = topo::discover_local();
    t.hostname = ctx.mpi.host;  // the name every record of this node carries
    auto findings = topo::analyze(t, {ctx.mpi.num_nodes > 1, data_interface_from_env()});
    for (auto& f : nccl_topo_file_findings(t)) findings.push_back(std::move(f));
    json list = json::array();
    for (const auto& f : findings) list.push_back(topo::to_json(f));
    rec.extra = {{"gpus", t.gpus().size()},
                 {"nics", t.nics().size()},
                 {"rdma_devices", t.rdma.size()},
                 {"packages", t.cpu.packages},
                 {"numa_nodes", t.cpu.numa_nodes.size()},
                 {"findings", list}};
    payload["section"] = topo::to_json(t);
    // The evidence bundle keeps what hwloc itself saw on each node (bench/core/evidence/bundle_write.cpp).
    if (ctx.cfg.evidence && !t.hwloc_xml.empty()) payload["section"]["hwloc_xml"] = t.hwloc_xml;
    payload["section"]["mpi_interfaces"] = mpi_interfaces_from_env(t);
    payload["findings"] = list;
    payload["summary"] = topo::summarize(t);
  } catch (const std::exception& e) {
    rec.status = report::Status::skipped;
    rec.reason = std::string("topology discovery failed: ") + e.what();
    const json failed = topo::to_json(
        topo::Finding{topo::Severity::warning, "discovery_failed", rec.reason + ".", {ctx.mpi.host}, ctx.mpi.host});
    rec.extra = {{"findings", json::array({failed})}};
    payload["findings"] = rec.extra["findings"];
  }
  ctx.emit(rec);
  return payload;
}

// Every leader's text at leader rank 0 (world rank 0); empty elsewhere.
std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(static_cast<size_t>(size)), offsets(static_cast<size_t>(size));
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int i = 0; i < size; ++i) {
    offsets[static_cast<size_t>(i)] = total;
    total += lens[static_cast<size_t>(i)];
  }
  std::string all(rank == 0 ? static_cast<size_t>(total) : 0, '\0');
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  if (rank == 0)
    for (int i = 0; i < size; ++i)
      out.push_back(all.substr(static_cast<size_t>(offsets[static_cast<size_t>(i)]), static_cast<size_t>(lens[static_cast<size_t>(i)])));
  return out;
}

// Rank 0: the nodes' sections into the report, their findings and the cross-node comparison's for the
// console (the report gets the findings from the records' extra.findings).
void combine(const SuiteContext& ctx, const std::vector<std::string>& payloads) {
  std::vector<topo::NodeSummary> summaries;
  for (const auto& text : payloads) {
    const json p = json::parse(text);
    for (const auto& f : p.at("findings")) ctx.sections.topology_findings.push_back(f);
    if (!p.contains("section")) continue;
    ctx.sections.topology[p.at("host").get<std::string>()] = p.at("section");
    summaries.push_back(p.at("summary").get<topo::NodeSummary>());
  }
  auto rec = ctx.record("topo", "compare");
  json list = json::array();
  for (const auto& f : topo::compare_nodes(summaries)) {
    list.push_back(topo::to_json(f));
    ctx.sections.topology_findings.push_back(list.back());
  }
  rec.extra = {{"nodes", summaries.size()}, {"findings", list}};
  ctx.emit(rec);
}

}  // namespace

void run_topo_suite(const SuiteContext& ctx) {
  Step step(ctx.control, "topo discovery");
  if (ctx.mpi.leaders != MPI_COMM_NULL) {
    const auto payloads = gather_strings(discover_node(ctx).dump(), ctx.mpi.leaders);
    if (ctx.mpi.is_root()) combine(ctx, payloads);
  }
  MPI_Barrier(ctx.mpi.world);
}

std::string render_topology_console(const ReportSections& sections) {
  // Nodes with the same matrix (all but the first line, which names the host) print it once.
  std::map<std::string, std::vector<std::string>> hosts_by_body;
  std::map<std::string, std::string> first_line;
  for (const auto& [host, section] : sections.topology.items()) {
    const std::string text = section.value("matrix_text", "");
    const auto nl = text.find('\n');
    const std::string body = nl == std::string::npos ? "" : text.substr(nl + 1);
    if (!first_line.count(body)) first_line[body] = text.substr(0, nl);
    hosts_by_body[body].push_back(host);
  }
  std::string out;
  for (const auto& [body, hosts] : hosts_by_body) {
    out += "# topo: " + first_line[body];
    if (hosts.size() > 1) {
      out += "; the same on";
      for (size_t i = 1; i < hosts.size(); ++i) out += " " + hosts[i];
    }
    out += "\n" + body + "\n";
  }
  std::vector<topo::Finding> findings;
  for (const auto& f : sections.topology_findings) findings.push_back(topo::finding_from_json(f));
  return out + topo::render_findings(findings);
}

namespace {

report::RecordKind topo_record_kind(const report::Record& r) {
  if (r.name == "node") return report::RecordKind::topology_node;
  if (r.name == "compare") return report::RecordKind::topology_compare;
  return report::RecordKind::other;
}

}  // namespace

Suite topo_suite() {
  Suite s;
  s.name = "topo";
  s.help = "node topology: GPUs, NICs, PCIe links, NUMA; the path matrix and the node that differs";
  s.spec_tests = {{"", "node", {}, {}, "", false, {}}, {"", "compare", {}, {}, "", false, {}}};
  s.record_kind = topo_record_kind;
  s.run = run_topo_suite;
  s.console_summary = render_topology_console;
  return s;
}

int run_topology_file(const Config& cfg) {
  try {
    const topo::NodeTopology t = topo::load_topology_file(cfg.topology_xml);
    const std::string pairing = topo::render_pairing(t);
    std::cout << topo::render_matrix(t) << "\n" << pairing << (pairing.empty() ? "" : "\n")
              << topo::render_findings(topo::analyze(t, {}));
    return 0;
  } catch (const topo::InputError& e) {
    std::cerr << "gpunet-bench: error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace gpunet::bench
