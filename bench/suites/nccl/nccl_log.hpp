// What NCCL chose, read back from its INFO log (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=INIT,NET,P2P,SHM):
// the NCCL version, the network module and its devices, and the transport to each peer.
// Pure text parsing (report/CEILINGS.md §5.2 gives the formats); no CUDA or NCCL needed.
#pragma once

#include <istream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/json.hpp"

namespace gpunet::bench::gpu {

// One device of NCCL's network module, from "NET/IB : Using [0]mlx5_0:1/IB ..." or
// "NET/Socket : Using [0]eth0:10.0.0.1<0> ...".
struct NcclNetDevice {
  int index = -1;       // NCCL's netDev number: the N in "via NET/IB/N"
  std::string name;     // mlx5_0, eth0
  int port = 0;         // IB port; 0 for sockets
  std::string link;     // IB or RoCE; empty for sockets
  std::string address;  // sockets: the interface's address
};

// How this rank reaches one peer.
struct NcclPeerPath {
  std::set<std::string> transports;  // NET/IB, NET/Socket, P2P/CUMEM, P2P/IPC, P2P/direct pointer, SHM/direct, ...
  std::string via;                   // the text after "via " of the first line, e.g. "NET/IB/0/GDRDMA"
  std::set<int> net_devs;            // NET: NCCL netDev numbers used
  bool net_gdr = true;               // NET: every NET line carried /GDRDMA
  int proxy_rank = -1;               // NET through another rank (PXN)
  int lines = 0;                     // connection lines seen (channels, both directions)
};

struct NcclLog {
  std::string version;                // "2.21.5+cuda12.4"
  std::string network;                // "IB", "Socket", or a plugin's name ("Using network X")
  std::string oob_interface;          // NET/IB's out-of-band interface ("OOB ib0:...")
  std::vector<NcclNetDevice> net_devices;
  std::map<int, NcclPeerPath> peers;  // by peer rank
  std::vector<std::string> warnings;  // NCCL WARN messages
};

// my_rank: the rank whose log this is (lines name both ends of a connection).
NcclLog parse_nccl_log(std::istream& in, int my_rank);
NcclLog parse_nccl_log_text(const std::string& text, int my_rank);

// "NET/IB/0/GDRDMA" -> "NET/IB"; "P2P/CUMEM/read" -> "P2P/CUMEM"; "SHM/direct/direct" -> "SHM/direct".
std::string transport_of_via(const std::string& via);

// The rank's view for Record::extra.nccl:
//   {version, net, transport, transports: {name: [peers]}, gdr (only with NET), nic, iface, peers: {peer: via}}
// transport is the one that limits inter-node traffic: NET/* when any peer is reached over the network,
// else SHM/*, else P2P/*.
gpunet::json summarize(const NcclLog& log);

// Every rank's summary merged (rank 0 attaches this to the collective records):
//   {version, net, transport, transports: {name: ranks using it}, gdr (all NET links), nic, iface}
gpunet::json merge_summaries(const std::vector<gpunet::json>& per_rank);

}  // namespace gpunet::bench::gpu
