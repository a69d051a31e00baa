// gpunet-report-render PATH -o DIR: re-renders a report.json or results.jsonl offline. The same as
// `gpunet-bench report PATH -o DIR`, for tests and benchmarks of report/ alone, except that it exits 0
// whenever the outputs were written, whatever the stored run's verdict.
#include <iostream>
#include <string>

#include "report/render/outputs.hpp"

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[2]) != "-o") {
    std::cerr << "usage: gpunet-report-render PATH -o DIR\n";
    return 2;
  }
  return gpunet::report::rerender(argv[1], argv[3], std::cerr) == 2 ? 2 : 0;
}
