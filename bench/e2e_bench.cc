// End-to-end benchmark of the NNAPI runtime through the public C API only:
//  * a MobileNet-v1-224 (alpha 1.0) shaped float32 network with synthetic weights
//    (model build time, compilation time, per-inference latency distribution);
//  * the fixed per-execution cost of the runtime, measured on a 4-element ADD model;
//  * heap allocations on the steady-state path, counted by replacing malloc/operator new
//    in this binary (the interposed symbols also catch calls made inside libneuralnetworks.so);
//  * with --concurrent, the aggregate MobileNet throughput of 2 application threads computing
//    on one compilation (1 driver thread), against one application thread alone.
//
// Thread count comes from NNAPI_CPU_THREADS, which the CPU driver reads once per process;
// --threads-sweep therefore re-executes this binary once per thread count.

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include "quant_mobilenet.h"

#include <errno.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <thread>
#include <vector>

// ---------------------------------------------------------------------------------------------
// Allocation counting. glibc supports replacing the malloc family from the executable; the
// __libc_* entry points are the allocator underneath. Counting is a relaxed atomic increment so
// it costs nothing measurable when the steady path does not allocate (the goal).
// ---------------------------------------------------------------------------------------------
extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace {
std::atomic<uint64_t> g_allocCount{0};
inline void countAlloc() { g_allocCount.fetch_add(1, std::memory_order_relaxed); }
uint64_t allocCount() { return g_allocCount.load(std::memory_order_relaxed); }
}  // namespace

extern "C" {
void* malloc(size_t n) {
  countAlloc();
  return __libc_malloc(n);
}
void free(void* p) { __libc_free(p); }
void* calloc(size_t n, size_t s) {
  countAlloc();
  return __libc_calloc(n, s);
}
void* realloc(void* p, size_t n) {
  countAlloc();
  return __libc_realloc(p, n);
}
void* memalign(size_t a, size_t n) {
  countAlloc();
  return __libc_memalign(a, n);
}
void* aligned_alloc(size_t a, size_t n) {
  countAlloc();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  if (a < sizeof(void*) || (a & (a - 1)) != 0) return EINVAL;
  countAlloc();
  void* p = __libc_memalign(a, n);
  if (p == nullptr && n != 0) return ENOMEM;
  *out = p;
  return 0;
}
}

