// One RC queue pair with its registered buffer, on libibverbs.
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "bench/suites/rdma/engine.hpp"
#include "bench/suites/rdma/verbs_util.hpp"

namespace gpunet::bench::rdma {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kInlineWanted = 220;
constexpr int kPollBatch = 16;

ibv_mtu mtu_enum(uint32_t bytes) {
  if (bytes >= 4096) return IBV_MTU_4096;
  if (bytes >= 2048) return IBV_MTU_2048;
  if (bytes >= 1024) return IBV_MTU_1024;
  if (bytes >= 512) return IBV_MTU_512;
  return IBV_MTU_256;
}

std::string wc_text(const char* what, const ibv_wc& wc) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " (status %d, vendor error 0x%x)", static_cast<int>(wc.status), wc.vendor_err);
  return std::string(what) + " completion: " + ibv_wc_status_str(wc.status) + buf;
}

class VerbsEndpoint final : public Endpoint {
 public:
  explicit VerbsEndpoint(const EndpointConfig& cfg) : cfg_(cfg), cq_mod_(std::max(1, cfg.tx_depth / 4)) {}

  bool open(std::string& error);
  QpInfo local_info() const override { return local_; }
  const EndpointFacts& facts() const override { return facts_; }
  bool connect(const QpInfo& remote) override;
  bool write_burst(int64_t bytes, int count) override;
  bool wait_immediate() override;
  bool ping(int64_t bytes) override;
  Buffer& buffer() override { return *buf_; }
  size_t half_bytes() const override { return cfg_.half_bytes; }
  const std::string& error() const override { return error_; }

 private:
  bool fail(const std::string& what) {
    if (error_.empty()) error_ = what;
    return false;
  }
  Clock::time_point deadline() const {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(cfg_.deadline_s));
  }
  std::string late(const char* what) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: no completion within %.1f s (the peer is silent or unreachable)", what, cfg_.deadline_s);
    return buf;
  }
  bool choose_gid();
  bool register_buffer();
  bool create_qp();
  bool post_recvs(int n);
  bool post_write(int64_t bytes, bool with_immediate, bool force_signal);
  bool reap_sends(bool block_for_room, Clock::time_point until);
  bool wait_all_sent(Clock::time_point until);

  EndpointConfig cfg_;
  EndpointFacts facts_;
  std::unique_ptr<ibv_context, ContextClose> ctx_;
  std::unique_ptr<ibv_pd, PdFree> pd_;
  std::unique_ptr<Buffer> buf_;
  std::unique_ptr<ibv_mr, MrFree> mr_;
  std::unique_ptr<ibv_cq, CqFree> send_cq_, recv_cq_;
  std::unique_ptr<ibv_qp, QpFree> qp_;
  QpInfo local_{}, remote_{};
  bool global_ = false;  // routed by GID (RoCE always; InfiniBand with --gid-index)
  const int cq_mod_;     // every cq_mod_-th WRITE is signalled
  uint64_t posted_ = 0, completed_ = 0;  // WRITEs posted and known complete, cumulative
  uint32_t imm_seq_ = 0;
  std::string error_;
};

