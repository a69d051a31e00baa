// A sysfs-like directory tree in a fresh temporary directory, removed at the end of the test.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace gpunet::test {

class SysfsTree {
 public:
  SysfsTree() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "gpunet-sysfs-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
  }
  ~SysfsTree() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  SysfsTree(const SysfsTree&) = delete;
  SysfsTree& operator=(const SysfsTree&) = delete;

  const std::string& root() const { return root_; }

  void write(const std::string& rel, const std::string& content) const {
    const auto p = std::filesystem::path(root_) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  void link(const std::string& rel, const std::string& target) const {
    const auto p = std::filesystem::path(root_) / rel;
    std::filesystem::create_directories(p.parent_path());
    std::filesystem::create_directory_symlink(target, p);
  }
  void mkdir(const std::string& rel) const { std::filesystem::create_directories(std::filesystem::path(root_) / rel); }

  // One GID entry of an RDMA port, as the kernel lays it out. type "" = no type file (InfiniBand).
  void gid(const std::string& dev, int port, int index, const std::string& gid, const std::string& type,
           const std::string& ndev = "") const {
    const std::string base = "class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
    write(base + "gids/" + std::to_string(index), gid + "\n");
    if (!type.empty()) write(base + "gid_attrs/types/" + std::to_string(index), type + "\n");
    if (!ndev.empty()) write(base + "gid_attrs/ndevs/" + std::to_string(index), ndev + "\n");
  }

 private:
  std::string root_;
};

}  // namespace gpunet::test