// operator new is replaced too so that allocations are counted once (the default operator new
// would otherwise reach our malloc anyway, but an inlined/static libstdc++ might not).
static void* countedNew(size_t n) {
  countAlloc();
  void* p = __libc_malloc(n ? n : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
static void* countedNewAligned(size_t n, std::align_val_t al) {
  countAlloc();
  size_t a = static_cast<size_t>(al);
  if (a < sizeof(void*)) a = sizeof(void*);
  void* p = __libc_memalign(a, n ? n : 1);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(size_t n) { return countedNew(n); }
void* operator new[](size_t n) { return countedNew(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  countAlloc();
  return __libc_malloc(n ? n : 1);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  countAlloc();
  return __libc_malloc(n ? n : 1);
}
void* operator new(size_t n, std::align_val_t a) { return countedNewAligned(n, a); }
void* operator new[](size_t n, std::align_val_t a) { return countedNewAligned(n, a); }
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, size_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { __libc_free(p); }

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void fail(const char* what, int code) {
  fprintf(stderr, "nnapi_bench_e2e: %s failed with result code %d\n", what, code);
  exit(1);
}
#define CHECK_NN(call)                                 \
  do {                                                 \
    const int nn_rc_ = (call);                         \
    if (nn_rc_ != ANEURALNETWORKS_NO_ERROR) fail(#call, nn_rc_); \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------
struct Options {
  int warmup = 3;
  int runs = 30;
  double maxSeconds = 10.0;  // wall-time cap for the MobileNet latency loop
  long fixedIters = 200000;
  long fixedWarmup = 2000;
  double fixedMaxSeconds = 4.0;  // wall-time cap for each fixed-cost loop
  bool weightsFromMemory = false;
  bool threadsSweep = false;
  bool skipMobilenet = false;
  bool skipQuant = false;  // The quantized MobileNets (quant_mobilenet.h)
  bool skipFixed = false;
  bool concurrent = false;
  double concurrentSeconds = 5.0;  // duration of each concurrent-measure phase
  std::string json;
  std::string cacheDir;  // ANeuralNetworksCompilation_setCaching for the MobileNet compilation
};

void usage(const char* argv0) {
  printf(
      "usage: %s [options]\n"
      "  --warmup N              MobileNet warmup inferences (default 3)\n"
      "  --runs N                MobileNet timed inferences (default 30)\n"
      "  --max-seconds S         stop the timed MobileNet loop after S seconds (default 10)\n"
      "  --fixed-iters N         iterations of each fixed-cost loop (default 200000)\n"
      "  --fixed-max-seconds S   stop each fixed-cost loop after S seconds (default 4)\n"
      "  --weights-from-memory   put all weight tensors in one memfd (ANeuralNetworksMemory)\n"
      "  --threads-sweep         re-run this binary with NNAPI_CPU_THREADS=1 and =2\n"
      "  --no-mobilenet          skip the MobileNet benchmark\n"
      "  --no-quant              skip the uint8/int8 MobileNet-v1/-v2 benchmarks\n"
      "  --no-fixed              skip the fixed-cost benchmark\n"
      "  --concurrent            only the concurrent measure: MobileNet throughput of 2\n"
      "                          application threads on one compilation vs 1 thread\n"
      "                          (1 driver thread per computation: ANNLinux_Compilation_setCpuThreadCount)\n"
      "  --concurrent-seconds S  duration of each concurrent phase (default 5)\n"
      "  --json FILE             also write the results as JSON\n"
      "  --cache-dir DIR         MobileNet compilation caching in DIR (a fixed token); run twice\n"
      "                          to compare a cold and a warm compilation\n"
      "  -h, --help              print this help and exit\n"
      "\n"
      "exit status: 0 done, 1 a benchmark or the --json file failed, 2 bad usage\n",
      argv0);
}

bool parseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](const char* name) -> const char* {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s needs a value\n", name);
        exit(2);
      }
      return argv[++i];
    };
    auto nextInt = [&](const char* name, long lo) -> long {
      const char* v = next(name);
      char* end = nullptr;
      const long x = strtol(v, &end, 10);
      if (end == v || *end != '\0' || x < lo) {
        fprintf(stderr, "%s: bad value '%s'\n", name, v);
        exit(2);
      }
      return x;
    };
    auto nextDouble = [&](const char* name) -> double {
      const char* v = next(name);
      char* end = nullptr;
      const double x = strtod(v, &end);
      if (end == v || *end != '\0' || !(x > 0)) {
        fprintf(stderr, "%s: bad value '%s'\n", name, v);
        exit(2);
      }
      return x;
    };
    if (a == "--warmup") o->warmup = static_cast<int>(nextInt("--warmup", 0));
    else if (a == "--runs") o->runs = static_cast<int>(nextInt("--runs", 1));
    else if (a == "--max-seconds") o->maxSeconds = nextDouble("--max-seconds");
    else if (a == "--fixed-iters") o->fixedIters = nextInt("--fixed-iters", 1);
    else if (a == "--fixed-max-seconds") o->fixedMaxSeconds = nextDouble("--fixed-max-seconds");
    else if (a == "--weights-from-memory") o->weightsFromMemory = true;
    else if (a == "--threads-sweep") o->threadsSweep = true;
    else if (a == "--no-mobilenet") o->skipMobilenet = true;
    else if (a == "--no-quant") o->skipQuant = true;
    else if (a == "--no-fixed") o->skipFixed = true;
    else if (a == "--concurrent") o->concurrent = true;
    else if (a == "--concurrent-seconds") o->concurrentSeconds = nextDouble("--concurrent-seconds");
    else if (a == "--json") o->json = next("--json");
    else if (a == "--cache-dir") o->cacheDir = next("--cache-dir");
    else if (a == "-h" || a == "--help") {
      usage(argv[0]);
      exit(0);
    } else {
      fprintf(stderr, "unknown option '%s'\n", a.c_str());
      usage(argv[0]);
      return false;
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Results: a flat list of (key, value) so that the table, the JSON file and the sweep parser all
// agree on the same names.
// ---------------------------------------------------------------------------------------------
struct Results {
  std::vector<std::pair<std::string, double>> values;
  std::vector<std::pair<std::string, std::string>> strings;
  void set(const std::string& k, double v) {
    for (auto& kv : values)
      if (kv.first == k) {
        kv.second = v;
        return;
      }
    values.emplace_back(k, v);
  }
  void setStr(const std::string& k, const std::string& v) { strings.emplace_back(k, v); }
  bool get(const std::string& k, double* v) const {
    for (auto& kv : values)
      if (kv.first == k) {
        *v = kv.second;
        return true;
      }
    return false;
  }
};

std::string jsonEscape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    r += c;
  }
  return r;
}

void writeJsonObject(FILE* f, const Results& r, const char* indent) {
  fprintf(f, "{\n");
  bool first = true;
  for (auto& kv : r.strings) {
    fprintf(f, "%s%s  \"%s\": \"%s\"", first ? "" : ",\n", indent, jsonEscape(kv.first).c_str(),
            jsonEscape(kv.second).c_str());
    first = false;
  }
  for (auto& kv : r.values) {
    fprintf(f, "%s%s  \"%s\": %.6g", first ? "" : ",\n", indent, jsonEscape(kv.first).c_str(),
            std::isfinite(kv.second) ? kv.second : -1.0);
    first = false;
  }
  fprintf(f, "\n%s}", indent);
}

bool writeJsonFile(const std::string& path, const std::vector<std::pair<std::string, Results>>& runs) {
  FILE* f = fopen(path.c_str(), "w");
  if (f == nullptr) {
    fprintf(stderr, "cannot write %s: %s\n", path.c_str(), strerror(errno));
    return false;
  }
  if (runs.size() == 1) {
    writeJsonObject(f, runs[0].second, "");
  } else {
    fprintf(f, "{\n");
    for (size_t i = 0; i < runs.size(); ++i) {
      fprintf(f, "  \"%s\": ", runs[i].first.c_str());
      writeJsonObject(f, runs[i].second, "  ");
      fprintf(f, "%s\n", i + 1 < runs.size() ? "," : "");
    }
    fprintf(f, "}");
  }
  fprintf(f, "\n");
  fclose(f);
  return true;
}

// Reads back the flat numeric members written by writeJsonObject (single-run form).
Results readFlatJson(const std::string& path) {
  Results r;
  FILE* f = fopen(path.c_str(), "r");
  if (f == nullptr) return r;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  fclose(f);
  size_t pos = 0;
  while ((pos = text.find('"', pos)) != std::string::npos) {
    const size_t end = text.find('"', pos + 1);
    if (end == std::string::npos) break;
    const std::string key = text.substr(pos + 1, end - pos - 1);
    size_t v = text.find_first_not_of(" :\t", end + 1);
    if (v == std::string::npos) break;
    if (text[v] == '"') {
      const size_t vend = text.find('"', v + 1);
      if (vend == std::string::npos) break;
      r.setStr(key, text.substr(v + 1, vend - v - 1));
      pos = vend + 1;
    } else {
      char* e = nullptr;
      const double d = strtod(text.c_str() + v, &e);
      r.set(key, d);
      pos = static_cast<size_t>(e - text.c_str());
    }
  }
  return r;
}

struct Stats {
  double min = 0, median = 0, mean = 0, p90 = 0, max = 0;
  size_t n = 0;
};
Stats computeStats(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.min = v.front();
  s.max = v.back();
  s.median = (v.size() % 2) ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  double sum = 0;
  for (double x : v) sum += x;
  s.mean = sum / v.size();
  // Nearest-rank percentile.
  size_t rank = static_cast<size_t>(std::ceil(0.9 * v.size()));
  s.p90 = v[std::max<size_t>(rank, 1) - 1];
  return s;
}

// Deterministic generator so that every run benchmarks exactly the same numbers.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(s >> 33);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * (next() * (1.0f / 2147483648.0f)); }
};

// ---------------------------------------------------------------------------------------------
// Model building helpers
// ---------------------------------------------------------------------------------------------
class ModelBuilder {
 public:
  ModelBuilder(ANeuralNetworksModel* m, bool fromMemory) : model_(m), fromMemory_(fromMemory) {}

  uint32_t tensor(std::vector<uint32_t> dims, int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
    ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()), dims.data(), 0.0f, 0};
    CHECK_NN(ANeuralNetworksModel_addOperand(model_, &t));
    return next_++;
  }
  uint32_t int32Scalar(int32_t v) {
    ANeuralNetworksOperandType t{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f, 0};
    CHECK_NN(ANeuralNetworksModel_addOperand(model_, &t));
    CHECK_NN(ANeuralNetworksModel_setOperandValue(model_, next_, &v, sizeof v));
    return next_++;
  }
  uint32_t float32Scalar(float v) {
    ANeuralNetworksOperandType t{ANEURALNETWORKS_FLOAT32, 0, nullptr, 0.0f, 0};
    CHECK_NN(ANeuralNetworksModel_addOperand(model_, &t));
    CHECK_NN(ANeuralNetworksModel_setOperandValue(model_, next_, &v, sizeof v));
    return next_++;
  }
  // A constant tensor whose bytes live at `data` (kept alive by the caller), or at `offset` in
  // `memory` when building from shared memory.
  uint32_t constTensor(std::vector<uint32_t> dims, const void* data, size_t bytes,
                       ANeuralNetworksMemory* memory, size_t offset,
                       int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
    const uint32_t id = tensor(std::move(dims), type);
    if (fromMemory_ && memory != nullptr) {
      CHECK_NN(ANeuralNetworksModel_setOperandValueFromMemory(model_, id, memory, offset, bytes));
    } else {
      CHECK_NN(ANeuralNetworksModel_setOperandValue(model_, id, data, bytes));
    }
    return id;
  }
  void op(ANeuralNetworksOperationType type, std::vector<uint32_t> in, std::vector<uint32_t> out) {
    CHECK_NN(ANeuralNetworksModel_addOperation(model_, type, static_cast<uint32_t>(in.size()),
                                               in.data(), static_cast<uint32_t>(out.size()),
                                               out.data()));
  }

 private:
  ANeuralNetworksModel* model_;
  bool fromMemory_;
  uint32_t next_ = 0;
};