bool VerbsEndpoint::open(std::string& error) {
  auto bail = [&error](std::string why) {
    error = std::move(why);
    return false;
  };
  int count = 0;
  std::unique_ptr<ibv_device*, DeviceListFree> list(ibv_get_device_list(&count));
  for (int i = 0; list && i < count && !ctx_; ++i)
    if (cfg_.device == ibv_get_device_name(list.get()[i])) {
      ctx_.reset(ibv_open_device(list.get()[i]));
      if (!ctx_) return bail("ibv_open_device " + cfg_.device + ": " + std::strerror(errno));
    }
  if (!ctx_) return bail("RDMA device " + cfg_.device + " is gone");
  ibv_port_attr pa{};
  if (const int rc = ibv_query_port(ctx_.get(), static_cast<uint8_t>(cfg_.port), &pa); rc != 0)
    return bail(std::string("ibv_query_port: ") + std::strerror(rc));
  facts_.port = convert_port_attr(port_attr_codes(pa));
  if (!facts_.port.active) return bail(cfg_.device + ":" + std::to_string(cfg_.port) + " is " + facts_.port.state);
  local_.lid = pa.lid;
  local_.mtu = static_cast<uint32_t>(facts_.port.active_mtu_bytes);
  if (!choose_gid()) return bail(error_);
  pd_.reset(ibv_alloc_pd(ctx_.get()));
  if (!pd_) return bail(std::string("ibv_alloc_pd: ") + std::strerror(errno));
  if (cfg_.memory == MemoryKind::cuda) {
    std::string why;
    buf_ = make_cuda_buffer(2 * cfg_.half_bytes, cfg_.cuda_device, why);
    if (!buf_) return bail(why);
  } else {
    buf_ = make_host_buffer(2 * cfg_.half_bytes, cfg_.numa_node);
  }
  facts_.memory = buf_->describe();
  if (!register_buffer() || !create_qp() || !post_recvs(cfg_.rx_depth)) return bail(error_);
  local_.qpn = qp_->qp_num;
  local_.psn = (cfg_.psn_seed * 2654435761u + 0x1234u) & 0xffffffu;
  local_.rkey = mr_->rkey;
  local_.addr = reinterpret_cast<uint64_t>(buf_->data()) + cfg_.half_bytes;
  return true;
}

bool VerbsEndpoint::choose_gid() {
  const bool roce = facts_.port.link_layer == "Ethernet";
  const auto table = read_gid_table(cfg_.sys_root, cfg_.device, cfg_.port);
  if (!roce && cfg_.gid.forced_index < 0) {
    facts_.gid.reason = "InfiniBand: routed by LID " + std::to_string(local_.lid) + " (no GRH)";
    return local_.lid != 0 || fail("InfiniBand port has LID 0 (is a subnet manager running?)");
  }
  facts_.gid = rdma::choose_gid(table, cfg_.gid);
  if (!facts_.gid.ok) return fail(cfg_.device + ":" + std::to_string(cfg_.port) + ": " + facts_.gid.reason);
  global_ = true;
  local_.gid = facts_.gid.entry.gid;
  local_.gid_index = facts_.gid.entry.index;
  return true;
}

bool VerbsEndpoint::register_buffer() {
  const int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
  void* p = buf_->data();
  const size_t n = buf_->size();
  if (!buf_->device_memory()) {
    mr_.reset(ibv_reg_mr(pd_.get(), p, n, access));
    facts_.registration = "ibv_reg_mr";
    return mr_ || fail(std::string("ibv_reg_mr (host memory): ") + std::strerror(errno));
  }
  std::string dmabuf_why;
  if (const int fd = buf_->export_dmabuf(dmabuf_why); fd >= 0) {
    mr_.reset(ibv_reg_dmabuf_mr(pd_.get(), 0, n, reinterpret_cast<uint64_t>(p), fd, access));
    if (!mr_) dmabuf_why = std::string("ibv_reg_dmabuf_mr: ") + std::strerror(errno);
    close(fd);
  }
  if (mr_) {
    facts_.registration = "ibv_reg_dmabuf_mr (dma-buf)";
    return true;
  }
  mr_.reset(ibv_reg_mr(pd_.get(), p, n, access));
  if (mr_) {
    facts_.registration = "ibv_reg_mr on GPU memory (peer-memory client)";
    facts_.registration_notes = "dma-buf path failed: " + dmabuf_why;
    return true;
  }
  return fail("GPUDirect RDMA unavailable: dma-buf: " + dmabuf_why + "; ibv_reg_mr on GPU memory: " + std::strerror(errno) +
              " (needs dma-buf support in kernel, driver and NIC, or the nvidia-peermem module)");
}

