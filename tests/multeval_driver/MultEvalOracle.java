import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import multeval.HypothesisManager;
import multeval.metrics.BLEU;
import multeval.metrics.IntStats;
import multeval.metrics.SuffStats;
import multeval.util.SuffStatUtils;

/**
 * The harness's driver of MultEval's BLEU (tests/multeval_oracle.py): one request a line on
 * stdin, one answer a line on stdout. Everything it scores with is MultEval's own code,
 * unmodified (tests/oracles/multeval): HypothesisManager.loadSentences / loadRefs read the
 * files as "multeval eval" does, BLEU.stats counts each segment, SuffStatUtils.sumStats adds
 * them up and BLEU.score scores the sum, as MultEvalModule.runOverallEval does for one
 * optimizer run.
 *
 * Request: tab-separated fields, each string base64 of its UTF-8 bytes:
 *   entry (eval | stats), the number of segments n, the number of references of each
 *   segment (comma-separated; the same for every segment with "eval"), then the n
 *   hypotheses, then each segment's references in order.
 *   "eval": the hypotheses and every reference file are written to files (one line each,
 *   UTF-8) and read back by HypothesisManager; "stats": BLEU.stats gets the strings.
 * Answer: "OK <Double.doubleToRawLongBits of the score, hex> <summed stats, comma-separated>"
 *   or "ERR <the exception's simple class name> <message>".
 * The request "breaking-whitespace" answers "CHARS" and the UTF-16 units (hex) the Guava jar's
 * CharMatcher.BREAKING_WHITESPACE matches.
 */
public class MultEvalOracle {

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, "UTF-8");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    File dir = Files.createTempDirectory("multeval-oracle").toFile();
    String line;
    while ((line = in.readLine()) != null) {
      out.println(answer(line, dir));
    }
  }

  static String decode(String field) {
    return new String(Base64.getDecoder().decode(field), StandardCharsets.UTF_8);
  }

  static String file(File dir, String name, List<String> lines) throws Exception {
    File f = new File(dir, name);
    StringBuilder text = new StringBuilder();
    for (String l : lines) {
      text.append(l).append('\n');
    }
    Files.write(f.toPath(), text.toString().getBytes(StandardCharsets.UTF_8));
    return f.getPath();
  }

  static String answer(String line, File dir) {
    if (line.equals("breaking-whitespace")) {  // the Guava jar's separator characters
      StringBuilder chars = new StringBuilder();
      for (int c = 0; c <= 0xFFFF; c++) {
        if (com.google.common.base.CharMatcher.BREAKING_WHITESPACE.matches((char) c)) {
          chars.append(chars.length() == 0 ? "" : ",").append(Integer.toHexString(c));
        }
      }
      return "CHARS " + chars;
    }
    try {
      String[] fields = line.split("\t", -1);
      String entry = fields[0];
      int n = Integer.parseInt(fields[1]);
      String[] counts = fields[2].isEmpty() ? new String[0] : fields[2].split(",");
      List<String> hyps = new ArrayList<String>();
      List<List<String>> refs = new ArrayList<List<String>>();
      int next = 3 + n;
      for (int i = 0; i < n; i++) {
        hyps.add(decode(fields[3 + i]));
        List<String> segmentRefs = new ArrayList<String>();
        for (int j = 0; j < Integer.parseInt(counts[i]); j++) {
          segmentRefs.add(decode(fields[next++]));
        }
        refs.add(segmentRefs);
      }
      if (entry.equals("eval")) {
        int k = n == 0 ? 0 : refs.get(0).size();  // the caller gives every segment k
        hyps = HypothesisManager.loadSentences(file(dir, "hyps", hyps), "hypotheses");
        String[] refFiles = new String[k];
        for (int j = 0; j < k; j++) {
          List<String> column = new ArrayList<String>();
          for (int i = 0; i < n; i++) {
            column.add(refs.get(i).get(j));
          }
          refFiles[j] = file(dir, "ref" + j, column);
        }
        refs = HypothesisManager.loadRefs(refFiles, hyps.size());
      }
      BLEU bleu = new BLEU();
      List<SuffStats<?>> statsBySent = new ArrayList<SuffStats<?>>();
      for (int i = 0; i < hyps.size(); i++) {
        statsBySent.add(bleu.stats(hyps.get(i), refs.get(i)));
      }
      SuffStats<?> corpusStats = SuffStatUtils.sumStats(statsBySent);
      double score = bleu.scoreStats(corpusStats);
      StringBuilder arr = new StringBuilder();
      for (int v : ((IntStats) corpusStats).arr) {
        arr.append(arr.length() == 0 ? "" : ",").append(v);
      }
      return "OK " + Long.toHexString(Double.doubleToRawLongBits(score)) + " " + arr;
    } catch (Exception e) {
      String message = String.valueOf(e.getMessage()).replace('\n', ' ');
      return "ERR " + e.getClass().getSimpleName() + " " + message;
    }
  }
}
