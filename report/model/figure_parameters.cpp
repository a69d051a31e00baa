#include "report/model/figure_parameters.hpp"

#include <utility>

namespace gpunet::report {

FigureParameters::FigureParameters(Map m) : map_(m.empty() ? nullptr : std::make_shared<Map>(std::move(m))) {}

const FigureParameters::Map& FigureParameters::map() const {
  static const Map kNone;
  return map_ ? *map_ : kNone;
}

FigureParameters::Map& FigureParameters::own() {
  if (!map_) {
    map_ = std::make_shared<Map>();
  } else if (map_.use_count() > 1) {
    map_ = std::make_shared<Map>(*map_);
  }
  return *map_;
}

void to_json(gpunet::json& j, const FigureParameters& p) { j = p.map(); }

}  // namespace gpunet::report
