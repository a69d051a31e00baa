// The evidence options: --evidence and --sign-key on a run and on `gpunet-bench report`, and the
// `gpunet-bench verify FILE [--allowed-signers FILE] [--identity ID]` subcommand (docs/evidence.md).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "bench/core/config.hpp"

namespace gpunet::bench {

// Adds --evidence and --sign-key to `app` (a run) and to its `report` subcommand, and the verify subcommand.
void add_evidence_options(CLI::App& app, Config& c);
// After the parse: the one-line error of a combination that cannot work (--sign-key without --evidence).
std::optional<std::string> finish_evidence_options(const CLI::App& app, const Config& c);

}  // namespace gpunet::bench
