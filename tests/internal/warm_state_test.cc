// Issue 10, first-inference latency: the CPU driver's compilation pools one execution state
// whose XNNPACK operators are already created (weights packed) and set up, so the first
// execution creates none; executions running at the same time still build their own states;
// and every execution, warmed or not, gives the same bits.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cpu/xnnpack_util.h"
#include "test_util.h"

namespace {

using nntest::ModelBuilder;
constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;

std::vector<float> randomValues(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// input [1,16,16,8] -> CONV_2D 3x3 8->16 (RELU) -> DEPTHWISE_CONV_2D 3x3 -> CONV_2D 1x1 16->4
// -> FULLY_CONNECTED (as [1,1024] -> 10): the first operation reads the model input, the middle
// ones only arena temporaries, the last writes the model output.
void buildModel(ModelBuilder& m) {
  const uint32_t in = m.addOperand(kF32, {1, 16, 16, 8});
  const uint32_t same = m.addInt32(ANEURALNETWORKS_PADDING_SAME);
  const uint32_t one = m.addInt32(1);
  const uint32_t relu = m.addInt32(ANEURALNETWORKS_FUSED_RELU);
  const uint32_t none = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  const uint32_t w1 = m.addConstant(kF32, {16, 3, 3, 8}, randomValues(16 * 9 * 8, 1));
  const uint32_t b1 = m.addConstant(kF32, {16}, randomValues(16, 2));
  const uint32_t t1 = m.addOperand(kF32, {1, 16, 16, 16});
  m.addOperation(ANEURALNETWORKS_CONV_2D, {in, w1, b1, same, one, one, relu}, {t1});
  const uint32_t w2 = m.addConstant(kF32, {1, 3, 3, 16}, randomValues(9 * 16, 3));
  const uint32_t b2 = m.addConstant(kF32, {16}, randomValues(16, 4));
  const uint32_t t2 = m.addOperand(kF32, {1, 16, 16, 16});
  m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D, {t1, w2, b2, same, one, one, one, none}, {t2});
  const uint32_t w3 = m.addConstant(kF32, {4, 1, 1, 16}, randomValues(4 * 16, 5));
  const uint32_t b3 = m.addConstant(kF32, {4}, randomValues(4, 6));
  const uint32_t t3 = m.addOperand(kF32, {1, 16, 16, 4});
  m.addOperation(ANEURALNETWORKS_CONV_2D, {t2, w3, b3, same, one, one, none}, {t3});
  const uint32_t w4 = m.addConstant(kF32, {10, 1024}, randomValues(10 * 1024, 7));
  const uint32_t b4 = m.addConstant(kF32, {10}, randomValues(10, 8));
  const uint32_t out = m.addOperand(kF32, {1, 10});
  m.addOperation(ANEURALNETWORKS_FULLY_CONNECTED, {t3, w4, b4, none}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
}

ANeuralNetworksCompilation* compileOnFastCpu(const ModelBuilder& m) {
  const ANeuralNetworksDevice* device = nntest::findDevice("nnapi-cpu");
  EXPECT_NE(device, nullptr);
  if (device == nullptr) return nullptr;
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), &device, 1, &c),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  return c;
}

// One execution of `c` on `input`; the output bits.
struct OneRun {
  ANeuralNetworksExecution* e = nullptr;
  std::vector<float> out = std::vector<float>(10, -7.f);
  OneRun(ANeuralNetworksCompilation* c, const std::vector<float>& input) {
    EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, input.data(), input.size() * 4),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), out.size() * 4),
              ANEURALNETWORKS_NO_ERROR);
  }
  void compute() { EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR); }
  ~OneRun() { ANeuralNetworksExecution_free(e); }
};

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && memcmp(a.data(), b.data(), a.size() * 4) == 0;
}

// The XNNPACK operators one lazily built execution state of `m` creates (compiled with
// NNAPI_CPU_WARM=0, first execution). Measured rather than counted by hand: which operations
// XNNPACK runs depends on the driver's per-shape choice of its own kernels (e.g. the direct
// depthwise kernel takes this model's DEPTHWISE_CONV_2D). The 3x3 CONV_2D 8->16 is XNNPACK's,
// so at least one.
uint64_t operatorsPerLazyState(const ModelBuilder& m, const std::vector<float>& input) {
  setenv("NNAPI_CPU_WARM", "0", 1);
  ANeuralNetworksCompilation* lazy = compileOnFastCpu(m);
  unsetenv("NNAPI_CPU_WARM");
  if (lazy == nullptr) return 0;
  const uint64_t before = nn::xnnOperatorsCreated();
  {
    OneRun r(lazy, input);
    r.compute();
  }
  const uint64_t n = nn::xnnOperatorsCreated() - before;
  ANeuralNetworksCompilation_free(lazy);
  return n;
}