// ---------------------------------------------------------------------------------------------
// MobileNet v1
// ---------------------------------------------------------------------------------------------
enum class LayerKind { kConv, kDepthwise, kPointwise, kAvgPool, kReshape, kFc, kSoftmax };
struct Layer {
  LayerKind kind;
  uint32_t inC, outC, stride, k;   // k: kernel size
  uint32_t inH, outH;              // square feature maps
  size_t wOffset = 0, bOffset = 0;  // element offsets into the weight blob
  size_t wCount = 0, bCount = 0;
};

struct MobileNetSpec {
  std::vector<Layer> layers;
  std::vector<float> blob;  // all weights and biases, each tensor 64-byte aligned
  double macs = 0;
};

size_t alignUp(size_t x, size_t a) { return (x + a - 1) / a * a; }

MobileNetSpec makeMobileNetSpec() {
  MobileNetSpec spec;
  size_t cursor = 0;  // in floats
  auto reserve = [&](size_t count) {
    const size_t off = cursor;
    cursor = alignUp(cursor + count, 16);  // 16 floats = 64 bytes
    return off;
  };
  auto add = [&](LayerKind kind, uint32_t inC, uint32_t outC, uint32_t stride, uint32_t k,
                 uint32_t inH) {
    Layer l{kind, inC, outC, stride, k, inH, (inH + stride - 1) / stride};
    switch (kind) {
      case LayerKind::kConv:
        l.wCount = size_t(outC) * k * k * inC;
        l.bCount = outC;
        spec.macs += double(l.outH) * l.outH * outC * k * k * inC;
        break;
      case LayerKind::kDepthwise:
        l.wCount = size_t(k) * k * outC;
        l.bCount = outC;
        spec.macs += double(l.outH) * l.outH * outC * k * k;
        break;
      case LayerKind::kPointwise:
        l.wCount = size_t(outC) * inC;
        l.bCount = outC;
        spec.macs += double(l.outH) * l.outH * outC * inC;
        break;
      case LayerKind::kFc:
        l.wCount = size_t(outC) * inC;
        l.bCount = outC;
        spec.macs += double(outC) * inC;
        break;
      default:
        break;
    }
    if (l.wCount) l.wOffset = reserve(l.wCount);
    if (l.bCount) l.bOffset = reserve(l.bCount);
    spec.layers.push_back(l);
    return l.outH;
  };

  uint32_t h = add(LayerKind::kConv, 3, 32, 2, 3, 224);
  struct Block {
    uint32_t stride, outC;
  };
  const Block blocks[13] = {{1, 64},  {2, 128}, {1, 128}, {2, 256}, {1, 256},
                            {2, 512}, {1, 512}, {1, 512}, {1, 512}, {1, 512},
                            {1, 512}, {2, 1024}, {1, 1024}};
  uint32_t c = 32;
  for (const Block& b : blocks) {
    h = add(LayerKind::kDepthwise, c, c, b.stride, 3, h);
    h = add(LayerKind::kPointwise, c, b.outC, 1, 1, h);
    c = b.outC;
  }
  spec.layers.push_back(Layer{LayerKind::kAvgPool, c, c, 1, h, h, 1});
  spec.layers.push_back(Layer{LayerKind::kReshape, c, c, 1, 1, 1, 1});
  add(LayerKind::kFc, c, 1001, 1, 1, 1);
  spec.layers.push_back(Layer{LayerKind::kSoftmax, 1001, 1001, 1, 1, 1, 1});

  // He-style uniform init keeps activations in a normal range through 27 RELU6 layers, so the
  // benchmark never runs on denormals or saturated zeros.
  spec.blob.assign(cursor, 0.0f);
  Rng rng(0x5eed1234u);
  for (const Layer& l : spec.layers) {
    if (l.wCount == 0) continue;
    size_t fanIn = l.inC;
    if (l.kind == LayerKind::kConv) fanIn = size_t(l.k) * l.k * l.inC;
    if (l.kind == LayerKind::kDepthwise) fanIn = size_t(l.k) * l.k;
    const float a = std::sqrt(6.0f / float(fanIn));
    for (size_t i = 0; i < l.wCount; ++i) spec.blob[l.wOffset + i] = rng.uniform(-a, a);
    for (size_t i = 0; i < l.bCount; ++i) spec.blob[l.bOffset + i] = rng.uniform(0.0f, 0.1f);
  }
  return spec;
}

