// Boost.URL's compiled part, built into this library: Debian 12 ships Boost.URL's headers with
// libboost1.81-dev but no libboost_url, and the library documents this single source file as its
// header-only use. Kept out of unity batches (its internals would meet other files').
#include <boost/url/src.hpp>
