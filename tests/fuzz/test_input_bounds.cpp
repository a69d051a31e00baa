// The bounds every input file reader keeps: only regular files (a FIFO, a device, a socket, a
// directory or a symbolic link loop is refused at once, with one line), at most a size per kind,
// JSON nesting and numbers, XML nesting, and hwloc's attribute needs.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <chrono>

#include "common/input_file.hpp"
#include "tests/support/spec_names.hpp"
#include "report/judge/baseline.hpp"
#include "report/render/outputs.hpp"
#include "report/judge/spec.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "topology/findings.hpp"
#include "topology/topology.hpp"

namespace gpunet::fuzz {
namespace {

namespace fs = std::filesystem;

struct TestError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string refusal(const std::string& path, const InputKind& kind = kSpecInput) {
  try {
    (void)read_input_file<TestError>(path, kind);
  } catch (const TestError& e) {
    EXPECT_EQ(message_problem(e.what(), path), "");
    return e.what();
  }
  return "read";
}

std::string spec_error(const std::string& path) {
  try {
    (void)report::load_spec(path, gpunet::test_support::suite_spec_names());
  } catch (const report::SpecError& e) {
    EXPECT_EQ(message_problem(e.what(), path), "");
    return e.what();
  }
  return "loaded";
}

std::string topology_error(const std::string& path) {
  try {
    (void)topo::load_topology_file(path);
  } catch (const topo::InputError& e) {
    EXPECT_EQ(message_problem(e.what(), path), "");
    return e.what();
  }
  return "loaded";
}

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

TEST(InputFile, RefusesWhatIsNotARegularFileAtOnce) {
  ScratchDir dir("kinds");
  const std::string fifo = (dir.path / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_HAS(refusal(fifo), "is a FIFO (named pipe), not a spec file");  // no writer: a blocking open would hang
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_HAS(refusal(dir.path.string()), "is a directory, not a spec file");
  EXPECT_HAS(refusal("/dev/zero", kTopologyInput), "is a device, not a topology file");

  const std::string sock = (dir.path / "sock").string();
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_HAS(refusal(sock), "is a socket");
  ::close(fd);

  const std::string loop = (dir.path / "loop").string();
  fs::create_symlink(dir.path / "loop2", loop);
  fs::create_symlink(dir.path / "loop", dir.path / "loop2");
  EXPECT_HAS(refusal(loop), "a loop of symbolic links");
  EXPECT_HAS(refusal((dir.path / "missing").string()), "no such file (check the path)");
  EXPECT_HAS(refusal(""), "an empty path was given for the spec file");
}

TEST(InputFile, ReadsAtMostTheLimitOfItsKind) {
  ScratchDir dir("size");
  const std::string path = (dir.path / "f").string();
  const InputKind tiny{"tiny file", 10};
  write_text(path, std::string(10, 'x'));
  EXPECT_EQ(read_input_file<TestError>(path, tiny), std::string(10, 'x'));
  write_text(path, std::string(11, 'x'));
  EXPECT_HAS(refusal(path, tiny), "is larger than the 10 bytes a tiny file may be (11 bytes)");
  std::string larger(100003, 'y');
  larger[4096] = 'z';
  write_text(path, larger);
  EXPECT_EQ(read_input_file<TestError>(path, InputKind{"larger file", 1 << 20}), larger);
}

// A file whose size says 0 (procfs) is read to its end all the same, and held to its kind's limit.
TEST(InputFile, ReadsAFileThatStatesNoSizeToItsEnd) {
  const std::string status = read_input_file<TestError>("/proc/self/status", InputKind{"status file", 1 << 20});
  EXPECT_HAS(status, "Name:");
  EXPECT_EQ(status.back(), '\n');
  EXPECT_HAS(refusal("/proc/self/status", InputKind{"status file", 10}), "is larger than the 10 bytes a status file may be");
}

TEST(InputFile, EveryLoaderUsesTheBoundedReader) {
  ScratchDir dir("loaders");
  const std::string fifo = (dir.path / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_HAS(spec_error(fifo), "is a FIFO");
  EXPECT_HAS(spec_error(dir.path.string()), "is a directory, not a spec file");
  EXPECT_HAS(topology_error(fifo), "is a FIFO");
  const auto loaded = report::load_results(fifo);
  EXPECT_FALSE(loaded.report.has_value());
  EXPECT_HAS(loaded.error, "is a FIFO");
  try {
    (void)report::load_baseline(fifo);
    ADD_FAILURE() << "loaded";
  } catch (const report::BaselineError& e) {
    EXPECT_HAS(e.what(), "is a FIFO (named pipe), not a baseline file");
  }
}

TEST(JsonBounds, NumbersOutOfRangeNameTheFieldAndLine) {
  ScratchDir dir("numbers");
  const std::string path = (dir.path / "spec.json").string();
  write_text(path, "{\n  \"spec_version\": 1e999\n}\n");
  const std::string e = spec_error(path);
  EXPECT_HAS(e, "spec_version: the number 1e999 is too large");
  EXPECT_HAS(e, "line 2");
  write_text(path, "{\"spec_version\": 1e999}\n");  // one line: read as results.jsonl
  const auto as_report = report::load_results(path);
  EXPECT_HAS(as_report.error, "line 1 is not valid JSON: spec_version: the number 1e999 is too large");
}

TEST(JsonBounds, NumbersBeyondAnyFigureAreRefused) {
  // Finite, but sums and averages of them are not: a busbw of -1e308 printed "Avg bus bandwidth : -inf".
  ScratchDir dir("range");
  const std::string spec = (dir.path / "spec.json").string();
  write_text(spec, "{\"spec_version\": 2,\n \"bandwidth\": [{\"suite\": \"mpi\", \"name\": \"allreduce\", \"min\": 1e300}]}");
  EXPECT_HAS(spec_error(spec), "bandwidth[0].min: the number 1e300 is out of range");
  write_text(spec, "{\"spec_version\": 2, \"bandwidth\": [{\"suite\": \"mpi\", \"name\": \"allreduce\", \"min\": 1e-300}]}");
  EXPECT_HAS(spec_error(spec), "bandwidth[0].min: the number 1e-300 is out of range");
  write_text(spec, "{\"spec_version\": 2, \"bandwidth\": [{\"suite\": \"mpi\", \"name\": \"allreduce\", \"min\": 1e12}]}");
  EXPECT_EQ(spec_error(spec), "loaded");  // a large number within the range is the spec's own to judge

  std::string fixture = read_text(source_dir() / "tests/data/report/fixture.json");
  const auto busbw = fixture.find("\"busbw_GBps\"");
  ASSERT_NE(busbw, std::string::npos);
  const auto value = fixture.find(':', busbw) + 1;
  fixture.replace(value, fixture.find_first_of(",}", value) - value, " -1e308");
  const std::string report = (dir.path / "report.json").string();
  write_text(report, fixture);
  const auto loaded = report::load_results(report);
  EXPECT_FALSE(loaded.report.has_value());
  EXPECT_HAS(loaded.error, "busbw_GBps: the number -1e308 is out of range");
  EXPECT_EQ(message_problem(loaded.error, report), "");

  const std::string jsonl = (dir.path / "results.jsonl").string();
  write_text(jsonl, "{\"provenance\": {}}\n{\"suite\": \"mpi\", \"name\": \"allreduce\", \"status\": \"passed\", \"time_us\": 4.9e-324}\n");
  const auto lines = report::load_results(jsonl);
  EXPECT_FALSE(lines.report.has_value());
  EXPECT_HAS(lines.error, "line 2");
  EXPECT_HAS(lines.error, "time_us: the number 4.9e-324 is out of range");
}

TEST(JsonBounds, DeepNestingIsRefusedWithOneLine) {
  ScratchDir dir("deep");
  const std::string deep = std::string(5000, '[') + std::string(5000, ']');
  const std::string spec = (dir.path / "spec.json").string();
  write_text(spec, "{\"spec_version\": 1, \"name\": " + deep + "}");
  EXPECT_HAS(spec_error(spec), "name[0][0]");
  EXPECT_HAS(spec_error(spec), "nested deeper than 64 levels");

  const std::string fixture = read_text(source_dir() / "tests/data/report/fixture.json");
  const std::string report = (dir.path / "report.json").string();
  const auto results = fixture.find("\"results\"");
  ASSERT_NE(results, std::string::npos);
  std::string text = fixture;
  text.insert(results, "\"findings\": " + deep + ", ");
  write_text(report, text);
  const auto loaded = report::load_results(report);
  EXPECT_HAS(loaded.error, "not a valid report.json: findings: nested deeper than 64 levels");
}

std::string nested_pci(std::size_t levels) {
  std::string open, close;
  for (std::size_t i = 0; i < levels; ++i) {
    open += "<pci busid=\"0000:01:00.0\" class=\"0x060400\">";
    close += "</pci>";
  }
  return "<system version=\"1\"><cpu numaid=\"0\" affinity=\"0000ffff\">" + open +
         "<pci busid=\"0000:02:00.0\" class=\"0x030200\"/>" + close + "</cpu></system>";
}

long max_rss_kb() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

TEST(XmlBounds, DeepNcclTopologyIsRefusedWithoutGrowing) {
  ScratchDir dir("nccl");
  const std::string path = (dir.path / "deep.xml").string();
  write_text(path, nested_pci(10000));
  const long before = max_rss_kb();
  EXPECT_HAS(topology_error(path), "elements nest deeper than 64 levels");
  EXPECT_LT(max_rss_kb() - before, 200 * 1024) << "KB grown";

  write_text(path, nested_pci(40));  // deep, but within the bound: loads, nearest switch first
  const topo::NodeTopology t = topo::load_topology_file(path);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].ancestors.size(), 41u);
  EXPECT_EQ(t.devices[0].ancestors.front().kind, topo::Ancestor::Kind::pci_bridge);
  EXPECT_EQ(t.devices[0].ancestors.back().kind, topo::Ancestor::Kind::host_bridge);
}

TEST(XmlBounds, HwlocImportNeverSeesADtdAndNeedsItsCpusets) {
  ScratchDir dir("hwloc");
  const std::string original = read_text(source_dir() / "tests/data/topologies/synthetic-snc-2x2.xml");
  const std::string path = (dir.path / "t.xml").string();
  std::string with_dtd = original;
  with_dtd.replace(with_dtd.find("<!DOCTYPE"), with_dtd.find('>', with_dtd.find("<!DOCTYPE")) - with_dtd.find("<!DOCTYPE") + 1,
                   "<!DOCTYPE topology [<!ENTITY unused \"x\">]>");
  write_text(path, with_dtd);
  const auto expected = topo::load_topology_file((source_dir() / "tests/data/topologies/synthetic-snc-2x2.xml").string());
  EXPECT_EQ(topo::load_topology_file(path).devices.size(), expected.devices.size());

  std::string renamed = original;  // on the top object, then on the one below
  renamed.replace(renamed.find("complete_cpuset="), 16, "complete_cpusetX=");
  write_text(path, renamed);
  EXPECT_HAS(topology_error(path), "<object type=\"Machine\"> number 1 (at byte 107): the top object has no complete_cpuset");
  renamed = original;
  renamed.replace(renamed.find("complete_cpuset=", renamed.find("complete_cpuset=") + 1), 16, "complete_cpusetX=");
  write_text(path, renamed);
  EXPECT_HAS(topology_error(path), "number 2 (at byte");
  EXPECT_HAS(topology_error(path), "has cpuset but no complete_cpuset");
}

// hwloc drops a PCI object whose bus id it cannot read, without a word: the GPU vanished from the
// matrix. The loader keeps a line for it and the analysis makes it a finding.
TEST(XmlBounds, PciObjectWithAnUnreadableBusIdIsAFinding) {
  ScratchDir dir("busid");
  const fs::path source = source_dir() / "tests/data/topologies/ibm-ac922-lassen-4xv100.xml";
  std::string text = read_text(source);
  const std::string gpu = "pci_busid=\"0004:04:00.0\"";
  ASSERT_NE(text.find(gpu), std::string::npos);
  text.replace(text.find(gpu), gpu.size(), "pci_busid=\"zz:garbage\"");
  const std::string path = (dir.path / "t.xml").string();
  write_text(path, text);
  const topo::NodeTopology original = topo::load_topology_file(source.string());
  const topo::NodeTopology t = topo::load_topology_file(path);
  EXPECT_EQ(t.gpus().size() + 1, original.gpus().size());  // hwloc still leaves it out
  EXPECT_TRUE(original.unread.empty());
  ASSERT_EQ(t.unread.size(), 1u);
  EXPECT_HAS(t.unread[0], "pci_busid \"zz:garbage\" is not a PCI bus id (dddd:bb:dd.f), so hwloc leaves this GPU out");
  const auto findings = topo::analyze(t, {});
  const auto it = std::find_if(findings.begin(), findings.end(), [](const topo::Finding& f) { return f.kind == "unreadable_object"; });
  ASSERT_NE(it, findings.end());
  EXPECT_EQ(it->severity, topo::Severity::warning);
  EXPECT_HAS(it->message, "zz:garbage");
}

// nlohmann's syntax error quotes what it read last ("last read: '...'"), which can be kilobytes.
TEST(JsonBounds, ASyntaxErrorQuotesLittleOfTheFile) {
  ScratchDir dir("syntax");
  const std::string spec = (dir.path / "spec.json").string();
  write_text(spec, "{\"spec_version\": 2,\n\"spec_versi" + std::string(2000, '[') + "\n");
  const std::string e = spec_error(spec);
  EXPECT_HAS(e, "not valid JSON");
  EXPECT_LT(e.size(), 500u) << e.size();
}

}  // namespace
}  // namespace gpunet::fuzz
