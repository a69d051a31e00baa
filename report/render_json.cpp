// report.json: the complete Report. Invalid UTF-8 in a string is replaced, never fatal.
#include "report/renderers.hpp"

namespace gpunet::report {

std::string render_json(const Report& rep) {
  const nlohmann::json j = rep;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace gpunet::report
