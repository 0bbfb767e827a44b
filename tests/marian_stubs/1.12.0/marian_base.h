// The first part of the stubs of tests/marian_stubs/1.12.0/marian_stubs.h: what the vendored
// data/types.h (marian-nmt/marian-dev@65bf82ff, Marian v1.12.0) asks of common/definitions.h.
// Written for this test harness; nothing here is Marian's code.
#pragma once

#include <algorithm>
#include <climits>  // the real common/logging.h brings it (HOST_NAME_MAX in utils.cpp)
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace marian {
typedef uint32_t IndexType;
template <class T> using Ptr = std::shared_ptr<T>;
template <class T, typename... Args> Ptr<T> New(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}
}  // namespace marian

// common/logging.h
#define LOG(level, ...) do {} while(0)
#define LOG_VALID(level, ...) do {} while(0)
#define LOG_VALID_ONCE(level, ...) do {} while(0)
#define ABORT(...) throw std::runtime_error("ABORT")
#define ABORT_IF(condition, ...) do { if(condition) ABORT(); } while(0)