// Builds the network; returns the model. `memory` is non-null in --weights-from-memory mode and
// maps exactly `spec.blob`.
ANeuralNetworksModel* buildMobileNet(const MobileNetSpec& spec, ANeuralNetworksMemory* memory) {
  ANeuralNetworksModel* model = nullptr;
  CHECK_NN(ANeuralNetworksModel_create(&model));
  ModelBuilder b(model, memory != nullptr);
  const float* blob = spec.blob.data();

  const uint32_t input = b.tensor({1, 224, 224, 3});
  const uint32_t padSame = b.int32Scalar(ANEURALNETWORKS_PADDING_SAME);
  const uint32_t padValid = b.int32Scalar(ANEURALNETWORKS_PADDING_VALID);
  const uint32_t one = b.int32Scalar(1);
  const uint32_t two = b.int32Scalar(2);
  const uint32_t relu6 = b.int32Scalar(ANEURALNETWORKS_FUSED_RELU6);
  const uint32_t actNone = b.int32Scalar(ANEURALNETWORKS_FUSED_NONE);

  auto weights = [&](const Layer& l, std::vector<uint32_t> dims) {
    return b.constTensor(std::move(dims), blob + l.wOffset, l.wCount * sizeof(float), memory,
                         l.wOffset * sizeof(float));
  };
  auto bias = [&](const Layer& l) {
    return b.constTensor({l.bCount ? static_cast<uint32_t>(l.bCount) : 1u}, blob + l.bOffset,
                         l.bCount * sizeof(float), memory, l.bOffset * sizeof(float));
  };

  uint32_t cur = input;
  uint32_t output = 0;
  for (const Layer& l : spec.layers) {
    const uint32_t stride = l.stride == 2 ? two : one;
    switch (l.kind) {
      case LayerKind::kConv: {
        const uint32_t w = weights(l, {l.outC, l.k, l.k, l.inC});
        const uint32_t bi = bias(l);
        const uint32_t out = b.tensor({1, l.outH, l.outH, l.outC});
        b.op(ANEURALNETWORKS_CONV_2D, {cur, w, bi, padSame, stride, stride, relu6}, {out});
        cur = out;
        break;
      }
      case LayerKind::kDepthwise: {
        const uint32_t w = weights(l, {1, l.k, l.k, l.outC});
        const uint32_t bi = bias(l);
        const uint32_t out = b.tensor({1, l.outH, l.outH, l.outC});
        b.op(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
             {cur, w, bi, padSame, stride, stride, one, relu6}, {out});
        cur = out;
        break;
      }
      case LayerKind::kPointwise: {
        const uint32_t w = weights(l, {l.outC, 1, 1, l.inC});
        const uint32_t bi = bias(l);
        const uint32_t out = b.tensor({1, l.outH, l.outH, l.outC});
        b.op(ANEURALNETWORKS_CONV_2D, {cur, w, bi, padSame, one, one, relu6}, {out});
        cur = out;
        break;
      }
      case LayerKind::kAvgPool: {
        // A 7x7 window over a 7x7 map: VALID padding is what yields the 1x1 output (SAME with
        // stride 1 would keep 7x7).
        const uint32_t win = b.int32Scalar(static_cast<int32_t>(l.k));
        const uint32_t out = b.tensor({1, 1, 1, l.outC});
        b.op(ANEURALNETWORKS_AVERAGE_POOL_2D, {cur, padValid, one, one, win, win, actNone}, {out});
        cur = out;
        break;
      }
      case LayerKind::kReshape: {
        // Two INT32s (8 bytes) are copied by setOperandValue, so a local is fine.
        const int32_t shape[2] = {1, static_cast<int32_t>(l.outC)};
        const uint32_t s = b.tensor({2}, ANEURALNETWORKS_TENSOR_INT32);
        CHECK_NN(ANeuralNetworksModel_setOperandValue(model, s, shape, sizeof shape));
        const uint32_t out = b.tensor({1, l.outC});
        b.op(ANEURALNETWORKS_RESHAPE, {cur, s}, {out});
        cur = out;
        break;
      }
      case LayerKind::kFc: {
        const uint32_t w = weights(l, {l.outC, l.inC});
        const uint32_t bi = bias(l);
        const uint32_t out = b.tensor({1, l.outC});
        b.op(ANEURALNETWORKS_FULLY_CONNECTED, {cur, w, bi, actNone}, {out});
        cur = out;
        break;
      }
      case LayerKind::kSoftmax: {
        const uint32_t beta = b.float32Scalar(1.0f);
        const uint32_t out = b.tensor({1, l.outC});
        b.op(ANEURALNETWORKS_SOFTMAX, {cur, beta}, {out});
        cur = out;
        output = out;
        break;
      }
    }
  }
  CHECK_NN(ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &input, 1, &output));
  CHECK_NN(ANeuralNetworksModel_finish(model));
  return model;
}

// The weights go into one anonymous memfd; the runtime maps it read-only.
struct SharedWeights {
  int fd = -1;
  ANeuralNetworksMemory* memory = nullptr;
  size_t bytes = 0;
};

