// Device and port discovery with libibverbs.
#include <infiniband/verbs.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/verbs_util.hpp"

namespace gpunet::bench::rdma {

PortAttrCodes port_attr_codes(const ibv_port_attr& a) {
  PortAttrCodes c;
  c.state = static_cast<int>(a.state);
  c.phys_state = a.phys_state;
  c.link_layer = a.link_layer;
  c.max_mtu = static_cast<int>(a.max_mtu);
  c.active_mtu = static_cast<int>(a.active_mtu);
  c.active_width = a.active_width;
  c.active_speed = a.active_speed;
#if GPUNET_IBV_HAS_SPEED_EX
  c.active_speed_ex = a.active_speed_ex;
#endif
  c.gid_tbl_len = a.gid_tbl_len;
  c.lid = a.lid;
  return c;
}

Discovery discover_devices(const std::string& sys_root) {
  Discovery d;
  d.built_with_verbs = true;
  int count = 0;
  errno = 0;
  std::unique_ptr<ibv_device*, DeviceListFree> list(ibv_get_device_list(&count));
  if (!list) {
    // No kernel support or no devices: both mean there is nothing to use here.
    if (errno != ENOSYS && errno != ENODEV && errno != ENOENT && errno != 0)
      d.error = std::string("ibv_get_device_list: ") + std::strerror(errno);
    return d;
  }
  for (int i = 0; i < count; ++i) {
    DeviceEntry e;
    e.name = ibv_get_device_name(list.get()[i]);
    e.pci = read_nic_pci(sys_root, e.name);
    std::unique_ptr<ibv_context, ContextClose> ctx(ibv_open_device(list.get()[i]));
    ibv_device_attr attr{};
    if (!ctx) {
      e.error = std::string("ibv_open_device: ") + std::strerror(errno);
    } else if (const int rc = ibv_query_device(ctx.get(), &attr); rc != 0) {
      e.error = std::string("ibv_query_device: ") + std::strerror(rc);
    } else {
      for (int p = 1; p <= attr.phys_port_cnt; ++p) {
        ibv_port_attr pa{};
        if (const int prc = ibv_query_port(ctx.get(), static_cast<uint8_t>(p), &pa); prc != 0) {
          e.error = "ibv_query_port " + std::to_string(p) + ": " + std::strerror(prc);
          continue;
        }
        e.ports.push_back({p, convert_port_attr(port_attr_codes(pa))});
      }
    }
    d.devices.push_back(std::move(e));
  }
  return d;
}

}  // namespace gpunet::bench::rdma