TEST(CpuWarmState, FirstExecutionUsesOperatorsCreatedAtCompilation) {
  ModelBuilder m;
  buildModel(m);
  const std::vector<float> input = randomValues(16 * 16 * 8, 9);
  const bool xnn = nn::xnnpackAvailable();
  const uint64_t perState = operatorsPerLazyState(m, input);
  if (xnn) {
    EXPECT_GE(perState, 1u);
  }

  const uint64_t beforeCompile = nn::xnnOperatorsCreated();
  ANeuralNetworksCompilation* c = compileOnFastCpu(m);
  ASSERT_NE(c, nullptr);
  const uint64_t afterCompile = nn::xnnOperatorsCreated();
  if (xnn) {
    EXPECT_EQ(afterCompile - beforeCompile, perState);
  }

  std::vector<float> first, second;
  {
    OneRun r(c, input);
    r.compute();
    first = r.out;
  }
  // The first execution took the warmed state: no operator was created.
  EXPECT_EQ(nn::xnnOperatorsCreated(), afterCompile);
  {
    OneRun r(c, input);
    r.compute();
    second = r.out;
  }
  EXPECT_EQ(nn::xnnOperatorsCreated(), afterCompile);  // the same state, recycled
  EXPECT_TRUE(sameBits(first, second));

  // Two executions alive at once: the second builds (and warms lazily) its own state.
  {
    OneRun a(c, input), b(c, input);
    a.compute();
    b.compute();
    EXPECT_TRUE(sameBits(a.out, first));
    EXPECT_TRUE(sameBits(b.out, first));
  }
  if (xnn) {
    EXPECT_EQ(nn::xnnOperatorsCreated() - afterCompile, perState);
  }
  ANeuralNetworksCompilation_free(c);
}

// NNAPI_CPU_WARM=0 (read at each compilation) keeps the old lazy path: the compilation creates
// no operator, the first execution creates them all, and the results are the warmed ones.
TEST(CpuWarmState, UnwarmedCompilationGivesTheSameBits) {
  ModelBuilder m;
  buildModel(m);
  const std::vector<float> input = randomValues(16 * 16 * 8, 10);
  const bool xnn = nn::xnnpackAvailable();

  ANeuralNetworksCompilation* warmed = compileOnFastCpu(m);
  ASSERT_NE(warmed, nullptr);
  setenv("NNAPI_CPU_WARM", "0", 1);
  const uint64_t before = nn::xnnOperatorsCreated();
  ANeuralNetworksCompilation* lazy = compileOnFastCpu(m);
  unsetenv("NNAPI_CPU_WARM");
  ASSERT_NE(lazy, nullptr);
  EXPECT_EQ(nn::xnnOperatorsCreated(), before);

  OneRun l(lazy, input);
  l.compute();
  if (xnn) {
    EXPECT_GE(nn::xnnOperatorsCreated() - before, 1u);
  }
  OneRun w(warmed, input);
  w.compute();
  EXPECT_TRUE(sameBits(l.out, w.out));
  // And both equal the reference device's simple kernels within float tolerance (the warmed
  // path computes, it does not just repeat itself).
  const ANeuralNetworksDevice* ref = nntest::findDevice("nnapi-cpu-reference");
  ASSERT_NE(ref, nullptr);
  ANeuralNetworksCompilation* rc = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), &ref, 1, &rc),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(rc), ANEURALNETWORKS_NO_ERROR);
  {
    OneRun r(rc, input);
    r.compute();
    for (size_t i = 0; i < r.out.size(); ++i)
      EXPECT_NEAR(w.out[i], r.out[i], 1e-3f * (1.f + std::abs(r.out[i]))) << i;
  }
  ANeuralNetworksCompilation_free(rc);
  ANeuralNetworksCompilation_free(lazy);
  ANeuralNetworksCompilation_free(warmed);
}

}  // namespace
