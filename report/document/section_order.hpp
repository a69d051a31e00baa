// The sections of the document (report/render/document_parts.hpp), in reading order. The head (the
// verdict and what is wrong) comes before anything else; the body after it. The document is built by
// a switch over these kinds that has no default, so a kind without its sections fails the build
// (-Wswitch, warnings are errors); report.md and report.html lay out the one list it builds.
#pragma once

namespace gpunet::report {

enum class SectionKind {
  verdict,     // the run's one verdict and its reasons
  problems,    // "What is wrong", with the scheduler's lines
  acceptance,  // the contract's verdicts and the baseline comparison: the verdict's evidence
  summary,     // one row per kind of figure: best value, ceiling, efficiency
  run,         // provenance: when, where, which build
  networks,    // the interfaces measured and their roles
  training,    // what the network costs a training step
  findings,    // the suites' findings
  charts,      // the sweeps', pairs' and timelines' charts
  tables,      // one table per kind of record
  topology,    // every kind of node
  ceilings,    // the notes the tables cite
};

inline constexpr SectionKind kDocumentHead[] = {SectionKind::verdict, SectionKind::problems};
inline constexpr SectionKind kDocumentBody[] = {
    SectionKind::acceptance, SectionKind::summary, SectionKind::run,    SectionKind::networks,
    SectionKind::training,   SectionKind::findings, SectionKind::charts, SectionKind::tables,
    SectionKind::topology,   SectionKind::ceilings};

}  // namespace gpunet::report
