// PCIe host<->device copies per GPU: direction x pinned/pageable host memory x local/remote NUMA
// node, against the GPU's link; the pcie suite's all-GPUs-at-once rows and the node suite's copies
// join them.
#include <sstream>

#include "report/model/json_access.hpp"
#include "report/document/table_model.hpp"

namespace gpunet::report {

namespace {

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string gpu_text(const Record& r, const std::vector<std::string>& w) {
  if (r.figure && r.figure->subject.kind == SubjectKind::gpu && !r.figure->subject.device.empty())
    return "GPU " + r.figure->subject.device;
  if (auto g = jsonx::integer(r.extra, "gpu_index")) return "GPU " + std::to_string(*g);
  if (auto g = jsonx::integer(jsonx::section(r.extra, "pcie"), "gpu_index")) return "GPU " + std::to_string(*g);
  if (auto n = jsonx::integer(r.extra, "gpus")) return "all " + std::to_string(*n) + " GPUs";
  return !w.empty() && w[0].rfind("gpu", 0) == 0 ? w[0] : "";
}

std::string memory_text(const Record& r, const std::vector<std::string>& w) {
  if (auto m = jsonx::string(r.extra, "host_memory")) return *m;
  for (const auto& x : w)
    if (x == "pinned" || x == "pageable") return x;
  return "";
}

std::string numa_text(const Record& r, const std::vector<std::string>& w) {
  const auto& p = jsonx::section(r.extra, "pcie");
  std::string where = jsonx::string(r.extra, "numa_placement").value_or("");
  if (where.empty())
    for (const auto& x : w)
      if (x == "local" || x == "remote" || x == "default") where = x;
  if (auto n = jsonx::integer(p, "host_numa")) where += (where.empty() ? "" : " ") + std::string("(node ") + std::to_string(*n) + ")";
  return where;
}

std::string link_text(const Record& r) {
  const auto& p = jsonx::section(r.extra, "pcie");
  const auto gen = jsonx::integer(p, "gen"), width = jsonx::integer(p, "width");
  if (gen && width) return "Gen" + std::to_string(*gen) + " x" + std::to_string(*width);
  return jsonx::string(p, "speed").value_or("");
}

std::string direction_text(const Record& r) {
  std::string d = r.name.rfind("pcie_", 0) == 0 ? r.name.substr(5) : r.name;
  for (auto& c : d) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return d == "BIDIR" ? "both at once" : d;
}

}  // namespace

std::vector<Table> pcie_tables(const Report&, const TableRecords& records) {
  Table t;
  t.kind = TableKind::pcie;
  t.title = "PCIe host-device copies";
  t.csv = "pcie.csv";
  t.note = "bandwidth per direction (both at once: each direction's rate); ceiling: the GPU's link";
  t.columns = {{"host", "", false},        {"GPU", "", false},          {"direction", "", false},
               {"host memory", "", false}, {"NUMA node", "", false},    {"size", "B", true},
               {"bandwidth", "GB/s", true}, {"p50", "us", true},        {"CV", "%", true},
               {"link", "", false},        {"ceiling", "GB/s", true},   {"efficiency", "%", true},
               {"#wrong", "", true},       {"status", "", false}};
  for (const Record* of_kind : records.of(TableKind::pcie)) {
    const Record& r = *of_kind;
    const bool ok = r.status == Status::passed;
    const auto w = words(r.variant);
    const auto c = ceiling_view(r);
    TableRow row;
    row.status = r.status;
    row.cells = {text_cell(r.host),
                 text_cell(gpu_text(r, w)),
                 text_cell(direction_text(r)),
                 text_cell(memory_text(r, w)),
                 text_cell(numa_text(r, w)),
                 int_cell(r.bytes),
                 ok ? figure_cell(r.algbw_GBps) : text_cell(""),
                 ok ? fixed_cell(r.time_us.p50, 2) : text_cell(""),
                 ok ? percent_cell(r.time_us.cv) : text_cell(""),
                 text_cell(link_text(r)),
                 ceiling_cell(c),
                 efficiency_cell(c),
                 text_cell(r.check == "off" ? "N/A" : std::to_string(r.wrong)),
                 status_cell(r)};
    t.rows.push_back(std::move(row));
  }
  return {std::move(t)};
}

}  // namespace gpunet::report
