#include "bench/suites/rdma/qp_info.hpp"

#include <vector>

namespace gpunet::bench::rdma {

namespace {

constexpr int kTagInfo = 7301;
constexpr int kTagStatus = 7302;

class Writer {
 public:
  explicit Writer(QpInfoWire& w) : w_(w) {}
  void put(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) w_[at_++] = static_cast<uint8_t>(v >> (8 * i));
  }
  void put(const Gid& g) {
    for (uint8_t b : g) w_[at_++] = b;
  }

 private:
  QpInfoWire& w_;
  size_t at_ = 0;
};

class Reader {
 public:
  explicit Reader(const QpInfoWire& w) : w_(w) {}
  uint64_t get(int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= static_cast<uint64_t>(w_[at_++]) << (8 * i);
    return v;
  }
  Gid gid() {
    Gid g{};
    for (uint8_t& b : g) b = w_[at_++];
    return g;
  }

 private:
  const QpInfoWire& w_;
  size_t at_ = 0;
};

}  // namespace

QpInfoWire serialize(const QpInfo& q) {
  QpInfoWire w{};
  Writer out(w);
  out.put(q.lid, 2);
  out.put(q.qpn, 4);
  out.put(q.psn, 4);
  out.put(q.gid);
  out.put(q.rkey, 4);
  out.put(q.addr, 8);
  out.put(q.mtu, 4);
  out.put(static_cast<uint32_t>(q.gid_index), 4);
  return w;
}

QpInfo deserialize(const QpInfoWire& w) {
  Reader in(w);
  QpInfo q;
  q.lid = static_cast<uint16_t>(in.get(2));
  q.qpn = static_cast<uint32_t>(in.get(4));
  q.psn = static_cast<uint32_t>(in.get(4));
  q.gid = in.gid();
  q.rkey = static_cast<uint32_t>(in.get(4));
  q.addr = in.get(8);
  q.mtu = static_cast<uint32_t>(in.get(4));
  q.gid_index = static_cast<int32_t>(static_cast<uint32_t>(in.get(4)));
  return q;
}

QpInfo exchange_qp_info(MPI_Comm comm, int peer, const QpInfo& mine) {
  const QpInfoWire out = serialize(mine);
  QpInfoWire in{};
  MPI_Sendrecv(out.data(), static_cast<int>(out.size()), MPI_BYTE, peer, kTagInfo, in.data(), static_cast<int>(in.size()),
               MPI_BYTE, peer, kTagInfo, comm, MPI_STATUS_IGNORE);
  return deserialize(in);
}

PeerStatus exchange_status(MPI_Comm comm, int peer, const PeerStatus& mine) {
  std::vector<char> out(1 + mine.message.size());
  out[0] = mine.ok ? 1 : 0;
  std::copy(mine.message.begin(), mine.message.end(), out.begin() + 1);
  int out_len = static_cast<int>(out.size()), in_len = 0;
  MPI_Sendrecv(&out_len, 1, MPI_INT, peer, kTagStatus, &in_len, 1, MPI_INT, peer, kTagStatus, comm, MPI_STATUS_IGNORE);
  std::vector<char> in(static_cast<size_t>(in_len > 0 ? in_len : 1), 0);
  MPI_Sendrecv(out.data(), out_len, MPI_CHAR, peer, kTagStatus, in.data(), in_len, MPI_CHAR, peer, kTagStatus, comm,
               MPI_STATUS_IGNORE);
  PeerStatus theirs;
  theirs.ok = in_len > 0 && in[0] == 1;
  if (in_len > 1) theirs.message.assign(in.begin() + 1, in.begin() + in_len);
  return theirs;
}

}  // namespace gpunet::bench::rdma
