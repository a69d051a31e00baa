// report.md: readable in a terminal and on a code host. The document's sections (document_parts.hpp)
// laid out in turn (section_render.hpp); every string from a record is escaped there.
#include "report/render/document_parts.hpp"
#include "report/render/renderers.hpp"
#include "report/render/section_render.hpp"

namespace gpunet::report {

std::string render_markdown(const DocumentParts& parts) { return section_markdown(parts.head) + section_markdown(parts.body); }

std::string render_markdown(const Report& rep) { return render_markdown(document_parts(rep)); }

}  // namespace gpunet::report
