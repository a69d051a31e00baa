#include "bench/suites/rdma/discovery_json.hpp"

namespace gpunet::bench::rdma {

using gpunet::json;

gpunet::json discovery_json(const Discovery& d, const std::string& sys_root) {
  json devices = json::array();
  for (const auto& dev : d.devices) {
    json ports = json::array();
    for (const auto& p : dev.ports) {
      const PortInfo& i = p.info;
      json gids = json::array();
      for (const auto& g : read_gid_table(sys_root, dev.name, p.port))
        gids.push_back({{"index", g.index}, {"gid", format_gid(g.gid)}, {"type", to_string(g.type)}, {"ndev", g.ndev}});
      ports.push_back({{"port", p.port},
                       {"state", i.state},
                       {"phys_state", i.phys_state},
                       {"link_layer", i.link_layer},
                       {"active_mtu", i.active_mtu_bytes},
                       {"max_mtu", i.max_mtu_bytes},
                       {"width", i.width},
                       {"speed", i.speed_name},
                       {"lane_Gbps", i.lane_Gbps},
                       {"rate_Gbps", i.rate_Gbps},
                       {"data_rate_Gbps", i.data_rate_Gbps},
                       {"speed_from_active_speed_ex", i.speed_from_ex},
                       {"lid", i.lid},
                       {"gids", gids}});
    }
    json entry = {{"name", dev.name},
                  {"bus_id", dev.pci.bus_id},
                  {"numa_node", dev.pci.numa_node},
                  {"pcie", {{"gen", dev.pci.gen}, {"width", dev.pci.width}, {"max_gen", dev.pci.max_gen}, {"max_width", dev.pci.max_width}}},
                  {"ports", ports}};
    if (!dev.error.empty()) entry["error"] = dev.error;
    devices.push_back(entry);
  }
  return devices;
}

}  // namespace gpunet::bench::rdma
