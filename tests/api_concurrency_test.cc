// Concurrent executions of one compilation, through the public C API only.
//
// A compilation is shared by several application threads, each with its own executions,
// inputs and outputs (the NNAPI contract: a compilation may be used by any number of
// executions at once; an execution or a burst by one computation at a time). Every output of
// every concurrent computation must equal, bit for bit, the output the same compilation gave
// for the same input when the computations ran one after the other.
//
// The models are small but not trivial: float32 CONV_2D / DEPTHWISE_CONV_2D /
// FULLY_CONNECTED with constant weights (the XNNPACK operators on the nnapi-cpu device), a
// CONV_2D whose bias is computed (our own float kernel), ADD, and a QUANT8_ASYMM twin of the
// network (our own quantized kernels). Feature maps are large enough for the driver to split
// work across its thread pool.
//
// Tests are named *Concurrency* so that scripts/test_tsan.sh can run them under
// ThreadSanitizer with --gtest_filter=*Concurrency*.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

constexpr int kThreads = 4;
constexpr int kIterationsPerThread = 200;
constexpr int kDistinctInputs = 8;
// One iteration in this many uses the shared reusable execution instead of a fresh one.
constexpr int kReusableEvery = 8;

// Deterministic data so that a failure reproduces.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 2654435761u + 1) {}
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>(s >> 33);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * (next() * (1.0f / 2147483648.0f)); }
  uint8_t byte() { return static_cast<uint8_t>(next() >> 23); }
};

std::vector<uint8_t> uniformFloatBytes(Rng* rng, size_t count, float bound) {
  std::vector<uint8_t> bytes(count * sizeof(float));
  for (size_t i = 0; i < count; ++i) {
    const float x = rng->uniform(-bound, bound);
    memcpy(bytes.data() + i * sizeof(float), &x, sizeof x);
  }
  return bytes;
}

const ANeuralNetworksDevice* deviceNamed(const std::string& wanted) {
  uint32_t n = 0;
  ANeuralNetworks_getDeviceCount(&n);
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR &&
        ANeuralNetworksDevice_getName(d, &name) == ANEURALNETWORKS_NO_ERROR && name != nullptr &&
        wanted == name)
      return d;
  }
  return nullptr;
}

enum class Kind { kFloat32, kQuant8 };

// The network (NHWC, batch 1), with H = W = 24:
//   in [1,24,24,8]
//   a = CONV_2D 3x3 8->16, SAME, RELU                     (XNNPACK on nnapi-cpu for float32)
//   b = DEPTHWISE_CONV_2D 3x3 x16, SAME, RELU6
//   bias = ADD(biasA, biasB)   (float32 only: a computed bias keeps CONV_2D off XNNPACK)
//   c = CONV_2D 1x1 16->16 (bias), NONE
//   sum = ADD(a, c)                                        -> output 0 [1,24,24,16]
//   d = CONV_2D 3x3 16->32 stride 2, SAME, RELU            [1,12,12,32]
//   e = FULLY_CONNECTED 4608->64, RELU
//   f = FULLY_CONNECTED 64->10, NONE                       -> output 1 [1,10]
struct TestModel {
  ModelBuilder mb;
  size_t inputBytes = 0;
  std::vector<size_t> outputBytes;
  int status = ANEURALNETWORKS_NO_ERROR;
};

constexpr uint32_t kH = 24, kInC = 8, kMidC = 16, kDeepC = 32, kFcUnits = 64, kClasses = 10;