bool makeSharedWeights(const std::vector<float>& blob, SharedWeights* out) {
  out->bytes = blob.size() * sizeof(float);
  out->fd = memfd_create("nnapi_bench_weights", MFD_CLOEXEC);
  if (out->fd < 0) {
    fprintf(stderr, "memfd_create failed: %s\n", strerror(errno));
    return false;
  }
  if (ftruncate(out->fd, static_cast<off_t>(out->bytes)) != 0) {
    fprintf(stderr, "ftruncate failed: %s\n", strerror(errno));
    return false;
  }
  void* p = mmap(nullptr, out->bytes, PROT_READ | PROT_WRITE, MAP_SHARED, out->fd, 0);
  if (p == MAP_FAILED) {
    fprintf(stderr, "mmap failed: %s\n", strerror(errno));
    return false;
  }
  memcpy(p, blob.data(), out->bytes);
  munmap(p, out->bytes);
  return true;
}

int threadsFromEnv() {
  const char* env = getenv("NNAPI_CPU_THREADS");
  if (env == nullptr) return 0;
  return atoi(env);
}

void runMobileNet(const Options& opt, Results* res) {
  const MobileNetSpec spec = makeMobileNetSpec();
  res->set("mobilenet_gmacs", spec.macs / 1e9);
  res->set("mobilenet_weight_mb", spec.blob.size() * sizeof(float) / 1e6);

  SharedWeights shared;
  if (opt.weightsFromMemory && !makeSharedWeights(spec.blob, &shared)) exit(1);

  const auto tBuild = Clock::now();
  if (opt.weightsFromMemory) {
    CHECK_NN(ANeuralNetworksMemory_createFromFd(shared.bytes, PROT_READ, shared.fd, 0,
                                                &shared.memory));
  }
  ANeuralNetworksModel* model = buildMobileNet(spec, shared.memory);
  const double buildMs = msSince(tBuild);

  const auto tCompile = Clock::now();
  ANeuralNetworksCompilation* compilation = nullptr;
  CHECK_NN(ANeuralNetworksCompilation_create(model, &compilation));
  CHECK_NN(ANeuralNetworksCompilation_setPreference(
      compilation, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER));
  if (!opt.cacheDir.empty()) {
    // One token for this generated MobileNet (its weights are a fixed pseudo-random blob).
    uint8_t token[ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN];
    for (size_t i = 0; i < sizeof(token); ++i) token[i] = static_cast<uint8_t>(0x4d + 3 * i);
    CHECK_NN(ANeuralNetworksCompilation_setCaching(compilation, opt.cacheDir.c_str(), token));
  }
  const auto tFinish = Clock::now();
  CHECK_NN(ANeuralNetworksCompilation_finish(compilation));
  const double finishMs = msSince(tFinish);
  const double compileMs = msSince(tCompile);
  res->set("mobilenet_build_ms", buildMs);
  res->set("mobilenet_compile_finish_ms", finishMs);
  res->set("mobilenet_compile_total_ms", compileMs);

  std::vector<float> input(1 * 224 * 224 * 3);
  Rng rng(42);
  for (float& x : input) x = rng.uniform(-1.0f, 1.0f);
  std::vector<float> output(1001), first(1001);

  auto inferOnce = [&]() {
    ANeuralNetworksExecution* e = nullptr;
    CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(),
                                               input.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, output.data(),
                                                output.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_compute(e));
    ANeuralNetworksExecution_free(e);
  };

  const auto tFirst = Clock::now();
  inferOnce();
  res->set("mobilenet_first_inference_ms", msSince(tFirst));
  first = output;
  for (int i = 1; i < opt.warmup; ++i) inferOnce();

  std::vector<double> lat;
  const auto tLoop = Clock::now();
  for (int i = 0; i < opt.runs; ++i) {
    const auto t0 = Clock::now();
    inferOnce();
    lat.push_back(msSince(t0));
    if (msSince(tLoop) > opt.maxSeconds * 1000.0) break;
  }
  const Stats s = computeStats(lat);
  res->set("mobilenet_runs", double(s.n));
  res->set("mobilenet_min_ms", s.min);
  res->set("mobilenet_median_ms", s.median);
  res->set("mobilenet_mean_ms", s.mean);
  res->set("mobilenet_p90_ms", s.p90);
  res->set("mobilenet_max_ms", s.max);
  res->set("mobilenet_gflops_at_median", 2.0 * spec.macs / (s.median * 1e6));

  // Sanity of the result: a softmax is finite, sums to 1, and repeated runs agree.
  double sum = 0, maxDiff = 0;
  bool finite = true;
  size_t argmax = 0;
  for (size_t i = 0; i < output.size(); ++i) {
    finite = finite && std::isfinite(output[i]);
    sum += output[i];
    maxDiff = std::max(maxDiff, double(std::fabs(output[i] - first[i])));
    if (output[i] > output[argmax]) argmax = i;
  }
  res->set("mobilenet_output_sum", sum);
  res->set("mobilenet_output_argmax", double(argmax));
  res->set("mobilenet_output_max_prob", output[argmax]);
  res->set("mobilenet_run_to_run_max_abs_diff", maxDiff);
  if (!finite || std::fabs(sum - 1.0) > 1e-3) {
    fprintf(stderr, "WARNING: MobileNet output is not a valid softmax (sum %.6f, finite %d)\n",
            sum, int(finite));
  }

  // Steady-state allocations of a whole MobileNet inference on a reusable execution.
  ANeuralNetworksExecution* e = nullptr;
  CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
  if (ANeuralNetworksExecution_setReusable(e, true) == ANEURALNETWORKS_NO_ERROR) {
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(),
                                               input.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, output.data(),
                                                output.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_compute(e));  // first compute may set things up
    const int n = 3;
    const uint64_t a0 = allocCount();
    for (int i = 0; i < n; ++i) CHECK_NN(ANeuralNetworksExecution_compute(e));
    res->set("mobilenet_allocs_per_reusable_compute", double(allocCount() - a0) / n);
  } else {
    res->set("mobilenet_allocs_per_reusable_compute", -1);
  }
  ANeuralNetworksExecution_free(e);

  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
  if (shared.memory) ANeuralNetworksMemory_free(shared.memory);
  if (shared.fd >= 0) close(shared.fd);
}

