// Deterministic mutation fuzzing of the .tflite reader without libFuzzer (works with gcc).
//
//   tflite_fuzz_smoke [--seconds S] [--iterations N] [--seed X] [--max-seed-bytes B]
//                     [FILE_OR_DIR ...]
//
// Seeds are the given .tflite files (directories are scanned for *.tflite; missing paths are
// skipped so the same command works before models are fetched) plus small models built in
// memory. Each iteration applies a few mutations to a seed — bit flips, byte/word overwrites with
// boundary values, offset corruption, vector-length tampering, truncation — runs the reader,
// validation and import planning on the result, and undoes the mutations. A crash or sanitizer
// report fails the run; otherwise the outcome counts are printed.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "tflite_builder.h"
#include "tflite_fuzz_target.h"

using nnapi_tflite::Activation;
using nnapi_tflite::Padding;
using nnapi_tflite::TfliteBuilder;
namespace op = nnapi_tflite::op;
namespace opt = nnapi_tflite::opt;

namespace {

struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
  // Byte ranges holding tensor data: mutating them rarely exercises the parser, so most
  // mutations aim elsewhere.
  std::vector<std::pair<size_t, size_t>> data_ranges;
};

std::vector<uint8_t> TinyConvModel() {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 4, 4, 2}, "input");
  std::vector<float> w(3 * 3 * 3 * 2), bias = {0.1f, -0.2f, 0.3f};
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.1f - 0.3f;
  int32_t wt = b.AddFloatConst({3, 3, 3, 2}, w, "weights");
  int32_t bt = b.AddFloatConst({3}, bias, "bias");
  int32_t c = b.AddFloatTensor({1, 4, 4, 3}, "conv");
  b.AddOperator(op::kConv2D, {in, wt, bt}, {c}, opt::kConv2D,
                TfliteBuilder::Conv2DOptions(Padding::kSame, 1, 1, Activation::kRelu));
  int32_t p = b.AddFloatTensor({1, 2, 2, 3}, "pool");
  b.AddOperator(op::kMaxPool2D, {c}, {p}, opt::kPool2D,
                TfliteBuilder::Pool2DOptions(Padding::kValid, 2, 2, 2, 2, Activation::kNone));
  int32_t shape = b.AddInt32Const({2}, {1, 12}, "shape");
  int32_t r = b.AddFloatTensor({1, 12}, "flat");
  b.AddOperator(op::kReshape, {p, shape}, {r}, opt::kReshape, TfliteBuilder::ReshapeOptions({1, 12}));
  int32_t s = b.AddFloatTensor({1, 12}, "probs");
  b.AddOperator(op::kSoftmax, {r}, {s}, opt::kSoftmax, TfliteBuilder::SoftmaxOptions(1.f));
  b.SetInputs({in});
  b.SetOutputs({s});
  return b.Finish();
}

std::vector<uint8_t> TinyFp16Model() {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 3}, "x");
  TfliteBuilder::TensorSpec h;
  h.shape = {1, 3};
  h.type = nnapi_tflite::TensorType::kFloat16;
  std::vector<uint16_t> half = {0x3c00, 0x4000, 0xbc00};  // 1, 2, -1
  h.buffer = b.AddBuffer(half);
  h.name = "w16";
  int32_t w16 = b.AddTensor(h);
  int32_t w = b.AddFloatTensor({1, 3}, "w");
  b.AddOperator(op::kDequantize, {w16}, {w});
  int32_t y = b.AddFloatTensor({1, 3}, "y");
  b.AddOperator(op::kAdd, {in, w}, {y}, opt::kAdd, TfliteBuilder::ActivationOptions(Activation::kRelu6));
  b.SetInputs({in});
  b.SetOutputs({y});
  return b.Finish();
}

bool ReadFile(const std::string& path, std::vector<uint8_t>* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  return true;
}

void AddSeedPath(const std::string& path, size_t max_bytes, std::vector<Seed>* seeds) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "tflite_fuzz_smoke: %s not found, skipped\n", path.c_str());
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    DIR* d = opendir(path.c_str());
    if (!d) return;
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 7 && n.compare(n.size() - 7, 7, ".tflite") == 0) names.push_back(n);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) AddSeedPath(path + "/" + n, max_bytes, seeds);
    return;
  }
  if (static_cast<size_t>(st.st_size) > max_bytes) {
    std::fprintf(stderr, "tflite_fuzz_smoke: %s is larger than --max-seed-bytes, skipped\n", path.c_str());
    return;
  }
  Seed s;
  s.name = path;
  if (!ReadFile(path, &s.bytes)) return;
  seeds->push_back(std::move(s));
}

