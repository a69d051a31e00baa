#include "topology/rdma_verbs.hpp"

#include <infiniband/verbs.h>

#include <memory>
#include <string>

#include "topology/sysfs_rdma.hpp"

namespace gpunet::topo {

namespace {

struct DeviceListDeleter {
  void operator()(ibv_device** list) const { ibv_free_device_list(list); }
};
struct ContextDeleter {
  void operator()(ibv_context* c) const { ibv_close_device(c); }
};

}  // namespace

void add_verbs_details(std::vector<RdmaDevice>& devices) {
  int count = 0;
  std::unique_ptr<ibv_device*, DeviceListDeleter> list(ibv_get_device_list(&count));
  if (!list) return;
  for (int i = 0; i < count; ++i) {
    const std::string name = ibv_get_device_name(list.get()[i]);
    RdmaDevice* target = nullptr;
    for (auto& d : devices)
      if (d.name == name) target = &d;
    if (target == nullptr) continue;
    std::unique_ptr<ibv_context, ContextDeleter> ctx(ibv_open_device(list.get()[i]));
    if (!ctx) continue;
    for (auto& port : target->ports) {
      ibv_port_attr attr{};
      if (port.port < 1 || port.port > 255 || ibv_query_port(ctx.get(), static_cast<uint8_t>(port.port), &attr) != 0)
        continue;
      if (const int bytes = ib_mtu_bytes(static_cast<int>(attr.active_mtu)); bytes > 0) {
        port.active_mtu = bytes;
        port.active_mtu_source = "verbs";
      }
    }
  }
}

}  // namespace gpunet::topo
