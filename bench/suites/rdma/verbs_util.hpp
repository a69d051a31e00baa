// Owners for libibverbs objects (freed in reverse order of creation by the members' order), and the
// conversion of ibv_port_attr to the plain codes port_attr.hpp converts.
#pragma once

#include <infiniband/verbs.h>

#include "bench/suites/rdma/port_attr.hpp"

namespace gpunet::bench::rdma {

struct DeviceListFree { void operator()(ibv_device** l) const { ibv_free_device_list(l); } };
struct ContextClose { void operator()(ibv_context* c) const { ibv_close_device(c); } };
struct PdFree { void operator()(ibv_pd* p) const { ibv_dealloc_pd(p); } };
struct MrFree { void operator()(ibv_mr* m) const { ibv_dereg_mr(m); } };
struct CqFree { void operator()(ibv_cq* c) const { ibv_destroy_cq(c); } };
struct QpFree { void operator()(ibv_qp* q) const { ibv_destroy_qp(q); } };

PortAttrCodes port_attr_codes(const ibv_port_attr& a);

}  // namespace gpunet::bench::rdma