void FindDataRanges(Seed* s) {
  nnapi_tflite::Model m;
  std::string err;
  if (!nnapi_tflite::ParseModel(s->bytes.data(), s->bytes.size(), &m, &err)) return;
  for (const auto& b : m.buffers) {
    if (b.size > 64) s->data_ranges.emplace_back(static_cast<size_t>(b.offset), static_cast<size_t>(b.size));
  }
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  // Picks a position, preferring bytes outside tensor data.
  size_t Pos(const Seed& s, size_t size) {
    for (int tries = 0; tries < 8; ++tries) {
      size_t p = Rand(size);
      bool in_data = false;
      for (const auto& r : s.data_ranges) {
        if (p >= r.first && p < r.first + r.second) {
          in_data = true;
          break;
        }
      }
      if (!in_data || tries == 7) return p;
    }
    return 0;
  }
  size_t Rand(size_t n) { return n ? static_cast<size_t>(rng_() % n) : 0; }

  // Mutates buf[0, *size) in place, logging original bytes so Undo() can restore them.
  void Mutate(const Seed& s, std::vector<uint8_t>* buf, size_t* size) {
    int n = 1 + static_cast<int>(Rand(4));
    for (int i = 0; i < n && *size > 0; ++i) {
      switch (Rand(8)) {
        case 0: {  // bit flip
          size_t p = Pos(s, *size);
          Save(*buf, p, 1);
          (*buf)[p] ^= static_cast<uint8_t>(1u << Rand(8));
          break;
        }
        case 1: {  // interesting byte
          static const uint8_t kBytes[] = {0, 1, 0x7f, 0x80, 0xff, 0xfe, 4, 8};
          size_t p = Pos(s, *size);
          Save(*buf, p, 1);
          (*buf)[p] = kBytes[Rand(sizeof(kBytes))];
          break;
        }
        case 2:
        case 3: {  // interesting 32-bit word at an aligned position (offsets, lengths, indices)
          if (*size < 4) break;
          size_t p = Pos(s, *size - 3) & ~size_t{3};
          uint32_t v;
          switch (Rand(7)) {
            case 0: v = 0; break;
            case 1: v = 0xffffffffu; break;
            case 2: v = 0x7fffffffu; break;
            case 3: v = static_cast<uint32_t>(*size); break;
            case 4: v = static_cast<uint32_t>(*size - p); break;
            case 5: v = 0x80000000u; break;
            default: v = static_cast<uint32_t>(Rand(1024)); break;
          }
          Save(*buf, p, 4);
          std::memcpy(buf->data() + p, &v, 4);
          break;
        }
        case 4: {  // offset corruption: nudge an aligned word by a small signed delta
          if (*size < 4) break;
          size_t p = Pos(s, *size - 3) & ~size_t{3};
          uint32_t v;
          std::memcpy(&v, buf->data() + p, 4);
          int32_t delta = static_cast<int32_t>(Rand(33)) - 16;
          v += static_cast<uint32_t>(delta * 4 + (Rand(4) == 0 ? 1 : 0));
          Save(*buf, p, 4);
          std::memcpy(buf->data() + p, &v, 4);
          break;
        }
        case 5: {  // length tampering: multiply a small word (likely a count) up
          if (*size < 4) break;
          size_t p = Pos(s, *size - 3) & ~size_t{3};
          uint32_t v;
          std::memcpy(&v, buf->data() + p, 4);
          if (v == 0 || v > 65536) v = 1;
          v = v * (2 + static_cast<uint32_t>(Rand(1u << 20)));
          Save(*buf, p, 4);
          std::memcpy(buf->data() + p, &v, 4);
          break;
        }
        case 6: {  // 16-bit vtable entry
          if (*size < 2) break;
          size_t p = Pos(s, *size - 1) & ~size_t{1};
          uint16_t v = static_cast<uint16_t>(Rand(2) ? Rand(65536) : Rand(64));
          Save(*buf, p, 2);
          std::memcpy(buf->data() + p, &v, 2);
          break;
        }
        case 7:  // truncation
          *size = Rand(*size);
          break;
      }
    }
  }

  void Undo(std::vector<uint8_t>* buf) {
    for (auto it = log_.rbegin(); it != log_.rend(); ++it) {
      std::memcpy(buf->data() + it->pos, it->old, it->len);
    }
    log_.clear();
  }

 private:
  struct Entry {
    size_t pos;
    size_t len;
    uint8_t old[4];
  };
  void Save(const std::vector<uint8_t>& buf, size_t p, size_t len) {
    Entry e;
    e.pos = p;
    e.len = len;
    std::memcpy(e.old, buf.data() + p, len);
    log_.push_back(e);
  }
  std::mt19937_64 rng_;
  std::vector<Entry> log_;
};

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  uint64_t max_iterations = 0;  // 0 = until time runs out
  uint64_t rng_seed = 12345;
  size_t max_seed_bytes = 8u << 20;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "tflite_fuzz_smoke: %s needs a value\n", what);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--seconds") seconds = std::atof(next("--seconds"));
    else if (a == "--iterations") max_iterations = std::strtoull(next("--iterations"), nullptr, 10);
    else if (a == "--seed") rng_seed = std::strtoull(next("--seed"), nullptr, 10);
    else if (a == "--max-seed-bytes") max_seed_bytes = std::strtoull(next("--max-seed-bytes"), nullptr, 10);
    else if (a == "--help" || a == "-h") {
      std::printf("usage: %s [--seconds S] [--iterations N] [--seed X] [--max-seed-bytes B] [FILE_OR_DIR...]\n", argv[0]);
      return 0;
    } else paths.push_back(a);
  }

  std::vector<Seed> seeds;
  seeds.push_back({"<tiny conv model>", TinyConvModel(), {}});
  seeds.push_back({"<tiny fp16 model>", TinyFp16Model(), {}});
  for (const std::string& p : paths) AddSeedPath(p, max_seed_bytes, &seeds);

  // The unmutated seeds must all be accepted, or the mutations below test nothing useful.
  int bad_seeds = 0;
  for (Seed& s : seeds) {
    int r = TfliteFuzzOne(s.bytes.data(), s.bytes.size());
    if (r < kFuzzValid) {
      std::fprintf(stderr, "tflite_fuzz_smoke: seed %s is not a valid model\n", s.name.c_str());
      ++bad_seeds;
    }
    FindDataRanges(&s);
  }

  Mutator mut(rng_seed);
  size_t small_seeds = 0;
  std::stable_partition(seeds.begin(), seeds.end(), [](const Seed& s) { return s.bytes.size() < (512u << 10); });
  for (const Seed& s : seeds) small_seeds += s.bytes.size() < (512u << 10);
  uint64_t counts[4] = {0, 0, 0, 0};
  uint64_t iterations = 0;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(seconds);
  std::vector<std::vector<uint8_t>> work;
  for (const Seed& s : seeds) work.push_back(s.bytes);
  while (max_iterations == 0 || iterations < max_iterations) {
    if ((iterations & 63) == 0 && std::chrono::steady_clock::now() >= deadline) break;
    // Half the inputs come from the small seeds: they parse fastest, so more structure gets hit.
    size_t k = mut.Rand(2) ? mut.Rand(small_seeds) : mut.Rand(seeds.size());
    size_t size = work[k].size();
    mut.Mutate(seeds[k], &work[k], &size);
    int r;
    if (size < work[k].size()) {
      // Truncated: copy so that reads past `size` land outside the allocation (sanitizers see them).
      std::vector<uint8_t> input(work[k].begin(), work[k].begin() + static_cast<std::ptrdiff_t>(size));
      r = TfliteFuzzOne(input.data(), input.size());
    } else {
      r = TfliteFuzzOne(work[k].data(), size);
    }
    counts[r]++;
    mut.Undo(&work[k]);
    ++iterations;
  }
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("tflite_fuzz_smoke: %zu seeds, %llu inputs in %.1f s: %llu parse errors, %llu invalid, "
              "%llu valid (not fully importable), %llu importable\n",
              seeds.size(), static_cast<unsigned long long>(iterations), elapsed,
              static_cast<unsigned long long>(counts[kFuzzParseError]),
              static_cast<unsigned long long>(counts[kFuzzInvalid]),
              static_cast<unsigned long long>(counts[kFuzzValid]),
              static_cast<unsigned long long>(counts[kFuzzImported]));
  return bad_seeds ? 1 : 0;
}
