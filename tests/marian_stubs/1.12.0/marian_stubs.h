// Stubs of the parts of Marian v1.12.0 (marian-nmt/marian-dev@65bf82ff) that
// src/training/validator.h and validator.cpp name, so that the vendored, unmodified files
// (tests/oracles/marian/1.12.0/) compile without Marian's graph, models, data pipeline and
// beam search. Only SacreBleuValidator's constructor, decode(), both updateStats() and
// calcBLEU() run in the tests; everything else here only has to compile and is never
// called. The one behaviour written here is the target vocabulary's (Vocab below). Written
// for this test harness (tests/marian_oracle.py); nothing here is Marian's code.
#pragma once

#include "marian_base.h"

#include <future>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <tuple>

#include "data/types.h"  // the vendored Word and Words (marian-dev src/data/types.h)

namespace marian {

enum class Type { float32 };

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
  Anything getLogits() const { return {}; }
  Anything getLogProbs() const { return {}; }
};
typedef Anything Expr;

struct Config { static size_t seed; };

// common/timer.h
namespace timer { struct Timer { double elapsed() const { return 0; } }; }

// common/config.h: Options
class Options {
public:
  Options() {}
  Options clone() const { return *this; }
  template <class T> void set(const std::string&, const T&) {}
  bool has(const std::string&) const { return false; }
  bool hasAndNotEmpty(const std::string&) const { return false; }
  template <class T> T get(const std::string&) const { return T(); }
  template <class T> T get(const std::string&, const T& fallback) const { return fallback; }
  template <typename... A> Ptr<Options> with(A&&...) const { return New<Options>(); }
  void merge(Ptr<Options>) {}
};

// 3rd_party/threadpool.h
class ThreadPool {
public:
  void reserve(size_t) {}
  template <class F, class... A> std::future<void> enqueue(F&&, A&&...) { return {}; }
};
struct TaskBarrier { template <class T> void push_back(T&&) {} };

// training/training_state.h
class TrainingState {
public:
  Anything validators;
  std::string fillTemplate(const std::string& s) const { return s; }
};
class TrainingObserver {
public:
  virtual ~TrainingObserver() {}
  virtual void actAfterLoaded(TrainingState&) {}
};

// graph/expression_graph.h
class ExpressionGraph { public: void setInference(bool) {} void forward() {} };

// data/vocab.h: the driver's table of ids to text. surfaceForm() leaves out EOS, as
// SentencePieceVocab's and DefaultVocab's do (decode(sentence, /*ignoreEOS=*/true),
// src/data/sentencepiece_vocab.cpp and src/data/default_vocab.cpp at 65bf82ff), and joins
// the texts with separator_: "" where the driver gives a line of detokenized text one id
// (what SentencePiece's decode returns for its pieces), " " where each word of the line is
// an id (DefaultVocab::decode: utils::join(tokens, " ")). type() is the vocabulary's type
// as Marian names it.
class Vocab {
public:
  std::vector<std::string> table_{"</s>", "<unk>"};
  std::string type_{"SentencePieceVocab"};
  std::string separator_;
  std::string type() const { return type_; }
  Word getEosId() const { return Word::fromWordIndex(0); }
  Word getUnkId() const { return Word::fromWordIndex(1); }
  std::string surfaceForm(const Words& words) const {
    std::string line;
    bool first = true;
    for(auto w : words) {
      if(w == getEosId())
        continue;
      if(!first)
        line += separator_;
      line += table_.at(w.toWordIndex());
      first = false;
    }
    return line;
  }
};

namespace data {
class Batch { public: virtual ~Batch() {} virtual size_t size() const { return 0; } };
// A sub-batch of target words, words[i * batchSize + sentence] (data/corpus_base.h).
class SubBatch {
public:
  Words words_;
  size_t size_{0}, width_{0};
  size_t batchSize() const { return size_; }
  size_t batchWidth() const { return width_; }
  Words& data() { return words_; }
};
class CorpusBatch : public Batch {
public:
  std::vector<Ptr<SubBatch>> subBatches_;
  Ptr<SubBatch> back() const { return subBatches_.back(); }
};
class BertBatch : public CorpusBatch {
public:
  template <typename... A> BertBatch(A&&...) {}
  Words bertMaskedWords() const { return {}; }
};
class Corpus {
public:
  typedef Ptr<CorpusBatch> batch_ptr;
  template <typename... A> Corpus(A&&...) {}
};
template <class DataSet> class BatchGenerator {
  std::vector<Ptr<CorpusBatch>> batches_;
public:
  template <typename... A> BatchGenerator(A&&...) {}
  void prepare() {}
  typename std::vector<Ptr<CorpusBatch>>::iterator begin() { return batches_.begin(); }
  typename std::vector<Ptr<CorpusBatch>>::iterator end() { return batches_.end(); }
};
}  // namespace data

struct StaticLoss {
  float loss{0}, count{0};
  StaticLoss& operator+=(const Anything&) { return *this; }
};

// models
namespace models {
enum class usage { raw, training, scoring, translation };
class IModel {
public:
  virtual ~IModel() {}
  template <typename... A> void clear(A&&...) {}
  template <typename... A> Anything build(A&&...) { return {}; }
  template <typename... A> void save(A&&...) {}
};
class ICriterionFunction {
public:
  virtual ~ICriterionFunction() {}
  template <typename... A> void clear(A&&...) {}
  template <typename... A> Ptr<Anything> build(A&&...) { return New<Anything>(); }
  template <typename... A> void save(A&&...) {}
};
inline Ptr<IModel> createModelFromOptions(Ptr<Options>, usage) { return New<IModel>(); }
inline Ptr<ICriterionFunction> createCriterionFunctionFromOptions(Ptr<Options>, usage) {
  return New<ICriterionFunction>();
}
}  // namespace models
class BertEncoderClassifier : public models::IModel {
public:
  template <typename... A> std::vector<Ptr<Anything>> apply(A&&...) { return {}; }
};

// translator
class Scorer { public: virtual ~Scorer() {} };
class ScorerWrapper : public Scorer { public: template <typename... A> ScorerWrapper(A&&...) {} };
class History {
public:
  std::tuple<Words, float> top() const { return {}; }
  size_t getLineNum() const { return 0; }
};
class BeamSearch {
public:
  template <typename... A> BeamSearch(A&&...) {}
  template <typename... A> std::vector<Ptr<History>> search(A&&...) { return {}; }
};
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
