// A sysfs-like directory tree in a fresh temporary directory (tests/support/fake_tree.hpp) that can
// also lay out RDMA ports.
#pragma once

#include <string>

#include "tests/support/fake_tree.hpp"

namespace gpunet::test {

// FakeTree with the RDMA port layout.
class SysfsTree : public FakeTree {
 public:
  // One GID entry of an RDMA port, as the kernel lays it out. type "" = no type file (InfiniBand).
  void gid(const std::string& dev, int port, int index, const std::string& gid, const std::string& type,
           const std::string& ndev = "") const {
    const std::string base = "class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
    write(base + "gids/" + std::to_string(index), gid + "\n");
    if (!type.empty()) write(base + "gid_attrs/types/" + std::to_string(index), type + "\n");
    if (!ndev.empty()) write(base + "gid_attrs/ndevs/" + std::to_string(index), ndev + "\n");
  }
};

}  // namespace gpunet::test