bool VerbsEndpoint::create_qp() {
  send_cq_.reset(ibv_create_cq(ctx_.get(), cfg_.tx_depth, nullptr, nullptr, 0));
  recv_cq_.reset(ibv_create_cq(ctx_.get(), cfg_.rx_depth, nullptr, nullptr, 0));
  if (!send_cq_ || !recv_cq_) return fail(std::string("ibv_create_cq: ") + std::strerror(errno));
  for (const int inline_bytes : {buf_->device_memory() ? 0 : kInlineWanted, 0}) {
    ibv_qp_init_attr init{};
    init.send_cq = send_cq_.get();
    init.recv_cq = recv_cq_.get();
    init.qp_type = IBV_QPT_RC;
    init.cap.max_send_wr = static_cast<uint32_t>(cfg_.tx_depth);
    init.cap.max_recv_wr = static_cast<uint32_t>(cfg_.rx_depth);
    init.cap.max_send_sge = 1;
    init.cap.max_recv_sge = 1;
    init.cap.max_inline_data = static_cast<uint32_t>(inline_bytes);
    qp_.reset(ibv_create_qp(pd_.get(), &init));
    if (qp_) {
      facts_.max_inline = static_cast<int>(init.cap.max_inline_data);
      break;
    }
  }
  if (!qp_) return fail(std::string("ibv_create_qp (RC): ") + std::strerror(errno));
  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_INIT;
  a.pkey_index = 0;
  a.port_num = static_cast<uint8_t>(cfg_.port);
  a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
  if (const int rc = ibv_modify_qp(qp_.get(), &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
    return fail(std::string("QP RESET->INIT: ") + std::strerror(rc));
  return true;
}

bool VerbsEndpoint::post_recvs(int n) {
  for (int i = 0; i < n; ++i) {
    ibv_recv_wr wr{};
    ibv_recv_wr* bad = nullptr;
    wr.wr_id = 0;
    wr.num_sge = 0;  // WRITE with immediate places data by RDMA; the receive only carries the immediate
    if (const int rc = ibv_post_recv(qp_.get(), &wr, &bad)) return fail(std::string("ibv_post_recv: ") + std::strerror(rc));
  }
  return true;
}

bool VerbsEndpoint::connect(const QpInfo& remote) {
  if (failed()) return false;
  remote_ = remote;
  if (global_ && is_zero(remote.gid)) return fail("the peer sent no GID, but this port routes by GID");
  if (!global_ && remote.lid == 0) return fail("the peer sent LID 0 on an InfiniBand port");
  ibv_qp_attr a{};
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = mtu_enum(std::min(local_.mtu, remote.mtu));
  a.dest_qp_num = remote.qpn;
  a.rq_psn = remote.psn;
  a.max_dest_rd_atomic = 1;
  a.min_rnr_timer = 12;
  a.ah_attr.port_num = static_cast<uint8_t>(cfg_.port);
  a.ah_attr.dlid = remote.lid;
  if (global_) {
    a.ah_attr.is_global = 1;
    std::memcpy(a.ah_attr.grh.dgid.raw, remote.gid.data(), 16);
    a.ah_attr.grh.sgid_index = static_cast<uint8_t>(local_.gid_index);
    a.ah_attr.grh.hop_limit = 64;
  }
  const int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                  IBV_QP_MIN_RNR_TIMER;
  if (const int rc = ibv_modify_qp(qp_.get(), &a, rtr)) {
    std::string hint;
    if (global_)
      hint = " (local GID index " + std::to_string(local_.gid_index) + " " + format_gid(local_.gid) + ", peer GID index " +
             std::to_string(remote.gid_index) + " " + format_gid(remote.gid) + ")";
    return fail(std::string("QP INIT->RTR: ") + std::strerror(rc) + hint);
  }
  ibv_qp_attr s{};
  s.qp_state = IBV_QPS_RTS;
  s.timeout = 14;   // 4.096 us * 2^14 = 67 ms per try
  s.retry_cnt = 7;
  s.rnr_retry = 7;  // the deadline, not the NIC, bounds waiting for a receive
  s.sq_psn = local_.psn;
  s.max_rd_atomic = 1;
  const int rts = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
  if (const int rc = ibv_modify_qp(qp_.get(), &s, rts)) return fail(std::string("QP RTR->RTS: ") + std::strerror(rc));
  return true;
}

// Polls the send queue's completions. With block_for_room, waits until fewer than tx_depth WRITEs are
// outstanding; otherwise takes what is there and returns.
bool VerbsEndpoint::reap_sends(bool block_for_room, Clock::time_point until) {
  ibv_wc wc[kPollBatch];
  for (long spins = 0;; ++spins) {
    const int n = ibv_poll_cq(send_cq_.get(), kPollBatch, wc);
    if (n < 0) return fail("ibv_poll_cq (send) failed");
    for (int i = 0; i < n; ++i) {
      if (wc[i].status != IBV_WC_SUCCESS) return fail(wc_text("RDMA WRITE", wc[i]));
      completed_ = std::max(completed_, wc[i].wr_id + 1);
    }
    if (!block_for_room || posted_ - completed_ < static_cast<uint64_t>(cfg_.tx_depth)) return true;
    if ((spins & 1023) == 0 && Clock::now() > until) return fail(late("RDMA WRITE"));
  }
}

bool VerbsEndpoint::wait_all_sent(Clock::time_point until) {
  ibv_wc wc[kPollBatch];
  for (long spins = 0; completed_ < posted_; ++spins) {
    const int n = ibv_poll_cq(send_cq_.get(), kPollBatch, wc);
    if (n < 0) return fail("ibv_poll_cq (send) failed");
    for (int i = 0; i < n; ++i) {
      if (wc[i].status != IBV_WC_SUCCESS) return fail(wc_text("RDMA WRITE", wc[i]));
      completed_ = std::max(completed_, wc[i].wr_id + 1);
    }
    if ((spins & 1023) == 0 && Clock::now() > until) return fail(late("RDMA WRITE"));
  }
  return true;
}

// Every cq_mod_-th WRITE is signalled (and any that must be waited for); one completion accounts for
// all WRITEs before it, since an RC queue completes in order.
bool VerbsEndpoint::post_write(int64_t bytes, bool with_immediate, bool force_signal) {
  ibv_sge sge{};
  sge.addr = reinterpret_cast<uint64_t>(buf_->data());
  sge.length = static_cast<uint32_t>(bytes);
  sge.lkey = mr_->lkey;
  ibv_send_wr wr{};
  ibv_send_wr* bad = nullptr;
  wr.wr_id = posted_;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.opcode = with_immediate ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE;
  if (with_immediate) wr.imm_data = htonl(++imm_seq_);
  const bool signalled = force_signal || (posted_ + 1) % static_cast<uint64_t>(cq_mod_) == 0;
  unsigned flags = 0;
  if (signalled) flags |= IBV_SEND_SIGNALED;
  if (bytes <= facts_.max_inline) flags |= IBV_SEND_INLINE;
  wr.send_flags = flags;
  wr.wr.rdma.remote_addr = remote_.addr;
  wr.wr.rdma.rkey = remote_.rkey;
  if (const int rc = ibv_post_send(qp_.get(), &wr, &bad)) return fail(std::string("ibv_post_send: ") + std::strerror(rc));
  ++posted_;
  return true;
}

bool VerbsEndpoint::write_burst(int64_t bytes, int count) {
  if (failed()) return false;
  const auto until = deadline();
  for (int i = 0; i < count; ++i)
    if (!reap_sends(true, until) || !post_write(bytes, i == count - 1, i == count - 1)) return false;
  return wait_all_sent(until);
}

bool VerbsEndpoint::ping(int64_t bytes) {
  if (failed()) return false;
  // A ping is signalled only now and then; keep room in the send queue.
  return reap_sends(true, deadline()) && post_write(bytes, true, false);
}

bool VerbsEndpoint::wait_immediate() {
  if (failed()) return false;
  const auto until = deadline();
  ibv_wc wc{};
  for (long spins = 0;; ++spins) {
    const int n = ibv_poll_cq(recv_cq_.get(), 1, &wc);
    if (n < 0) return fail("ibv_poll_cq (receive) failed");
    if (n == 1) break;
    if ((spins & 1023) == 0) {
      if (!reap_sends(false, until)) return false;
      if (Clock::now() > until) return fail(late("WRITE with immediate from the peer"));
    }
  }
  if (wc.status != IBV_WC_SUCCESS) return fail(wc_text("receive", wc));
  if (wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM) return fail("unexpected receive completion (opcode " + std::to_string(wc.opcode) + ")");
  return post_recvs(1);
}

}  // namespace

std::unique_ptr<Endpoint> open_endpoint(const EndpointConfig& cfg, std::string& error) {
  auto ep = std::make_unique<VerbsEndpoint>(cfg);
  if (!ep->open(error)) return nullptr;
  return ep;
}

}  // namespace gpunet::bench::rdma