std::unique_ptr<TestModel> buildModel(Kind kind) {
  auto m = std::make_unique<TestModel>();
  ModelBuilder& mb = m->mb;
  Rng rng(kind == Kind::kFloat32 ? 11 : 29);
  const bool quant = kind == Kind::kQuant8;
  const int32_t tensorType =
      quant ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM : ANEURALNETWORKS_TENSOR_FLOAT32;
  const size_t elementBytes = quant ? 1 : 4;

  // An activation/feature-map operand (scale/zero point only matter for quant8).
  auto tensor = [&](std::vector<uint32_t> dims, float scale, int32_t zeroPoint) {
    return quant ? mb.addOperand(tensorType, dims, scale, zeroPoint)
                 : mb.addOperand(tensorType, dims);
  };
  // Constant weights: float32 uniform in +-bound, or uint8 around zero point 128.
  auto weights = [&](std::vector<uint32_t> dims, float bound, float scale) {
    size_t count = 1;
    for (uint32_t d : dims) count *= d;
    if (quant) {
      std::vector<uint8_t> v(count);
      for (uint8_t& x : v) x = rng.byte();
      return mb.addConstant<uint8_t>(tensorType, dims, v, scale, 128);
    }
    // Passed as raw bytes: GCC 12 warns (-Wfree-nonheap-object, a false positive) when
    // nntest::bytesOf<float> is inlined here.
    const uint32_t index = mb.addOperand(tensorType, dims);
    mb.setValue(index, uniformFloatBytes(&rng, count, bound));
    return index;
  };
  // Bias: float32, or int32 with scale inputScale * filterScale.
  auto bias = [&](uint32_t n, float scale) {
    if (quant) {
      std::vector<int32_t> v(n);
      for (int32_t& x : v) x = static_cast<int32_t>(rng.next() % 2001) - 1000;
      return mb.addConstant<int32_t>(ANEURALNETWORKS_TENSOR_INT32, {n}, v, scale, 0);
    }
    std::vector<float> v(n);
    for (float& x : v) x = rng.uniform(-0.1f, 0.1f);
    return mb.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {n}, v);
  };

  const uint32_t padSame = mb.addInt32(ANEURALNETWORKS_PADDING_SAME);
  const uint32_t one = mb.addInt32(1);
  const uint32_t two = mb.addInt32(2);
  const uint32_t actNone = mb.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t actRelu = mb.addInt32(ANEURALNETWORKS_FUSED_RELU);
  const uint32_t actRelu6 = mb.addInt32(ANEURALNETWORKS_FUSED_RELU6);

  // Quantization: input in [-1, 1); every layer's scale keeps its outputs mostly unsaturated.
  const float inScale = 1.f / 128, aScale = 0.02f, bScale = 0.03f, cScale = 0.05f,
              sumScale = 0.06f, dScale = 0.15f, eScale = 0.05f, fScale = 0.2f;
  const float w1 = 0.004f, wDw = 0.01f, w2 = 0.005f, w3 = 0.003f, wFc1 = 0.0002f, wFc2 = 0.01f;

  const uint32_t in = tensor({1, kH, kH, kInC}, inScale, 128);

  const uint32_t aW = weights({kMidC, 3, 3, kInC}, 0.3f, w1);
  const uint32_t aB = bias(kMidC, inScale * w1);
  const uint32_t a = tensor({1, kH, kH, kMidC}, aScale, 0);
  mb.addOperation(ANEURALNETWORKS_CONV_2D, {in, aW, aB, padSame, one, one, actRelu}, {a});

  const uint32_t bW = weights({1, 3, 3, kMidC}, 0.4f, wDw);
  const uint32_t bB = bias(kMidC, aScale * wDw);
  const uint32_t b = tensor({1, kH, kH, kMidC}, bScale, 0);
  mb.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                  {a, bW, bB, padSame, one, one, one, actRelu6}, {b});

  const uint32_t cW = weights({kMidC, 1, 1, kMidC}, 0.3f, w2);
  uint32_t cB;
  if (quant) {
    cB = bias(kMidC, bScale * w2);
  } else {
    const uint32_t biasA = bias(kMidC, 0.f);
    const uint32_t biasB = bias(kMidC, 0.f);
    cB = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {kMidC});
    mb.addOperation(ANEURALNETWORKS_ADD, {biasA, biasB, actNone}, {cB});
  }
  const uint32_t c = tensor({1, kH, kH, kMidC}, cScale, 128);
  mb.addOperation(ANEURALNETWORKS_CONV_2D, {b, cW, cB, padSame, one, one, actNone}, {c});

  const uint32_t sum = tensor({1, kH, kH, kMidC}, sumScale, 128);
  mb.addOperation(ANEURALNETWORKS_ADD, {a, c, actNone}, {sum});

  const uint32_t dW = weights({kDeepC, 3, 3, kMidC}, 0.15f, w3);
  const uint32_t dB = bias(kDeepC, sumScale * w3);
  const uint32_t d = tensor({1, kH / 2, kH / 2, kDeepC}, dScale, 0);
  mb.addOperation(ANEURALNETWORKS_CONV_2D, {sum, dW, dB, padSame, two, two, actRelu}, {d});

  const uint32_t flat = (kH / 2) * (kH / 2) * kDeepC;
  const uint32_t eW = weights({kFcUnits, flat}, 0.03f, wFc1);
  const uint32_t eB = bias(kFcUnits, dScale * wFc1);
  const uint32_t e = tensor({1, kFcUnits}, eScale, 0);
  mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {d, eW, eB, actRelu}, {e});

  const uint32_t fW = weights({kClasses, kFcUnits}, 0.2f, wFc2);
  const uint32_t fB = bias(kClasses, eScale * wFc2);
  const uint32_t f = tensor({1, kClasses}, fScale, 128);
  mb.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {e, fW, fB, actNone}, {f});

  m->status = mb.finish({in}, {sum, f});
  m->inputBytes = size_t(kH) * kH * kInC * elementBytes;
  m->outputBytes = {size_t(kH) * kH * kMidC * elementBytes, size_t(kClasses) * elementBytes};
  return m;
}

