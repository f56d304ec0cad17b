// Stand-alone driver for the model-building fuzz target (works with gcc; no libFuzzer needed).
//
//   model_api_fuzz [--seconds S] [--runs N] [--seed X] [--save-crash DIR] [--corpus-out DIR]
//                  [--timeout S (per input, default 10)] CORPUS_DIR_OR_FILE...
//   model_api_fuzz FILE...                 replay each file once (reproducers)
//   model_api_fuzz --write-seeds DIR       write the seed corpus (tests/fuzz/corpus/model_api)
//
// Each iteration picks a corpus entry, applies a few byte mutations (flips, interesting values,
// inserts, deletes, splices with another entry) and runs the program. Before running it the
// input is written to <save-crash>/current (when given), so a crash leaves its reproducer.
// Feedback without coverage instrumentation: an input whose run shows an outcome feature not
// seen before (a call's result code with its normalized error message, or an operation code
// that executed; see note() in model_api_fuzzer.cc) joins the in-memory corpus, and with
// --corpus-out DIR is also saved there.
// A crash or sanitizer report fails the run; otherwise the counts are printed.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "model_api_seeds.h"

extern "C" int LLVMFuzzerInitialize(int*, char***);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
const std::vector<uint64_t>& modelApiFuzzFeatures();

namespace {

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

void collect(const std::string& path, std::vector<std::vector<uint8_t>>* corpus) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR* d = opendir(path.c_str());
    if (!d) return;
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      collect(path + "/" + e->d_name, corpus);
    }
    closedir(d);
  } else {
    corpus->push_back(readFile(path));
  }
}

void mutate(std::vector<uint8_t>& b, const std::vector<std::vector<uint8_t>>& corpus,
            std::mt19937_64& rng) {
  static const uint8_t kInteresting[] = {0, 1, 2, 3, 4, 5, 0x7F, 0x80, 0xEF, 0xF0, 0xF1, 0xF5,
                                         0xFF, 6, 7, 15, 16, 31, 96, 97};
  const int n = 1 + static_cast<int>(rng() % 6);
  for (int k = 0; k < n; ++k) {
    const size_t size = b.size();
    switch (rng() % 7) {
      case 0:
        if (size) b[rng() % size] ^= static_cast<uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        if (size) b[rng() % size] = kInteresting[rng() % sizeof(kInteresting)];
        break;
      case 2:
        if (size) b[rng() % size] = static_cast<uint8_t>(rng());
        break;
      case 3:
        if (b.size() < 4096) b.insert(b.begin() + (size ? rng() % size : 0), static_cast<uint8_t>(rng()));
        break;
      case 4:
        if (size > 1) {
          const size_t at = rng() % size, len = 1 + rng() % std::min<size_t>(8, size - at);
          b.erase(b.begin() + at, b.begin() + at + len);
        }
        break;
      case 5: {  // splice the tail of another entry
        const auto& other = corpus[rng() % corpus.size()];
        if (!other.empty() && size) {
          const size_t at = rng() % size, from = rng() % other.size();
          b.resize(at);
          b.insert(b.end(), other.begin() + from, other.end());
          if (b.size() > 4096) b.resize(4096);
        }
        break;
      }
      case 6:
        if (size) b[rng() % size] += static_cast<uint8_t>(1 + rng() % 3);
        break;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = -1;
  long runs = -1;
  uint64_t seed = 1;
  std::string crashDir, corpusOut;
  unsigned hangSeconds = 10;  // an input running longer is a hang: SIGALRM ends the process
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* what) {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", what);
        exit(2);
      }
      return argv[++i];
    };
    if (a == "--seconds") seconds = atof(next("--seconds"));
    else if (a == "--runs") runs = atol(next("--runs"));
    else if (a == "--seed") seed = strtoull(next("--seed"), nullptr, 0);
    else if (a == "--save-crash") crashDir = next("--save-crash");
    else if (a == "--corpus-out") corpusOut = next("--corpus-out");
    else if (a == "--timeout") hangSeconds = static_cast<unsigned>(atoi(next("--timeout")));
    else if (a == "--write-seeds") return modelfuzz::writeSeeds(next("--write-seeds")) ? 0 : 1;
    else if (a == "--help" || a == "-h") {
      printf("usage: %s [--seconds S] [--runs N] [--seed X] [--save-crash DIR] CORPUS...\n"
             "       %s FILE...   (replay)\n       %s --write-seeds DIR\n", argv[0], argv[0], argv[0]);
      return 0;
    } else paths.push_back(a);
  }
  LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::vector<uint8_t>> corpus;
  for (const auto& p : paths) collect(p, &corpus);
  if (corpus.empty()) {
    fprintf(stderr, "no corpus entries in the given paths\n");
    return 2;
  }
  // Every entry runs unmutated first (a replay when no time or run budget is given).
  auto t0 = std::chrono::steady_clock::now();
  std::unordered_set<uint64_t> seen;
  auto isNew = [&seen]() {
    bool fresh = false;
    for (uint64_t f : modelApiFuzzFeatures()) fresh |= seen.insert(f).second;
    return fresh;
  };
  for (const auto& c : corpus) {
    LLVMFuzzerTestOneInput(c.data(), c.size());
    isNew();
  }
  const size_t seeds = corpus.size();
  if (seconds < 0 && runs < 0) {
    printf("replayed %zu inputs\n", corpus.size());
    return 0;
  }
  std::mt19937_64 rng(seed);
  const auto deadline = t0 + std::chrono::duration<double>(seconds < 0 ? 1e9 : seconds);
  long done = 0;
  auto lastReport = t0;
  std::vector<uint8_t> input;
  while ((runs < 0 || done < runs) && std::chrono::steady_clock::now() < deadline) {
    input = corpus[rng() % corpus.size()];
    mutate(input, corpus, rng);
    if (!crashDir.empty()) {
      FILE* f = fopen((crashDir + "/current").c_str(), "wb");
      if (f) {
        fwrite(input.data(), 1, input.size(), f);
        fclose(f);
      }
    }
    alarm(hangSeconds);
    LLVMFuzzerTestOneInput(input.data(), input.size());
    alarm(0);
    ++done;
    if (isNew() && corpus.size() < 20000) {
      corpus.push_back(input);
      if (!corpusOut.empty()) {
        FILE* f = fopen((corpusOut + "/new-" + std::to_string(done)).c_str(), "wb");
        if (f) {
          fwrite(input.data(), 1, input.size(), f);
          fclose(f);
        }
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - lastReport > std::chrono::seconds(60)) {
      lastReport = now;
      printf("#%ld exec/s %.0f ft %zu corp %zu\n", done,
             done / std::chrono::duration<double>(now - t0).count(), seen.size(), corpus.size());
      fflush(stdout);
    }
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("model_api_fuzz: %ld mutated runs + %zu seeds in %.1f s (%.0f exec/s), %zu outcome "
         "features, corpus %zu, no crash\n", done, seeds, elapsed, done / elapsed, seen.size(),
         corpus.size());
  return 0;
}
