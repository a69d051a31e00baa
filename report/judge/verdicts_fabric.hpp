// The fabric promise of a spec ("fabric": {"max_oversubscription": 1.2} or {"non_blocking": true}):
// every uplink's `fabric.oversubscription` figure (the tcp fabric test) at most the bound; a FAIL names
// each uplink over it, and no node. Pure; used by evaluate() in report/judge/verdicts.cpp.
#pragma once

#include "report/model/record.hpp"
#include "report/judge/spec.hpp"
#include "report/judge/verdicts.hpp"

namespace gpunet::report {

Verdict judge_fabric(const Report& report, const FabricPromise& p);

}  // namespace gpunet::report
