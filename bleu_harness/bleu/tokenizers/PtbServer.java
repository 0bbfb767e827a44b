// bleu-harness: Stanford PTBTokenizer's own command line, run once per request in one JVM.
//
// pycocoevalcap's PTBTokenizer (tokenizer/ptbtokenizer.py) starts
//   java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
//        -preserveLines -lowerCase FILE
// for every batch of captions. Starting a JVM costs about half a second, so this program
// starts one and calls the same entry point, edu.stanford.nlp.process.PTBTokenizer.main, with
// the same arguments for each request: what it writes is what the command prints.
//
// Protocol (UTF-8 lines on stdin): "lower<TAB>PATH" (with -lowerCase) or "cased<TAB>PATH";
// answer on stdout: the byte count of PTBTokenizer's output, a newline, then the bytes; or a
// line "!" followed by the exception, one line. It ends when stdin closes.
// Run with Java 11+ as a source file: java -cp JAR PtbServer.java (nothing is compiled to disk).

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

public class PtbServer {
  public static void main(String[] args) throws Exception {
    PrintStream protocol = System.out;
    System.setErr(new PrintStream(OutputStream.nullOutputStream()));  // its timing line
    BufferedReader requests =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line; (line = requests.readLine()) != null; ) {
      int tab = line.indexOf('\t');
      String path = line.substring(tab + 1);
      String[] command = line.startsWith("lower\t")
          ? new String[] {"-preserveLines", "-lowerCase", path}
          : new String[] {"-preserveLines", path};
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      System.setOut(new PrintStream(captured, true, "UTF-8"));
      try {
        edu.stanford.nlp.process.PTBTokenizer.main(command);
      } catch (Throwable error) {
        System.setOut(protocol);
        protocol.print("!" + String.valueOf(error).replace('\n', ' ') + "\n");
        protocol.flush();
        continue;
      }
      System.setOut(protocol);
      byte[] bytes = captured.toByteArray();
      protocol.print(bytes.length + "\n");
      protocol.write(bytes);
      protocol.flush();
    }
  }
}