// ---------------------------------------------------------------------------------------------
// Concurrent: application threads sharing one MobileNet compilation, each computation on one
// driver thread. Once the executions of a compilation no longer serialize inside the driver,
// N such threads on N idle cores approach N times the throughput of one.
// ---------------------------------------------------------------------------------------------
constexpr int kConcurrentThreads = 2;

// `threads` application threads compute MobileNet on `compilation`, a fresh execution per
// inference, until `seconds` have passed. Returns inferences per second over the whole phase
// (from the common start to the end of the last thread's last inference); *inferences gets the
// total and *mismatches the outputs that differ bit for bit from `reference`.
double measureThroughput(ANeuralNetworksCompilation* compilation, int threads, double seconds,
                         const std::vector<float>& input, const std::vector<float>& reference,
                         long* inferences, long* mismatches) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  Clock::time_point start;  // written before `go` is released, read after it is seen
  std::vector<long> counts(threads, 0), bad(threads, 0);
  std::vector<Clock::time_point> ends(threads);
  auto body = [&](int t) {
    std::vector<float> output(reference.size());
    ready.fetch_add(1);
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
    const auto deadline =
        start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    do {
      ANeuralNetworksExecution* e = nullptr;
      CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
      CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(),
                                                 input.size() * sizeof(float)));
      CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, output.data(),
                                                  output.size() * sizeof(float)));
      CHECK_NN(ANeuralNetworksExecution_compute(e));
      ANeuralNetworksExecution_free(e);
      if (memcmp(output.data(), reference.data(), output.size() * sizeof(float)) != 0) ++bad[t];
      ++counts[t];
    } while (Clock::now() < deadline);
    ends[t] = Clock::now();
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  while (ready.load() < threads) std::this_thread::yield();
  start = Clock::now();
  go.store(true, std::memory_order_release);
  for (std::thread& th : pool) th.join();
  *inferences = 0;
  *mismatches = 0;
  Clock::time_point end = start;
  for (int t = 0; t < threads; ++t) {
    *inferences += counts[t];
    *mismatches += bad[t];
    end = std::max(end, ends[t]);
  }
  const double elapsed = std::chrono::duration<double>(end - start).count();
  return elapsed > 0 ? double(*inferences) / elapsed : 0.0;
}

void runConcurrent(const Options& opt, Results* res) {
  const MobileNetSpec spec = makeMobileNetSpec();
  ANeuralNetworksModel* model = buildMobileNet(spec, nullptr);
  ANeuralNetworksCompilation* compilation = nullptr;
  CHECK_NN(ANeuralNetworksCompilation_create(model, &compilation));
  CHECK_NN(ANeuralNetworksCompilation_setPreference(compilation,
                                                    ANEURALNETWORKS_PREFER_SUSTAINED_SPEED));
  CHECK_NN(ANNLinux_Compilation_setCpuThreadCount(compilation, 1));
  CHECK_NN(ANeuralNetworksCompilation_finish(compilation));

  std::vector<float> input(1 * 224 * 224 * 3);
  Rng rng(42);
  for (float& x : input) x = rng.uniform(-1.0f, 1.0f);
  // The reference output, and warm-up (first-run set-up, caches, thread start).
  std::vector<float> reference(1001);
  for (int i = 0; i < std::max(opt.warmup, 1); ++i) {
    ANeuralNetworksExecution* e = nullptr;
    CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(),
                                               input.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, reference.data(),
                                                reference.size() * sizeof(float)));
    CHECK_NN(ANeuralNetworksExecution_compute(e));
    ANeuralNetworksExecution_free(e);
  }

  long n1 = 0, bad1 = 0, n2 = 0, bad2 = 0;
  const double ips1 =
      measureThroughput(compilation, 1, opt.concurrentSeconds, input, reference, &n1, &bad1);
  const double ips2 = measureThroughput(compilation, kConcurrentThreads, opt.concurrentSeconds,
                                        input, reference, &n2, &bad2);
  res->set("concurrent_app_threads", kConcurrentThreads);
  res->set("concurrent_single_ips", ips1);
  res->set("concurrent_single_inferences", double(n1));
  res->set("concurrent_aggregate_ips", ips2);
  res->set("concurrent_aggregate_inferences", double(n2));
  res->set("concurrent_ratio", ips1 > 0 ? ips2 / ips1 : 0.0);
  res->set("concurrent_output_mismatches", double(bad1 + bad2));
  if (bad1 + bad2 != 0) {
    fprintf(stderr, "WARNING: %ld concurrent MobileNet outputs differ from the sequential one\n",
            bad1 + bad2);
  }
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
}