std::vector<std::vector<uint8_t>> makeInputs(Kind kind, size_t bytes) {
  std::vector<std::vector<uint8_t>> inputs(kDistinctInputs);
  for (int i = 0; i < kDistinctInputs; ++i) {
    Rng rng(1000 + i);
    if (kind == Kind::kQuant8) {
      inputs[i].resize(bytes);
      for (uint8_t& x : inputs[i]) x = rng.byte();
    } else {
      std::vector<float> v(bytes / sizeof(float));
      for (float& x : v) x = rng.uniform(-1.f, 1.f);
      inputs[i] = nntest::bytesOf(v);
    }
  }
  return inputs;
}

using Outputs = std::vector<std::vector<uint8_t>>;

enum class Mode { kSync, kAsync, kBurst };
const char* modeName(Mode m) {
  return m == Mode::kSync ? "compute" : m == Mode::kAsync ? "startCompute" : "burstCompute";
}

// Fills every output with a pattern no real result is likely to equal bytewise, so that an
// output the computation failed to write cannot pass for a stale correct one.
void poison(Outputs* outs) {
  for (auto& o : *outs) memset(o.data(), 0xA5, o.size());
}

// Runs a prepared execution once in `mode`; returns the result code.
int computeIn(ANeuralNetworksExecution* e, Mode mode, ANeuralNetworksBurst* burst) {
  switch (mode) {
    case Mode::kSync:
      return ANeuralNetworksExecution_compute(e);
    case Mode::kAsync: {
      ANeuralNetworksEvent* event = nullptr;
      const int r = ANeuralNetworksExecution_startCompute(e, &event);
      if (r != ANEURALNETWORKS_NO_ERROR) return r;
      const int w = ANeuralNetworksEvent_wait(event);
      ANeuralNetworksEvent_free(event);
      return w;
    }
    case Mode::kBurst:
      return ANeuralNetworksExecution_burstCompute(e, burst);
  }
  return ANEURALNETWORKS_BAD_STATE;
}

// Binds the I/O of a fresh execution. Returns the first failing code.
int bindIo(ANeuralNetworksExecution* e, const std::vector<uint8_t>& input, Outputs* outs) {
  int r = ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(), input.size());
  for (size_t i = 0; i < outs->size() && r == ANEURALNETWORKS_NO_ERROR; ++i)
    r = ANeuralNetworksExecution_setOutput(e, static_cast<int32_t>(i), nullptr, (*outs)[i].data(),
                                           (*outs)[i].size());
  return r;
}

// A fresh execution: create, bind, compute in `mode`, free.
int runOnce(ANeuralNetworksCompilation* compilation, const std::vector<uint8_t>& input,
            Outputs* outs, Mode mode, ANeuralNetworksBurst* burst) {
  ANeuralNetworksExecution* e = nullptr;
  int r = ANeuralNetworksExecution_create(compilation, &e);
  if (r != ANEURALNETWORKS_NO_ERROR) return r;
  r = bindIo(e, input, outs);
  if (r == ANEURALNETWORKS_NO_ERROR) r = computeIn(e, mode, burst);
  ANeuralNetworksExecution_free(e);
  return r;
}

