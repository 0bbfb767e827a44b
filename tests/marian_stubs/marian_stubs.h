// Stubs of the parts of Marian (marian-nmt/marian-dev@46c94a58) that
// src/training/validator.h names, so that the vendored, unmodified validator.h compiles
// without Marian's graph, models, data pipeline and beam search. Only BleuValidator's
// constructor, tokenize(), decode(), both updateStats() and calcBLEU() run in the tests;
// everything else here only has to compile and is never called. Written for this test
// harness (tests/marian_oracle.py); nothing here is Marian's code.
#pragma once

#include <climits>  // the real common/logging.h brings it (HOST_NAME_MAX in utils.cpp)
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace marian {

typedef uint32_t IndexType;
template <class T> using Ptr = std::shared_ptr<T>;
template <class T, typename... Args> Ptr<T> New(Args&&... args) {
  return std::make_shared<T>(std::forward<Args>(args)...);
}
enum class Type { float32 };
}  // namespace marian

#include "marian_common_stubs.h"

namespace marian {

template <class T> Expr cast(T, Type) { return {}; }

// common/logging.h
#define LOG(level, ...) do {} while(0)
#define LOG_VALID(level, ...) do {} while(0)
#define ABORT(...) throw std::runtime_error("ABORT")
#define ABORT_IF(condition, ...) do { if(condition) ABORT(); } while(0)

// common/config.h: Options
class Options {
  std::map<std::string, std::string> values_;
public:
  Options() {}
  Options clone() const { return *this; }
  template <class T> void set(const std::string&, const T&) {}
  bool has(const std::string&) const { return false; }
  bool hasAndNotEmpty(const std::string&) const { return false; }
  template <class T> T get(const std::string&) const { return T(); }
  template <class T> T get(const std::string&, const T& fallback) const { return fallback; }
  void merge(Ptr<Options>) {}
};

// training/training_state.h
class TrainingState { public: Anything validators; };
class TrainingObserver {
public:
  virtual ~TrainingObserver() {}
  virtual void actAfterLoaded(TrainingState&) {}
};

// data/vocab.h: a table of the driver's own ids to text. decode() joins the texts of the
// ids but EOS (ignoreEOS, the default), with no separator: the driver gives a line of
// detokenized text one id (what SentencePiece's decode would return for its pieces).
class Vocab {
public:
  std::vector<std::string> table_{"</s>", "<unk>"};
  std::string type() const { return "SentencePieceVocab"; }
  IndexType getEosId() const { return 0; }
  IndexType getUnkId() const { return 1; }
  std::string decode(const std::vector<IndexType>& words, bool ignoreEOS = true) const {
    std::string line;
    for(auto w : words)
      if(w != getEosId() || !ignoreEOS)
        line += table_.at(w);
    return line;
  }
};

namespace data {
class Batch { public: virtual ~Batch() {} virtual size_t size() const { return 0; } };
// A sub-batch of target words, words[i * batchSize + sentence] (data/corpus_base.h).
class SubBatch {
public:
  std::vector<IndexType> words_;
  size_t size_{0}, width_{0};
  size_t batchSize() const { return size_; }
  size_t batchWidth() const { return width_; }
  std::vector<IndexType>& data() { return words_; }
};
class CorpusBatch : public Batch {
public:
  std::vector<Ptr<SubBatch>> subBatches_;
  Ptr<SubBatch> back() const { return subBatches_.back(); }
};
class BertBatch : public CorpusBatch {
public:
  template <typename... A> BertBatch(A&&...) {}
  std::vector<IndexType> bertMaskedWords() const { return {}; }
};
class Corpus { public: template <typename... A> Corpus(A&&...) {} };
template <class DataSet> class BatchGenerator {
  std::vector<Ptr<CorpusBatch>> batches_;
public:
  template <typename... A> BatchGenerator(A&&...) {}
  void prepare(bool) {}
  typename std::vector<Ptr<CorpusBatch>>::iterator begin() { return batches_.begin(); }
  typename std::vector<Ptr<CorpusBatch>>::iterator end() { return batches_.end(); }
};
}  // namespace data

struct StaticLoss {
  float loss{0}, count{0};
  StaticLoss& operator+=(const Anything&) { return *this; }
};

// models
class ModelBase {
public:
  virtual ~ModelBase() {}
  template <typename... A> void clear(A&&...) {}
  template <typename... A> Ptr<Anything> build(A&&...) { return New<Anything>(); }
  template <typename... A> void save(A&&...) {}
};
class BertEncoderClassifier : public ModelBase {
public:
  template <typename... A> std::vector<Ptr<Anything>> apply(A&&...) { return {}; }
};
namespace models {
enum class usage { raw, training, scoring, translation };
inline Ptr<ModelBase> from_options(Ptr<Options>, usage) { return New<ModelBase>(); }
}  // namespace models

// translator
class History {
public:
  std::tuple<std::vector<IndexType>, float> Top() const { return {}; }
  size_t GetLineNum() const { return 0; }
};
class BeamSearch {
public:
  template <typename... A> BeamSearch(A&&...) {}
  template <typename... A> std::vector<Ptr<History>> search(A&&...) { return {}; }
};

}  // namespace marian

#include "data/types.h"  // the vendored Word and Words (marian-dev src/data/types.h)
