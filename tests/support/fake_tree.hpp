// A temporary directory tree for tests that read sysfs or procfs: files are written with text
// content, symlinks made, and everything is removed at the end of the test. The gpu, rdma and
// topology tests build their fake trees on it.
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace gpunet::test {

class FakeTree {
 public:
  FakeTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "gpunet-fake-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~FakeTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  const std::string& root() const { return root_; }
  std::string path(const std::string& rel) const { return root_ + "/" + rel; }

  // Written to a temporary name and renamed, so a concurrent reader sees the old or the new text.
  void write(const std::string& rel, const std::string& text) const {
    const auto p = std::filesystem::path(path(rel));
    std::filesystem::create_directories(p.parent_path());
    const auto tmp = p.string() + ".tmp";
    std::ofstream(tmp, std::ios::binary) << text;
    std::filesystem::rename(tmp, p);
  }
  void mkdir(const std::string& rel) const { std::filesystem::create_directories(path(rel)); }
  void link(const std::string& rel, const std::string& target) const {
    const auto p = std::filesystem::path(path(rel));
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_directory_symlink(target, p);
  }

 private:
  std::string root_;
};

}  // namespace gpunet::test
