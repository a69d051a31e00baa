// The hosts' load where a reader of the run looks for it. The counters records carry each node's load
// per suite (extra.host_load, bench/core/counters/host_load.hpp); the analysis copies it per suite and
// node into the provenance (provenance.host_load: other work %, steal %, busy) and onto each record
// measured during a suite with a load, for the hosts the record involves (extra.host_load_during:
// [{host, others_pct, steal_pct, busy}]; every node for a figure of the whole cluster). Pure.
#pragma once

#include "report/model/record.hpp"

namespace gpunet::report {

// Idempotent; a report without loads (counters off, a file from an older version) is left as it is.
void attach_host_load(Report& rep);

}  // namespace gpunet::report