// ---------------------------------------------------------------------------------------------
// Fixed cost: ADD on 4-element tensors, where the kernel itself is a few nanoseconds and
// everything measured is runtime overhead.
// ---------------------------------------------------------------------------------------------
void runFixedCost(const Options& opt, Results* res) {
  ANeuralNetworksModel* model = nullptr;
  CHECK_NN(ANeuralNetworksModel_create(&model));
  ModelBuilder b(model, false);
  const uint32_t a = b.tensor({4});
  const uint32_t c = b.tensor({4});
  const uint32_t act = b.int32Scalar(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t out = b.tensor({4});
  b.op(ANEURALNETWORKS_ADD, {a, c, act}, {out});
  const uint32_t ins[2] = {a, c};
  CHECK_NN(ANeuralNetworksModel_identifyInputsAndOutputs(model, 2, ins, 1, &out));
  CHECK_NN(ANeuralNetworksModel_finish(model));
  ANeuralNetworksCompilation* compilation = nullptr;
  CHECK_NN(ANeuralNetworksCompilation_create(model, &compilation));
  CHECK_NN(ANeuralNetworksCompilation_finish(compilation));

  float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, z[4] = {};

  auto cycle = [&]() {
    ANeuralNetworksExecution* e = nullptr;
    CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, x, sizeof x));
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 1, nullptr, y, sizeof y));
    CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, z, sizeof z));
    CHECK_NN(ANeuralNetworksExecution_compute(e));
    ANeuralNetworksExecution_free(e);
  };

  // Runs `body` up to opt.fixedIters times (checking the clock every 1024 iterations against the
  // time cap); returns microseconds per iteration and sets *iters and *allocs.
  auto timeLoop = [&](auto&& body, long* iters, double* allocsPerIter) {
    for (long i = 0; i < opt.fixedWarmup; ++i) body();
    const uint64_t a0 = allocCount();
    const auto t0 = Clock::now();
    long i = 0;
    while (i < opt.fixedIters) {
      const long chunk = std::min<long>(1024, opt.fixedIters - i);
      for (long j = 0; j < chunk; ++j) body();
      i += chunk;
      if (msSince(t0) > opt.fixedMaxSeconds * 1000.0) break;
    }
    const double us = msSince(t0) * 1000.0 / double(i);
    *iters = i;
    *allocsPerIter = double(allocCount() - a0) / double(i);
    return us;
  };

  long iters = 0;
  double allocs = 0;
  const double cycleUs = timeLoop(cycle, &iters, &allocs);
  if (z[0] != 11 || z[3] != 44) {
    fprintf(stderr, "ADD produced wrong values: %g %g %g %g\n", z[0], z[1], z[2], z[3]);
    exit(1);
  }
  res->set("fixed_cycle_us", cycleUs);
  res->set("fixed_cycle_iters", double(iters));
  res->set("fixed_cycle_allocs", allocs);

  ANeuralNetworksExecution* e = nullptr;
  CHECK_NN(ANeuralNetworksExecution_create(compilation, &e));
  const int rc = ANeuralNetworksExecution_setReusable(e, true);
  if (rc == ANEURALNETWORKS_NO_ERROR) {
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 0, nullptr, x, sizeof x));
    CHECK_NN(ANeuralNetworksExecution_setInput(e, 1, nullptr, y, sizeof y));
    CHECK_NN(ANeuralNetworksExecution_setOutput(e, 0, nullptr, z, sizeof z));
    z[0] = 0;
    auto compute = [&]() { CHECK_NN(ANeuralNetworksExecution_compute(e)); };
    const double computeUs = timeLoop(compute, &iters, &allocs);
    if (z[0] != 11) {
      fprintf(stderr, "reusable ADD produced wrong values\n");
      exit(1);
    }
    res->set("fixed_reusable_compute_us", computeUs);
    res->set("fixed_reusable_iters", double(iters));
    res->set("allocs_per_compute", allocs);
  } else {
    fprintf(stderr, "ANeuralNetworksExecution_setReusable returned %d; skipping reusable loop\n",
            rc);
    res->set("fixed_reusable_compute_us", -1);
    res->set("allocs_per_compute", -1);
  }
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(compilation);
  ANeuralNetworksModel_free(model);
}

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------
struct Row {
  const char* key;
  const char* label;
  const char* unit;
  const char* fmt;
};
const Row kRows[] = {
    // The quantized MobileNets (quant_mobilenet.h)
#define NNAPI_QUANT_ROWS(v, label)                                                     \
  {"qmobilenet_" v "_compile_ms", "MobileNet-" label " compilation", "ms", "%.3f"},    \
      {"qmobilenet_" v "_min_ms", "MobileNet-" label " latency min", "ms", "%.3f"},    \
      {"qmobilenet_" v "_median_ms", "MobileNet-" label " latency median", "ms", "%.3f"}, \
      {"qmobilenet_" v "_gops_at_median", "MobileNet-" label " at median", "GOP/s", "%.1f"}, \
      {"qmobilenet_" v "_gops_at_min", "MobileNet-" label " at min", "GOP/s", "%.1f"},  \
      {"qmobilenet_" v "_min_cpu_ms", "MobileNet-" label " thread CPU min", "ms", "%.3f"}, \
      {"qmobilenet_" v "_output_hash", "MobileNet-" label " output hash", "", "%.0f"},
    NNAPI_QUANT_ROWS("v1_u8", "v1 uint8") NNAPI_QUANT_ROWS("v1_s8", "v1 int8 per-channel")
    NNAPI_QUANT_ROWS("v2_u8", "v2 uint8") NNAPI_QUANT_ROWS("v2_s8", "v2 int8 per-channel")
#undef NNAPI_QUANT_ROWS
    {"mobilenet_build_ms", "MobileNet model build (create..finish)", "ms", "%.3f"},
    {"mobilenet_compile_finish_ms", "MobileNet Compilation_finish", "ms", "%.3f"},
    {"mobilenet_compile_total_ms", "MobileNet compilation total", "ms", "%.3f"},
    {"mobilenet_first_inference_ms", "MobileNet first inference", "ms", "%.3f"},
    {"mobilenet_runs", "MobileNet timed runs", "", "%.0f"},
    {"mobilenet_min_ms", "MobileNet latency min", "ms", "%.3f"},
    {"mobilenet_median_ms", "MobileNet latency median", "ms", "%.3f"},
    {"mobilenet_mean_ms", "MobileNet latency mean", "ms", "%.3f"},
    {"mobilenet_p90_ms", "MobileNet latency p90", "ms", "%.3f"},
    {"mobilenet_max_ms", "MobileNet latency max", "ms", "%.3f"},
    {"mobilenet_gflops_at_median", "MobileNet throughput at median", "GFLOP/s", "%.2f"},
    {"mobilenet_allocs_per_reusable_compute", "MobileNet allocations per reusable compute", "",
     "%.1f"},
    {"fixed_cycle_us", "ADD[4] create+set x3+compute+free", "us", "%.3f"},
    {"fixed_cycle_allocs", "ADD[4] allocations per full cycle", "", "%.2f"},
    {"fixed_reusable_compute_us", "ADD[4] compute on reusable execution", "us", "%.3f"},
    {"allocs_per_compute", "allocations per compute (reusable ADD)", "", "%.3f"},
    {"concurrent_single_ips", "MobileNet throughput, 1 app thread", "inf/s", "%.2f"},
    {"concurrent_aggregate_ips", "MobileNet throughput, 2 app threads (total)", "inf/s", "%.2f"},
    {"concurrent_ratio", "MobileNet 2-thread / 1-thread throughput", "x", "%.2f"},
    {"concurrent_output_mismatches", "MobileNet concurrent outputs != sequential", "", "%.0f"},
};