// "" when equal, else where the first difference is.
std::string compare(const Outputs& got, const Outputs& want) {
  for (size_t o = 0; o < want.size(); ++o) {
    if (got[o] == want[o]) continue;
    size_t at = 0;
    while (at < want[o].size() && got[o][at] == want[o][at]) ++at;
    std::ostringstream s;
    s << "output " << o << " differs first at byte " << at << " (got 0x" << std::hex
      << int(got[o][at]) << ", want 0x" << int(want[o][at]) << ")";
    return s.str();
  }
  return "";
}

// One compilation with its inputs and the outputs it computed sequentially for each of them.
struct Target {
  std::string label;
  ANeuralNetworksCompilation* compilation = nullptr;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<Outputs> expected;  // per input
  std::vector<size_t> outputBytes;

  Outputs newOutputs() const {
    Outputs outs;
    for (size_t n : outputBytes) outs.emplace_back(n);
    return outs;
  }
};

// An execution made reusable once and then computed by whichever thread holds `mutex`; its
// input buffer is rewritten before each computation (the binding stays, the bytes change).
struct SharedReusable {
  std::mutex mutex;
  ANeuralNetworksExecution* execution = nullptr;
  const Target* target = nullptr;
  std::vector<uint8_t> input;
  Outputs outputs;
  int uses = 0;
};

struct ThreadReport {
  int computations = 0;
  int reusableComputations = 0;
  int failures = 0;
  std::string firstFailure;
  void fail(const std::string& what) {
    if (failures++ == 0) firstFailure = what;
  }
};

