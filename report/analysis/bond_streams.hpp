// A bond that several TCP streams leave at once yet carries no more than one member's rate: its
// transmit hash put every stream on one member. Measured, beside what sysfs shows of bonds
// (topology/bond_findings.hpp: a member down, members at different speeds). Pure.
//
// Finding (report.findings, the summary's bullets):
//   bond_one_member  warning: "node1 bond0 (balance-xor): 4 streams reached 0.94 Gb/s, one member's
//                    rate 1 Gb/s of 2 members (2 Gb/s together): ..." with the fix
#pragma once

#include <string>
#include <vector>

#include "common/json.hpp"

#include "report/model/record.hpp"

namespace gpunet::report {

// The streams that left one host over one bond at the same time (one test), and the bond's members.
struct BondLoad {
  std::string host, bond, mode;
  std::vector<double> member_Gbps;  // the rate of each member that is up (speed, or a lower tc shaping)
  int streams = 0;                  // streams that left the host over the bond at once
  double reached_Gbps = 0;          // their goodput together
};

// The sentence when two or more streams reached no more than the fastest member's rate (5 % of
// slack for measurement) while two or more members are up; "" otherwise.
std::string bond_one_member_sentence(const BondLoad& b);

// Per host, bond and test (flows that started together): the TCP flows whose sending interface
// (extra.link.iface) is a bond in the topology (its interfaces' kind, members, speed, operstate).
std::vector<BondLoad> bond_loads(const Report& rep);

// The bond_one_member findings of a report, one per host and bond (its worst test), as
// {severity, kind, message, subjects, node}.
gpunet::json bond_stream_findings(const Report& rep);

}  // namespace gpunet::report
