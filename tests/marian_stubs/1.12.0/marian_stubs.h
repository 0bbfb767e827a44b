// Stubs of the parts of Marian v1.12.0 (marian-nmt/marian-dev@65bf82ff) that
// src/training/validator.h and validator.cpp name, so that the vendored, unmodified files
// (tests/oracles/marian/1.12.0/) compile without Marian's graph, models, data pipeline and
// beam search. Only SacreBleuValidator's constructor, decode(), both updateStats() and
// calcBLEU() run in the tests; everything else here only has to compile and is never
// called. The one behaviour written here is the target vocabulary's (Vocab below). Written
// for this test harness (tests/marian_oracle.py); nothing here is Marian's code.
#pragma once

#include "marian_base.h"

#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <tuple>

#include "data/types.h"  // the vendored Word and Words (marian-dev src/data/types.h)
#include "../marian_common_stubs.h"

namespace marian {

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

}  // namespace marian
