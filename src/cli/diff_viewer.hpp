// The diff page's viewer (reporters/diff/ after reporters/viewer_common/: CSS and a script),
// embedded into the qprof tool at build time by reporters/embed_viewer.py.
#pragma once

#include <ostream>

namespace qprof::cli::diff_viewer {

void write_viewer_css(std::ostream& out);
void write_viewer_js(std::ostream& out);

}  // namespace qprof::cli::diff_viewer