// Starts `threads` threads at once; each runs `iterations` computations, cycling through the
// targets, the inputs and the three compute modes (each thread from a different offset), and
// every kReusableEvery-th one on `reusable` when given. Returns one report per thread.
std::vector<ThreadReport> runConcurrently(const std::vector<const Target*>& targets, int threads,
                                          int iterations, SharedReusable* reusable) {
  std::vector<ThreadReport> reports(threads);
  std::atomic<int> ready{0};
  auto body = [&](int t) {
    ThreadReport& report = reports[t];
    // Each thread owns one burst per target (a burst serves one computation at a time).
    std::vector<ANeuralNetworksBurst*> bursts(targets.size(), nullptr);
    for (size_t k = 0; k < targets.size(); ++k) {
      const int r = ANeuralNetworksBurst_create(targets[k]->compilation, &bursts[k]);
      if (r != ANEURALNETWORKS_NO_ERROR) report.fail("Burst_create returned " + std::to_string(r));
    }
    std::vector<Outputs> outs;
    for (const Target* target : targets) outs.push_back(target->newOutputs());
    // Start together so the computations overlap from the first one.
    ready.fetch_add(1);
    while (ready.load() < threads) std::this_thread::yield();
    for (int i = 0; i < iterations && report.failures == 0; ++i) {
      const size_t k = static_cast<size_t>(t + i) % targets.size();
      const Target& target = *targets[k];
      const int inputIndex = (t * 3 + i * 5) % kDistinctInputs;
      const Mode mode = static_cast<Mode>((t + i) % 3);
      std::ostringstream where;
      where << target.label << ": thread " << t << " iteration " << i << " input " << inputIndex
            << " " << modeName(mode);
      if (reusable != nullptr && i % kReusableEvery == kReusableEvery - 1) {
        std::lock_guard<std::mutex> lock(reusable->mutex);
        const size_t rk = static_cast<size_t>(
            std::find(targets.begin(), targets.end(), reusable->target) - targets.begin());
        const std::vector<uint8_t>& src = reusable->target->inputs[inputIndex];
        memcpy(reusable->input.data(), src.data(), src.size());  // the bound buffer stays put
        poison(&reusable->outputs);
        const int r = computeIn(reusable->execution, mode, bursts[rk]);
        ++reusable->uses;
        ++report.reusableComputations;
        if (r != ANEURALNETWORKS_NO_ERROR) {
          report.fail(where.str() + " (reusable execution): result code " + std::to_string(r));
        } else {
          const std::string diff =
              compare(reusable->outputs, reusable->target->expected[inputIndex]);
          if (!diff.empty()) report.fail(where.str() + " (reusable execution): " + diff);
        }
        continue;
      }
      poison(&outs[k]);
      const int r =
          runOnce(target.compilation, target.inputs[inputIndex], &outs[k], mode, bursts[k]);
      ++report.computations;
      if (r != ANEURALNETWORKS_NO_ERROR) {
        report.fail(where.str() + ": result code " + std::to_string(r));
        continue;
      }
      const std::string diff = compare(outs[k], target.expected[inputIndex]);
      if (!diff.empty()) report.fail(where.str() + ": " + diff);
    }
    for (ANeuralNetworksBurst* b : bursts) ANeuralNetworksBurst_free(b);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (std::thread& th : pool) th.join();
  return reports;
}

// A thread stops at its first failure, so the count is checked only when none failed.
void expectAllPassed(const std::vector<ThreadReport>& reports, int expectedComputations) {
  int total = 0, failures = 0;
  for (size_t t = 0; t < reports.size(); ++t) {
    EXPECT_EQ(reports[t].failures, 0) << "thread " << t << ": " << reports[t].firstFailure;
    total += reports[t].computations + reports[t].reusableComputations;
    failures += reports[t].failures;
  }
  if (failures == 0) {
    EXPECT_EQ(total, expectedComputations);
  }
}

// Owns a compilation of `model` for one device and the sequential reference outputs.
class CompiledTarget {
 public:
  CompiledTarget() = default;
  // Fatal gtest failures return early from here, leaving ok() false.
  void compile(const TestModel& model, Kind kind, const std::string& deviceName,
               const std::string& label) {
    target_.label = label;
    target_.outputBytes = model.outputBytes;
    const ANeuralNetworksDevice* device = deviceNamed(deviceName);
    ASSERT_NE(device, nullptr) << "no device " << deviceName;
    ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(model.mb.get(), &device, 1,
                                                          &target_.compilation),
              ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(target_.compilation), ANEURALNETWORKS_NO_ERROR)
        << deviceName << " cannot compile the " << label << " model";
    target_.inputs = makeInputs(kind, model.inputBytes);
    // The references: one computation after the other. Running input 0 twice also shows the
    // compilation is deterministic on its own, so that a later mismatch means concurrency.
    for (int i = 0; i <= kDistinctInputs; ++i) {
      Outputs outs = target_.newOutputs();
      poison(&outs);
      const auto& input = target_.inputs[i % kDistinctInputs];
      ASSERT_EQ(runOnce(target_.compilation, input, &outs, Mode::kSync, nullptr),
                ANEURALNETWORKS_NO_ERROR);
      if (i < kDistinctInputs) {
        target_.expected.push_back(std::move(outs));
      } else {
        ASSERT_EQ(compare(outs, target_.expected[0]), "") << "two sequential runs disagree";
      }
    }
    // Distinct inputs give distinct outputs (else the comparison proves little).
    for (int i = 1; i < kDistinctInputs; ++i)
      for (size_t o = 0; o < target_.outputBytes.size(); ++o)
        EXPECT_NE(target_.expected[i][o], target_.expected[0][o])
            << "output " << o << " does not depend on the input";
    ok_ = true;
  }
  ~CompiledTarget() { ANeuralNetworksCompilation_free(target_.compilation); }
  CompiledTarget(const CompiledTarget&) = delete;
  CompiledTarget& operator=(const CompiledTarget&) = delete;

  bool ok() const { return ok_; }
  const Target& target() const { return target_; }

 private:
  Target target_;
  bool ok_ = false;
};

// Every output value the same (e.g. all clamped to zero) would make the check weak.
size_t distinctBytes(const std::vector<uint8_t>& v, size_t stride) {
  std::vector<std::vector<uint8_t>> seen;
  for (size_t i = 0; i + stride <= v.size() && seen.size() < 32; i += stride) {
    std::vector<uint8_t> x(v.begin() + i, v.begin() + i + stride);
    if (std::find(seen.begin(), seen.end(), x) == seen.end()) seen.push_back(x);
  }
  return seen.size();
}

struct Param {
  const char* device;
  Kind kind;
};
void PrintTo(const Param& p, std::ostream* os) {
  *os << p.device << (p.kind == Kind::kFloat32 ? " float32" : " quant8");
}

