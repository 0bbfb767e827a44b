// The test harness's driver of Marian's SacreBleuValidator (marian-nmt/marian-dev@65bf82ff,
// Marian v1.12.0, src/training/validator.h and validator.cpp, vendored unmodified in
// tests/oracles/marian/1.12.0/, compiled over the stubs of tests/marian_stubs/1.12.0/).
// Input: a line "CORPUS METRIC VOCAB N" (METRIC: bleu, bleu-detok or bleu-segmented; VOCAB:
// SentencePieceVocab or DefaultVocab), then N lines "xHYP xREF" (x and the UTF-8 bytes in
// hex). The driver does what Marian's data path does before the validator sees a line: for
// bleu-segmented, and with a DefaultVocab, each line is split on single spaces into words
// (DefaultVocab::encode: utils::split(line, " ")) and each word gets an id, "</s>" the EOS
// id 0 and "<unk>" 1 (a vocabulary that knows every word); otherwise (bleu and bleu-detok
// with a SentencePieceVocab) a line is one id whose text is the line (what SentencePiece
// would decode it to). A hypothesis ends at its first EOS and keeps it (the beam search's
// hypotheses end with the EOS they stopped at: Hypothesis::tracebackWords); a reference
// gets EOS appended (Corpus, addEOS) and all references go into one target sub-batch,
// padded with id 0, as data::CorpusBatch lays them out: words[i * batchSize + sentence].
// Then SacreBleuValidator::updateStats(stats, cand, batch, no) for each sentence and
// calcBLEU. Output: one line "%a" of the float32 score, then the 13 float32 statistics.
// validator.cpp is included, not linked: one translation unit parses validator.h once (a
// second off the build's time); it compiles as it is.
#include "training/validator.cpp"

#include <cstdio>
#include <iostream>

size_t marian::Config::seed = 0;
marian::Word marian::Word::NONE = marian::Word();

namespace marian {
struct Probe : public SacreBleuValidator {
  Probe(std::vector<Ptr<Vocab>> vocabs, Ptr<Options> options, const std::string& metric)
      : SacreBleuValidator(vocabs, options, metric) {}
  using SacreBleuValidator::calcBLEU;
  using SacreBleuValidator::updateStats;
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
  std::string tag, metric, vocabType;
  size_t n;
  while(std::cin >> tag >> metric >> vocabType >> n) {
    auto vocab = New<Vocab>();
    vocab->type_ = vocabType;
    bool text = metric != "bleu-segmented" && vocabType == "SentencePieceVocab";
    vocab->separator_ = text ? "" : " ";
    std::map<std::string, IndexType> ids{{"</s>", 0}, {"<unk>", 1}};
    auto idsOf = [&](const std::string& line) {
      Words words;
      if(text) {
        if(!line.empty()) {
          vocab->table_.push_back(line);
          words.push_back(Word::fromWordIndex(vocab->table_.size() - 1));
        }
        return words;
      }
      for(const auto& w : utils::split(line, " ")) {
        if(!ids.count(w)) {
          ids[w] = (IndexType)vocab->table_.size();
          vocab->table_.push_back(w);
        }
        words.push_back(Word::fromWordIndex(ids[w]));
      }
      return words;
    };
    const Word eos = vocab->getEosId();
    std::vector<Words> cands, refs;
    size_t width = 0;
    for(size_t i = 0; i < n; ++i) {
      std::string hyp, ref;
      std::cin >> hyp >> ref;
      Words cand;
      for(Word w : idsOf(unhex(hyp))) {
        if(w == eos)
          break;
        cand.push_back(w);
      }
      cand.push_back(eos);
      Words r = idsOf(unhex(ref));
      r.push_back(eos);
      width = std::max(width, r.size());
      cands.push_back(cand);
      refs.push_back(r);
    }
    auto sub = New<data::SubBatch>();
    sub->size_ = n;
    sub->width_ = width;
    sub->words_.assign(n * width, eos);
    for(size_t s = 0; s < n; ++s)
      for(size_t k = 0; k < refs[s].size(); ++k)
        sub->words_[k * n + s] = refs[s][k];
    auto batch = New<data::CorpusBatch>();
    batch->subBatches_.push_back(sub);

    Probe probe({vocab}, New<Options>(), metric);
    std::vector<float> stats(13, 0.f);
    for(size_t s = 0; s < n; ++s)
      probe.updateStats(stats, cands[s], batch, s);
    std::printf("%a", (double)probe.calcBLEU(stats));
    for(float v : stats)
      std::printf(" %a", (double)v);
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
