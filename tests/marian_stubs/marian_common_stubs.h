// Stubs both Marian builds of the tests share (tests/marian_stubs/marian_stubs.h for v1.7.8,
// tests/marian_stubs/1.12.0/marian_stubs.h for v1.12.0): what the validators' never-run
// translation and training paths name. The including header defines marian::IndexType and
// marian::Ptr first. Written for this test harness; nothing here is Marian's code.
#pragma once

#include <future>
#include <string>
#include <vector>

namespace marian {

// Whatever the never-run code paths ask of a value: every call compiles.
struct Anything {
  Anything() {}
  template <typename... A> Anything(A&&...) {}
  template <typename... A> Anything operator()(A&&...) const { return {}; }
  Anything operator[](int) const { return {}; }
  Anything operator[](const std::string&) const { return {}; }
  template <class T> T as() const { return T(); }
  explicit operator bool() const { return false; }
  const Anything* operator->() const { return this; }
  Anything val() const { return {}; }
  template <class T> void get(std::vector<T>&) const {}
  struct Shape { IndexType operator[](int) const { return 0; } };
  Shape shape() const { return {}; }
  Anything loss() const { return {}; }
  Anything getLogits() const { return {}; }
  Anything getLogProbs() const { return {}; }
};
typedef Anything Expr;

struct Config { static size_t seed; };

// common/timer.h
namespace timer { struct Timer { double elapsed() const { return 0; } }; }

// 3rd_party/threadpool.h
class ThreadPool {
public:
  void reserve(size_t) {}
  template <class F, class... A> std::future<void> enqueue(F&&, A&&...) { return {}; }
};
struct TaskBarrier { template <class T> void push_back(T&&) {} };

// graph/expression_graph.h
class ExpressionGraph { public: void setInference(bool) {} void forward() {} };

// translator
class Scorer { public: virtual ~Scorer() {} };
class ScorerWrapper : public Scorer { public: template <typename... A> ScorerWrapper(A&&...) {} };
class OutputPrinter {
public:
  template <typename... A> OutputPrinter(A&&...) {}
  template <typename... A> void print(A&&...) {}
};
struct PrintingStrategy { virtual ~PrintingStrategy() {} };
struct QuietPrinting : PrintingStrategy {};
struct GeometricPrinting : PrintingStrategy {};
class OutputCollector {
public:
  template <typename... A> OutputCollector(A&&...) {}
  void setPrintingStrategy(Ptr<PrintingStrategy>) {}
  template <typename... A> void Write(A&&...) {}
};
namespace io {
class TemporaryFile {
public:
  TemporaryFile(const std::string&, bool) {}
  std::string getFileName() const { return ""; }
};
}  // namespace io

}  // namespace marian
