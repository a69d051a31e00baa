// Small file-system helpers shared by the sysfs readers (internal to topology/).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpunet::topo::fsutil {

// The first line of a file without trailing white space; nullopt when it cannot be read.
std::optional<std::string> read_line(const std::filesystem::path& p);

// The whole file; nullopt when it cannot be read.
std::optional<std::string> read_text(const std::filesystem::path& p);

// An integer from the first line; nullopt when missing or not a number.
std::optional<long long> read_int(const std::filesystem::path& p);

// The last path component of a symlink's target ("../../bus/pci/drivers/mlx5_core" -> "mlx5_core").
std::string link_basename(const std::filesystem::path& p);

// The PCI function a sysfs device directory belongs to: its own name or the nearest parent
// directory named like a bus id (virtio and auxiliary devices sit below their PCI function).
std::optional<std::string> pci_function_of(const std::filesystem::path& device_link);

// Names of the entries in a directory, sorted; empty when it does not exist.
std::vector<std::string> list_dir(const std::filesystem::path& p);

}  // namespace gpunet::topo::fsutil
