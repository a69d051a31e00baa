// The evidence manifest (bench/core/evidence/manifest.hpp): sha256sum's line format both ways, and the
// member paths a bundle may hold; the SHA-256 of a file against a known digest.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "bench/core/evidence/manifest.hpp"
#include "bench/core/evidence/program_run.hpp"
#include "bench/core/evidence/sha256_file.hpp"

namespace gpunet::evidence {
namespace {

const std::string kHashA(64, 'a');
const std::string kHashB = std::string(63, '0') + "1";

TEST(EvidenceManifest, TextIsSha256sumFormatAndParsesBack) {
  const std::string text = manifest_text({{kHashA, "report.json"}, {kHashB, "provenance/provenance.json"}});
  EXPECT_EQ(text, kHashA + "  report.json\n" + kHashB + "  provenance/provenance.json\n");
  const auto parsed = parse_manifest(text);
  ASSERT_EQ(parsed.error, "");
  ASSERT_EQ(parsed.entries.size(), 2u);
  EXPECT_EQ(parsed.entries[1].path, "provenance/provenance.json");
  EXPECT_EQ(parsed.entries[1].sha256, kHashB);
}

TEST(EvidenceManifest, BinaryModeLineIsRead) {
  const auto parsed = parse_manifest(kHashA + " *junit.xml\n");
  ASSERT_EQ(parsed.error, "");
  EXPECT_EQ(parsed.entries.at(0).path, "junit.xml");
}

TEST(EvidenceManifest, BadLinesAreNamed) {
  EXPECT_EQ(parse_manifest("").error, "no file is listed");
  EXPECT_EQ(parse_manifest(kHashA + "  a\nnot a line\n").error, "line 2 is not \"SHA256  PATH\"");
  EXPECT_EQ(parse_manifest(std::string(64, 'A') + "  a\n").error, "line 1 is not \"SHA256  PATH\"");  // upper case
  EXPECT_EQ(parse_manifest(kHashA + "  ../etc/passwd\n").error, "line 1: a .. component");
  EXPECT_EQ(parse_manifest(kHashA + "  /etc/passwd\n").error, "line 1: an absolute path");
  EXPECT_EQ(parse_manifest(kHashA + "  a\n" + kHashB + "  a\n").error, "line 2: a is listed twice");
}

TEST(EvidenceManifest, UnsafePaths) {
  EXPECT_EQ(unsafe_path_reason("evidence/report.json"), "");
  EXPECT_EQ(unsafe_path_reason("evidence/..data"), "");  // a name that starts with two dots is a name
  EXPECT_EQ(unsafe_path_reason("evidence/../x"), "a .. component");
  EXPECT_EQ(unsafe_path_reason(".."), "a .. component");
  EXPECT_EQ(unsafe_path_reason("/x"), "an absolute path");
  EXPECT_EQ(unsafe_path_reason("a\nb"), "a control character in the path");
  EXPECT_EQ(unsafe_path_reason(""), "an empty path");
}

TEST(EvidenceManifest, PlainFileNames) {
  EXPECT_TRUE(is_plain_file_name("results-20261201T093100Z.jsonl"));
  EXPECT_TRUE(is_plain_file_name("tcp_matrix.csv"));
  EXPECT_FALSE(is_plain_file_name(".gpunet-bench.lock"));
  EXPECT_FALSE(is_plain_file_name("two words.txt"));
  EXPECT_FALSE(is_plain_file_name("a\\b"));
}

TEST(EvidenceSha256, KnownDigest) {
  const PrivateDir dir(temp_parent(), "gpunet-sha-test-");
  const std::string path = dir.path() + "/abc";
  std::ofstream(path) << "abc";
  // FIPS 180-2's first example: SHA-256("abc").
  EXPECT_EQ(sha256_hex_of_file(path), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_THROW(sha256_hex_of_file(dir.path() + "/absent"), std::runtime_error);
}

}  // namespace
}  // namespace gpunet::evidence
