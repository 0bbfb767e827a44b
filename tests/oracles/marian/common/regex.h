
#ifdef USE_BOOST_REGEX
#include <boost/regex.hpp>
namespace regex = boost;
#else
#include <regex>
namespace regex = std;
#endif