std::string fmtValue(const Row& r, const Results& res) {
  double v;
  if (!res.get(r.key, &v)) return "-";
  if (v < 0) return "n/a";
  char buf[64];
  snprintf(buf, sizeof buf, r.fmt, v);
  return buf;
}

void printTable(const std::vector<std::pair<std::string, Results>>& runs) {
  printf("\n%-46s %-8s", "metric", "unit");
  for (auto& r : runs) printf(" %14s", r.first.c_str());
  printf("\n");
  std::string line(46 + 1 + 8 + 15 * runs.size(), '-');
  printf("%s\n", line.c_str());
  for (const Row& row : kRows) {
    bool any = false;
    double v;
    for (auto& r : runs) any = any || r.second.get(row.key, &v);
    if (!any) continue;
    printf("%-46s %-8s", row.label, row.unit);
    for (auto& r : runs) printf(" %14s", fmtValue(row, r.second).c_str());
    printf("\n");
  }
  // Model facts and output sanity appear once (they do not depend on the thread count).
  const Results& r0 = runs.front().second;
  double gmacs, mb, sum, argmax, pmax, diff;
  if (r0.get("mobilenet_gmacs", &gmacs) && r0.get("mobilenet_weight_mb", &mb)) {
    printf("\nMobileNet v1 1.0/224 float32: %.3f GMAC per inference, %.1f MB of weights\n", gmacs,
           mb);
  }
  if (r0.get("mobilenet_output_sum", &sum) && r0.get("mobilenet_output_argmax", &argmax) &&
      r0.get("mobilenet_output_max_prob", &pmax) &&
      r0.get("mobilenet_run_to_run_max_abs_diff", &diff)) {
    printf("output check: softmax sum %.6f, argmax %.0f (p=%.4f), run-to-run max |diff| %.3g\n", sum,
           argmax, pmax, diff);
  }
  double allocs;
  for (auto& r : runs) {
    if (r.second.get("allocs_per_compute", &allocs) && allocs >= 0) {
      printf("[%s] allocations per compute: %.0f%s\n", r.first.c_str(), std::round(allocs),
             allocs == 0 ? "" : "  (steady-state compute allocates)");
    }
  }
}

std::string describeThreads(int t) {
  return t > 0 ? std::to_string(t) + (t == 1 ? " thread" : " threads") : "default threads";
}

int runSweep(const Options& opt, int argc, char** argv) {
  std::vector<std::pair<std::string, Results>> runs;
  char tmpl[] = "/tmp/nnapi_bench_e2e_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    fprintf(stderr, "mkdtemp failed: %s\n", strerror(errno));
    return 1;
  }
  for (int threads : {1, 2}) {
    const std::string jsonPath = std::string(tmpl) + "/t" + std::to_string(threads) + ".json";
    std::vector<std::string> args = {"/proc/self/exe"};
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--threads-sweep") continue;
      if (a == "--json") {
        ++i;
        continue;
      }
      args.push_back(a);
    }
    args.push_back("--json");
    args.push_back(jsonPath);
    fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "fork failed: %s\n", strerror(errno));
      return 1;
    }
    if (pid == 0) {
      setenv("NNAPI_CPU_THREADS", std::to_string(threads).c_str(), 1);
      std::vector<char*> cargs;
      for (auto& s : args) cargs.push_back(const_cast<char*>(s.c_str()));
      cargs.push_back(nullptr);
      execv("/proc/self/exe", cargs.data());
      fprintf(stderr, "execv failed: %s\n", strerror(errno));
      _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "child run with NNAPI_CPU_THREADS=%d failed (status %d)\n", threads, status);
      return 1;
    }
    runs.emplace_back(describeThreads(threads), readFlatJson(jsonPath));
    unlink(jsonPath.c_str());
  }
  rmdir(tmpl);
  printf("\n===== threads sweep (NNAPI_CPU_THREADS=1 vs 2) =====");
  printTable(runs);
  if (!opt.json.empty() && !writeJsonFile(opt.json, runs)) return 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (!parseArgs(argc, argv, &opt)) return 2;
  if (opt.concurrent) {
    // One driver thread per computation (runConcurrent asks the compilation for it), so that
    // the application threads are the only parallelism.
    Results res;
    res.setStr("mode", "concurrent");
    printf("nnapi_bench_e2e --concurrent: MobileNet v1, 1 driver thread per computation, "
           "%d application threads vs 1, %.1f s per phase\n",
           kConcurrentThreads, opt.concurrentSeconds);
    fflush(stdout);
    runConcurrent(opt, &res);
    std::vector<std::pair<std::string, Results>> runs = {{"concurrent", res}};
    printTable(runs);
    if (!opt.json.empty() && !writeJsonFile(opt.json, runs)) return 1;
    return 0;
  }
  if (opt.threadsSweep) return runSweep(opt, argc, argv);

  Results res;
  const int threads = threadsFromEnv();
  res.setStr("threads", threads > 0 ? std::to_string(threads) : "default");
  res.setStr("weights", opt.weightsFromMemory ? "memfd" : "buffers");
  res.set("threads_env", threads);
  printf("nnapi_bench_e2e: NNAPI_CPU_THREADS=%s, weights from %s\n",
         threads > 0 ? std::to_string(threads).c_str() : "(unset)",
         opt.weightsFromMemory ? "one memfd (ANeuralNetworksMemory)" : "application buffers");
  fflush(stdout);
  if (!opt.skipMobilenet) runMobileNet(opt, &res);
  bool quantOk = true;
  if (!opt.skipQuant) {
    std::vector<std::pair<std::string, double>> q;
    quantOk = bench::runQuantMobileNets({opt.warmup, opt.runs, opt.maxSeconds}, &q);
    for (const auto& kv : q) res.set(kv.first, kv.second);
  }
  if (!opt.skipFixed) runFixedCost(opt, &res);

  std::vector<std::pair<std::string, Results>> runs = {{describeThreads(threads), res}};
  printTable(runs);
  if (!opt.json.empty() && !writeJsonFile(opt.json, runs)) return 1;
  return quantOk ? 0 : 1;
}
