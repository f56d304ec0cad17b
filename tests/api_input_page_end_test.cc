// A model input that ends exactly at the end of a page followed by an inaccessible page: the
// fast device must not read past the buffer (XNNPACK's kernels read up to 16 bytes past an
// input's end, so the CPU driver copies such inputs first). Without that copy this crashes.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;
constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;

// Two pages, the second PROT_NONE; `bytes` placed so they end at the first page's end.
struct GuardedBuffer {
  uint8_t* base = nullptr;
  size_t page = 0;
  explicit GuardedBuffer(size_t bytes) {
    page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t pages = (bytes + page - 1) / page + 1;
    void* p = mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    base = static_cast<uint8_t*>(p);
    total = pages * page;
    mprotect(base + (pages - 1) * page, page, PROT_NONE);
    data = base + (pages - 1) * page - bytes;
  }
  ~GuardedBuffer() {
    if (base) munmap(base, total);
  }
  uint8_t* data = nullptr;
  size_t total = 0;
};

float run(const ANeuralNetworksDevice* device, const ModelBuilder& m, const void* input,
          size_t inBytes, std::vector<float>* out) {
  ANeuralNetworksCompilation* c = nullptr;
  EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(m.get(), &device, 1, &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, input, inBytes), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out->data(), out->size() * 4),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return 0;
}

TEST(ApiInputPageEnd, ConvolutionsDoNotReadPastAnInputAtAPageEnd) {
  // Odd channel counts and widths, so vector kernels meet a partial last vector.
  for (uint32_t channels : {3u, 5u, 17u}) {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 7, 9, channels});
    std::vector<float> w(4 * 3 * 3 * channels), wd(3 * 3 * channels), b(4, 0.25f), bd(channels, 0.5f);
    for (size_t i = 0; i < w.size(); ++i) w[i] = std::sin(0.37f * i);
    for (size_t i = 0; i < wd.size(); ++i) wd[i] = std::cos(0.21f * i);
    const uint32_t t = m.addOperand(kF32, {1, 7, 9, 4});
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {in, m.addConstant<float>(kF32, {4, 3, 3, channels}, w), m.addConstant<float>(kF32, {4}, b),
                    m.addInt32(ANEURALNETWORKS_PADDING_SAME), m.addInt32(1), m.addInt32(1),
                    m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
                   {t});
    const uint32_t u = m.addOperand(kF32, {1, 7, 9, channels});
    m.addOperation(ANEURALNETWORKS_DEPTHWISE_CONV_2D,
                   {in, m.addConstant<float>(kF32, {1, 3, 3, channels}, wd),
                    m.addConstant<float>(kF32, {channels}, bd), m.addInt32(ANEURALNETWORKS_PADDING_SAME),
                    m.addInt32(1), m.addInt32(1), m.addInt32(1), m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
                   {u});
    const uint32_t s = m.addOperand(kF32, {1, 7, 9, 4});
    std::vector<float> w1(4 * channels);
    for (size_t i = 0; i < w1.size(); ++i) w1[i] = 0.1f * (i % 7);
    m.addOperation(ANEURALNETWORKS_CONV_2D,
                   {u, m.addConstant<float>(kF32, {4, 1, 1, channels}, w1), m.addConstant<float>(kF32, {4}, b),
                    m.addInt32(ANEURALNETWORKS_PADDING_SAME), m.addInt32(1), m.addInt32(1),
                    m.addInt32(ANEURALNETWORKS_FUSED_NONE)},
                   {s});
    const uint32_t out = m.addOperand(kF32, {1, 7, 9, 4});
    m.addOperation(ANEURALNETWORKS_ADD, {t, s, m.addInt32(ANEURALNETWORKS_FUSED_NONE)}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);

    const size_t inBytes = 7 * 9 * channels * sizeof(float);
    GuardedBuffer guarded(inBytes);
    ASSERT_NE(guarded.data, nullptr);
    for (size_t i = 0; i < inBytes / 4; ++i) {
      const float v = std::cos(0.13f * i);
      memcpy(guarded.data + 4 * i, &v, 4);
    }
    std::vector<float> fast(7 * 9 * 4, -1.f), ref(7 * 9 * 4, -2.f);
    run(nntest::findDevice("nnapi-cpu"), m, guarded.data, inBytes, &fast);
    run(nntest::findDevice("nnapi-cpu-reference"), m, guarded.data, inBytes, &ref);
    for (size_t i = 0; i < fast.size(); ++i)
      EXPECT_NEAR(fast[i], ref[i], 1e-4f * (1.f + std::fabs(ref[i]))) << "channels " << channels << " @" << i;
  }
}

}  // namespace
