#pragma once
// The dashboard's own script and style (report/site/), compiled in from those files at configure
// time (report/CMakeLists.txt), so an installed perfgate writes them without a source tree.
namespace perfgate::report::detail {
extern const char* const site_js;
extern const char* const site_css;
}  // namespace perfgate::report::detail
