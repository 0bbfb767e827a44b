// The test harness's driver of Marian's BleuValidator (marian-nmt/marian-dev@46c94a58
// src/training/validator.h, vendored unmodified in tests/oracles/marian/, compiled over the
// stubs of tests/marian_stubs/). Input: a line "CORPUS DETOK N", then N lines "xHYP xREF"
// (x and the UTF-8 bytes in hex). The driver does what Marian's data path does before the
// validator sees a line: with DETOK 0 each line is split on single spaces into words
// (DefaultVocab::encode: utils::split(line, " ")) and each word gets an id, "</s>" the EOS
// id 0 and "<unk>" 1 (a vocabulary that knows every word); with DETOK 1 a line is one id
// whose text is the line (what SentencePiece would decode it to). A hypothesis ends at its
// first EOS (the beam search stops there) and gets one EOS; a reference gets EOS appended
// (Corpus, addEOS) and all references go into one target sub-batch, padded with id 0, as
// data::CorpusBatch lays them out: words[i * batchSize + sentence]. Then
// BleuValidator::updateStats(stats, cand, batch, no, eos) for each sentence and calcBLEU.
// Output: one line "%a" of the float32 score, then the nine float32 statistics.
#define USE_SENTENCEPIECE 1
#include "training/validator.h"

#include <cstdio>
#include <iostream>

size_t marian::Config::seed = 0;

namespace marian {
struct Probe : public BleuValidator {
  Probe(std::vector<Ptr<Vocab>> vocabs, Ptr<Options> options, bool detok)
      : BleuValidator(vocabs, options, detok) {}
  using BleuValidator::calcBLEU;
  using BleuValidator::updateStats;
};
}  // namespace marian

using namespace marian;

static std::string unhex(const std::string& hex) {
  std::string out;
  for(size_t i = 1; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

int main() {
  std::string tag;
  int detok;
  size_t n;
  while(std::cin >> tag >> detok >> n) {
    auto vocab = New<Vocab>();
    std::map<std::string, Word> ids{{"</s>", 0}, {"<unk>", 1}};
    auto idsOf = [&](const std::string& line) {
      Words words;
      if(detok) {
        if(!line.empty()) {
          vocab->table_.push_back(line);
          words.push_back((Word)(vocab->table_.size() - 1));
        }
        return words;
      }
      for(const auto& w : utils::split(line, " ")) {
        if(!ids.count(w)) {
          Word id = (Word)vocab->table_.size();
          vocab->table_.push_back(w);
          ids[w] = id;
        }
        words.push_back(ids[w]);
      }
      return words;
    };
    std::vector<Words> cands, refs;
    size_t width = 0;
    for(size_t i = 0; i < n; ++i) {
      std::string hyp, ref;
      std::cin >> hyp >> ref;
      Words cand;
      for(Word w : idsOf(unhex(hyp))) {
        if(w == 0)
          break;
        cand.push_back(w);
      }
      cand.push_back(0);
      Words r = idsOf(unhex(ref));
      r.push_back(0);
      width = std::max(width, r.size());
      cands.push_back(cand);
      refs.push_back(r);
    }
    auto sub = New<data::SubBatch>();
    sub->size_ = n;
    sub->width_ = width;
    sub->words_.assign(n * width, 0);
    for(size_t s = 0; s < n; ++s)
      for(size_t k = 0; k < refs[s].size(); ++k)
        sub->words_[k * n + s] = refs[s][k];
    auto batch = New<data::CorpusBatch>();
    batch->subBatches_.push_back(sub);

    Probe probe({vocab}, New<Options>(), detok != 0);
    std::vector<float> stats(9, 0.f);
    for(size_t s = 0; s < n; ++s)
      probe.updateStats(stats, cands[s], batch, s, 0);
    std::printf("%a", (double)probe.calcBLEU(stats));
    for(float v : stats)
      std::printf(" %a", (double)v);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
