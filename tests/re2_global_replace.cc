// The test harness's own driver of RE2::GlobalReplace, as TensorFlow's RegexReplace kernel
// calls it (tensorflow/core/kernels/regex_replace_op.cc: RE2 pattern(default options);
// RE2::GlobalReplace(&buf, regex, rewrite), return value ignored). Each input line is three
// fields "xHEX" (an x, then the bytes in hex), "pattern rewrite text"; each output line is
// the hex of the text after the replacement, or "!" and RE2's error for a pattern it
// refuses.
#include <re2/re2.h>

#include <iostream>
#include <sstream>
#include <string>

static std::string unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 1; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

static std::string tohex(const std::string& data) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : data) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream fields(line);
    std::string pattern, rewrite, text;
    fields >> pattern >> rewrite >> text;
    RE2::Options options;
    options.set_log_errors(false);
    RE2 regex(unhex(pattern), options);
    if (!regex.ok()) {
      std::cout << "!" << regex.error() << "\n";
      continue;
    }
    std::string buf = unhex(text);
    RE2::GlobalReplace(&buf, regex, unhex(rewrite));
    std::cout << tohex(buf) << "\n";
  }
  return 0;
}