class ApiConcurrency : public ::testing::TestWithParam<Param> {};

// The core check: 4 threads x 200 computations of one compilation, mixing compute,
// startCompute + Event_wait and burstCompute, plus one reusable execution handed between
// threads, each output compared bit for bit with the sequential result for its input.
TEST_P(ApiConcurrency, OneCompilationManyThreads) {
  const Param p = GetParam();
  std::unique_ptr<TestModel> model = buildModel(p.kind);
  ASSERT_EQ(model->status, ANEURALNETWORKS_NO_ERROR);
  const std::string label =
      std::string(p.device) + (p.kind == Kind::kFloat32 ? " float32" : " quant8");
  CompiledTarget compiled;
  compiled.compile(*model, p.kind, p.device, label);
  ASSERT_TRUE(compiled.ok());
  const Target& target = compiled.target();
  const size_t elementBytes = p.kind == Kind::kFloat32 ? 4 : 1;
  for (size_t o = 0; o < target.outputBytes.size(); ++o)
    EXPECT_GE(distinctBytes(target.expected[0][o], elementBytes), 5u)
        << "output " << o << " is nearly constant";

  SharedReusable reusable;
  reusable.target = &target;
  reusable.input.resize(model->inputBytes);
  reusable.outputs = target.newOutputs();
  ASSERT_EQ(ANeuralNetworksExecution_create(target.compilation, &reusable.execution),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(reusable.execution, true),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(bindIo(reusable.execution, reusable.input, &reusable.outputs), ANEURALNETWORKS_NO_ERROR);

  const std::vector<ThreadReport> reports =
      runConcurrently({&target}, kThreads, kIterationsPerThread, &reusable);
  ANeuralNetworksExecution_free(reusable.execution);
  expectAllPassed(reports, kThreads * kIterationsPerThread);
  if (!HasFailure()) {
    EXPECT_EQ(reusable.uses, kThreads * (kIterationsPerThread / kReusableEvery));
  }
}

std::string paramName(const ::testing::TestParamInfo<Param>& info) {
  std::string name = info.param.device;
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name + (info.param.kind == Kind::kFloat32 ? "_float32" : "_quant8");
}

INSTANTIATE_TEST_SUITE_P(Concurrency, ApiConcurrency,
                         ::testing::Values(Param{"nnapi-cpu", Kind::kFloat32},
                                           Param{"nnapi-cpu", Kind::kQuant8},
                                           Param{"nnapi-cpu-reference", Kind::kFloat32},
                                           Param{"nnapi-cpu-reference", Kind::kQuant8}),
                         paramName);

// Several compilations in flight at once: two compilations of the same float32 model (each
// with its own prepared state) and the quant8 one, all on nnapi-cpu and so all sharing the
// driver's thread pool, with the threads switching compilation at every iteration.
TEST(ApiConcurrencyMixed, SeveralCompilationsManyThreads) {
  std::unique_ptr<TestModel> floatModel = buildModel(Kind::kFloat32);
  std::unique_ptr<TestModel> quantModel = buildModel(Kind::kQuant8);
  ASSERT_EQ(floatModel->status, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(quantModel->status, ANEURALNETWORKS_NO_ERROR);
  CompiledTarget float1, float2, quant;
  float1.compile(*floatModel, Kind::kFloat32, "nnapi-cpu", "float32 #1");
  float2.compile(*floatModel, Kind::kFloat32, "nnapi-cpu", "float32 #2");
  quant.compile(*quantModel, Kind::kQuant8, "nnapi-cpu", "quant8");
  ASSERT_TRUE(float1.ok() && float2.ok() && quant.ok());
  // Two compilations of one model agree with each other, not only with themselves.
  for (int i = 0; i < kDistinctInputs; ++i)
    EXPECT_EQ(compare(float2.target().expected[i], float1.target().expected[i]), "");
  const int iterations = kIterationsPerThread / 2;
  const std::vector<ThreadReport> reports = runConcurrently(
      {&float1.target(), &float2.target(), &quant.target()}, kThreads, iterations, nullptr);
  expectAllPassed(reports, kThreads * iterations);
}

}  // namespace
