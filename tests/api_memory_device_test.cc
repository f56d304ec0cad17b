// API-contract tests for ANeuralNetworksMemory_* (fd memory shared zero-copy with models and
// executions), the device registry, the diagnostics extension and the zero-copy contract of
// large setOperandValue constants (/work/shared/spec/ABI.md §3.2, §3.3, §3.4, §3.8).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

// A memfd of `size` bytes, closed on destruction.
struct MemFd {
  int fd = -1;
  explicit MemFd(size_t size) {
    fd = memfd_create("api_memory_device_test", 0);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(ftruncate(fd, static_cast<off_t>(size)), 0);
  }
  ~MemFd() {
    if (fd >= 0) close(fd);
  }
};

struct MemDeleter {
  void operator()(ANeuralNetworksMemory* m) const { ANeuralNetworksMemory_free(m); }
};
using MemPtr = std::unique_ptr<ANeuralNetworksMemory, MemDeleter>;

MemPtr createMemory(size_t size, int prot, int fd, size_t offset = 0) {
  ANeuralNetworksMemory* m = nullptr;
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(size, prot, fd, offset, &m), ANEURALNETWORKS_NO_ERROR);
  return MemPtr(m);
}

const ANeuralNetworksDevice* deviceNamed(const char* wanted) {
  uint32_t n = 0;
  ANeuralNetworks_getDeviceCount(&n);
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* name = nullptr;
    if (ANeuralNetworks_getDevice(i, &d) == ANEURALNETWORKS_NO_ERROR &&
        ANeuralNetworksDevice_getName(d, &name) == ANEURALNETWORKS_NO_ERROR && std::string(name) == wanted)
      return d;
  }
  return nullptr;
}

// Compiles a finished model (optionally on one named device), runs it once with the given
// float inputs and returns the first output (n floats); fails the test on any error.
std::vector<float> runFloat(ANeuralNetworksModel* model, const std::vector<std::vector<float>>& inputs,
                            size_t n, const char* device = nullptr) {
  ANeuralNetworksCompilation* c = nullptr;
  if (device) {
    const ANeuralNetworksDevice* d = deviceNamed(device);
    EXPECT_NE(d, nullptr);
    EXPECT_EQ(ANeuralNetworksCompilation_createForDevices(model, &d, 1, &c), ANEURALNETWORKS_NO_ERROR);
  } else {
    EXPECT_EQ(ANeuralNetworksCompilation_create(model, &c), ANEURALNETWORKS_NO_ERROR);
  }
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  for (size_t i = 0; i < inputs.size(); ++i)
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, i, nullptr, inputs[i].data(), inputs[i].size() * 4),
              ANEURALNETWORKS_NO_ERROR);
  std::vector<float> out(n, -12345.f);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, out.data(), n * 4), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  return out;
}

// out = in * w + b over n floats. `setWeights` makes operand `w` (and `b`) constant.
template <typename SetConstants>
void buildMulAdd(ModelBuilder& mb, uint32_t n, SetConstants setConstants) {
  const uint32_t in = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});   // 0
  const uint32_t w = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});    // 1
  const uint32_t b = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});    // 2
  const uint32_t act = mb.addInt32(ANEURALNETWORKS_FUSED_NONE);             // 3
  const uint32_t t = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});    // 4
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});  // 5
  setConstants(mb.get(), w, b);
  mb.addOperation(ANEURALNETWORKS_MUL, {in, w, act}, {t});
  mb.addOperation(ANEURALNETWORKS_ADD, {t, b, act}, {out});
  EXPECT_EQ(mb.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
}

// ---------------------------------------------------------------------------------------------
// Memory_createFromFd

TEST(ApiMemory, CreateFromFdRules) {
  MemFd f(8192);
  ANeuralNetworksMemory* m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, f.fd, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Size 0.
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(0, PROT_READ, f.fd, 0, &m), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(m, nullptr);
  // Invalid fds: negative, and a number that is not open in this process.
  m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, -1, 0, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, 987654, 0, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  // A region past the end of the file (that mapping would SIGBUS on first touch).
  m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, f.fd, 8192, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(16384, PROT_READ, f.fd, 0, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(4097, PROT_READ, f.fd, 4096, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  // An fd that cannot be mapped (a pipe).
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, p[0], 0, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  close(p[0]);
  close(p[1]);
  // Protection bits other than PROT_READ|PROT_WRITE.
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(4096, PROT_READ | PROT_EXEC, f.fd, 0, &m), ANEURALNETWORKS_BAD_DATA);

  // Valid: whole file, the second page, and a sub-page offset.
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(8192, PROT_READ | PROT_WRITE, f.fd, 0, &m), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(m);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(4096, PROT_READ, f.fd, 4096, &m), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(m);
  EXPECT_EQ(ANeuralNetworksMemory_createFromFd(100, PROT_READ, f.fd, 8092, &m), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksMemory_free(m);
  ANeuralNetworksMemory_free(nullptr);  // no-op
}

TEST(ApiMemory, FdIsDuplicated) {
  // The caller may close its fd right after createFromFd; the memory stays usable.
  int fd = memfd_create("dup", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 4096), 0);
  float* view = static_cast<float*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  ASSERT_NE(view, MAP_FAILED);
  for (int i = 0; i < 4; ++i) view[i] = static_cast<float>(i + 1);
  MemPtr mem = createMemory(4096, PROT_READ | PROT_WRITE, fd);
  close(fd);

  ModelBuilder mb;
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, a, act}, {out});
  ASSERT_EQ(mb.finish({a}, {out}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(mb.get(), &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr, mem.get(), 64, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(view[16 + i], 2.f * (i + 1));
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
  munmap(view, 4096);
}

// ---------------------------------------------------------------------------------------------
// Execution arguments from memory

class ApiMemoryExecution : public ::testing::Test {
 protected:
  void SetUp() override {
    const uint32_t a = mb_.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
    const uint32_t b = mb_.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
    const uint32_t act = mb_.addInt32(0);
    const uint32_t out = mb_.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
    mb_.addOperation(ANEURALNETWORKS_ADD, {a, b, act}, {out});
    ASSERT_EQ(mb_.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_create(mb_.get(), &c_), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksCompilation_finish(c_), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_create(c_, &e_), ANEURALNETWORKS_NO_ERROR);
  }
  void TearDown() override {
    ANeuralNetworksExecution_free(e_);
    ANeuralNetworksCompilation_free(c_);
  }
  ModelBuilder mb_;
  ANeuralNetworksCompilation* c_ = nullptr;
  ANeuralNetworksExecution* e_ = nullptr;
};

TEST_F(ApiMemoryExecution, RegionsAreBoundsChecked) {
  MemFd f(256);
  MemPtr mem = createMemory(256, PROT_READ | PROT_WRITE, f.fd);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(nullptr, 0, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, nullptr, 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(nullptr, 0, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, nullptr, 0, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Outside the 256-byte memory; offsets near SIZE_MAX must not wrap around.
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 241, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 256, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), SIZE_MAX - 4, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, mem.get(), 250, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, mem.get(), SIZE_MAX, 16), ANEURALNETWORKS_BAD_DATA);
  // Wrong length for the operand.
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 0, 12), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, mem.get(), 0, 32), ANEURALNETWORKS_BAD_DATA);
  // Index out of range.
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 2, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 1, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_BAD_DATA);

  // The last 16 bytes are a valid region; then the same input twice is BAD_STATE.
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 240, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 0, 16), ANEURALNETWORKS_BAD_STATE);
}

TEST_F(ApiMemoryExecution, ComputesThroughSharedMemory) {
  MemFd f(4096);
  float* view = static_cast<float*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0));
  ASSERT_NE(view, MAP_FAILED);
  const float a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, 40};
  memcpy(view + 4, a, 16);   // offset 16
  memcpy(view + 12, b, 16);  // offset 48
  MemPtr mem = createMemory(4096, PROT_READ | PROT_WRITE, f.fd);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, mem.get(), 16, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 1, nullptr, mem.get(), 48, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, mem.get(), 128, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e_), ANEURALNETWORKS_NO_ERROR);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(view[32 + i], a[i] + b[i]) << i;
  munmap(view, 4096);
}

TEST_F(ApiMemoryExecution, ReadOnlyMemoryCannotBeAnOutput) {
  MemFd f(4096);
  MemPtr ro = createMemory(4096, PROT_READ, f.fd);
  EXPECT_EQ(ANeuralNetworksExecution_setOutputFromMemory(e_, 0, nullptr, ro.get(), 0, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInputFromMemory(e_, 0, nullptr, ro.get(), 0, 16), ANEURALNETWORKS_NO_ERROR);
}

// ---------------------------------------------------------------------------------------------
// Model constants from memory

TEST(ApiMemory, WeightsFromMemoryMatchSetOperandValue) {
  // 64 floats: above the 128-byte copy threshold, so both paths reference caller storage.
  constexpr uint32_t n = 64;
  std::vector<float> w(n), b(n), in(n);
  for (uint32_t i = 0; i < n; ++i) {
    w[i] = 0.5f * i - 7.f;
    b[i] = 1.f / (i + 1);
    in[i] = static_cast<float>(i % 7) - 3.f;
  }
  ModelBuilder byValue;
  buildMulAdd(byValue, n, [&](ANeuralNetworksModel* m, uint32_t wi, uint32_t bi) {
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m, wi, w.data(), n * 4), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValue(m, bi, b.data(), n * 4), ANEURALNETWORKS_NO_ERROR);
  });

  MemFd f(8192);
  float* view = static_cast<float*>(mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0));
  ASSERT_NE(view, MAP_FAILED);
  memcpy(view + 8, w.data(), n * 4);     // offset 32
  memcpy(view + 1024, b.data(), n * 4);  // offset 4096
  MemPtr mem = createMemory(8192, PROT_READ, f.fd);
  ModelBuilder fromMemory;
  buildMulAdd(fromMemory, n, [&](ANeuralNetworksModel* m, uint32_t wi, uint32_t bi) {
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, wi, mem.get(), 32, n * 4), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, bi, mem.get(), 4096, n * 4), ANEURALNETWORKS_NO_ERROR);
  });

  for (const char* device : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    SCOPED_TRACE(device);
    const std::vector<float> r1 = runFloat(byValue.get(), {in}, n, device);
    const std::vector<float> r2 = runFloat(fromMemory.get(), {in}, n, device);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_FLOAT_EQ(r1[i], in[i] * w[i] + b[i]) << i;
      EXPECT_EQ(r1[i], r2[i]) << i;
    }
  }
  munmap(view, 8192);
}

TEST(ApiMemory, SmallWeightsFromMemory) {
  constexpr uint32_t n = 4;  // 16 bytes: would be copied if given by value
  MemFd f(4096);
  float* view = static_cast<float*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f.fd, 0));
  ASSERT_NE(view, MAP_FAILED);
  const float w[n] = {1, -2, 3, -4}, b[n] = {0.5f, 0.25f, 0, -1};
  memcpy(view + 100, w, 16);
  memcpy(view + 200, b, 16);
  MemPtr mem = createMemory(4096, PROT_READ, f.fd);
  ModelBuilder mb;
  buildMulAdd(mb, n, [&](ANeuralNetworksModel* m, uint32_t wi, uint32_t bi) {
    // Bounds rules while we are here: past the end, misaligned, wrong length.
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, wi, mem.get(), 4084, 16), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, wi, mem.get(), 401, 16), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, wi, mem.get(), 400, 20), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, wi, mem.get(), 400, 16), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksModel_setOperandValueFromMemory(m, bi, mem.get(), 800, 16), ANEURALNETWORKS_NO_ERROR);
  });
  const std::vector<float> in = {2, 2, 2, 2};
  const std::vector<float> r = runFloat(mb.get(), {in}, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(r[i], 2 * w[i] + b[i]) << i;
  munmap(view, 4096);
}

// ---------------------------------------------------------------------------------------------
// Zero-copy constants

// NNAPI contract (ANeuralNetworksModel_setOperandValue, ABI.md §3.4 and the NDK header): values
// larger than ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES (128 bytes) are NOT copied;
// the runtime keeps the caller's pointer, and the caller must keep the buffer alive and
// unchanged for the model's life. So a write to the buffer after setOperandValue but before
// Model_finish is visible in the results; values of at most 128 bytes are copied immediately
// and such a write is not.
TEST(ApiMemory, LargeConstantIsReferencedNotCopied) {
  constexpr uint32_t n = 64;  // 256 bytes
  static_assert(n * 4 > ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, "must be a referenced constant");
  std::vector<float> w(n, 1.f), b(n, 0.f), in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  ModelBuilder mb;
  const uint32_t inIdx = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  const uint32_t wIdx = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(mb.get(), wIdx, w.data(), n * 4), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t i = 0; i < n; ++i) w[i] = 3.f;  // after setOperandValue, before finish
  mb.addOperation(ANEURALNETWORKS_MUL, {inIdx, wIdx, act}, {out});
  ASSERT_EQ(mb.finish({inIdx}, {out}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> r = runFloat(mb.get(), {in}, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(r[i], 3.f * in[i]) << i;
}

TEST(ApiMemory, SmallConstantIsCopied) {
  constexpr uint32_t n = 32;  // exactly 128 bytes: copied
  static_assert(n * 4 == ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES, "boundary value");
  std::vector<float> w(n, 1.f), in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = static_cast<float>(i);
  ModelBuilder mb;
  const uint32_t inIdx = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  const uint32_t wIdx = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {n});
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(mb.get(), wIdx, w.data(), n * 4), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t i = 0; i < n; ++i) w[i] = 3.f;
  mb.addOperation(ANEURALNETWORKS_MUL, {inIdx, wIdx, act}, {out});
  ASSERT_EQ(mb.finish({inIdx}, {out}), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> r = runFloat(mb.get(), {in}, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(r[i], in[i]) << i;
}

// ---------------------------------------------------------------------------------------------
// Memory_copy / memory descriptors

TEST(ApiMemory, CopyRules) {
  MemFd f1(4096), f2(4096), f3(8192);
  MemPtr a = createMemory(4096, PROT_READ | PROT_WRITE, f1.fd);
  MemPtr b = createMemory(4096, PROT_READ | PROT_WRITE, f2.fd);
  MemPtr c = createMemory(8192, PROT_READ | PROT_WRITE, f3.fd);
  EXPECT_EQ(ANeuralNetworksMemory_copy(nullptr, b.get()), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_copy(a.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemory_copy(a.get(), c.get()), ANEURALNETWORKS_BAD_DATA);
  uint8_t* va = static_cast<uint8_t*>(mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f1.fd, 0));
  uint8_t* vb = static_cast<uint8_t*>(mmap(nullptr, 4096, PROT_READ, MAP_SHARED, f2.fd, 0));
  ASSERT_NE(va, MAP_FAILED);
  ASSERT_NE(vb, MAP_FAILED);
  for (int i = 0; i < 4096; ++i) va[i] = static_cast<uint8_t>(i * 7);
  EXPECT_EQ(ANeuralNetworksMemory_copy(a.get(), b.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(memcmp(va, vb, 4096), 0);
  munmap(va, 4096);
  munmap(vb, 4096);
}

TEST(ApiMemory, CopyIntoReadOnlyMemoryFailsCleanly) {
  // The destination was mapped without PROT_WRITE: the copy must be refused with an error
  // code, never attempted (which would fault). Run in a child so a crash fails only this test.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        MemFd f1(4096);
        MemFd f2(4096);
        MemPtr src = createMemory(4096, PROT_READ | PROT_WRITE, f1.fd);
        MemPtr dst = createMemory(4096, PROT_READ, f2.fd);
        const int r = ANeuralNetworksMemory_copy(src.get(), dst.get());
        fprintf(stderr, "copy into read-only memory: result %d\n", r);
        _exit(r != ANEURALNETWORKS_NO_ERROR ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "copy into read-only memory: result");
}

TEST(ApiMemory, AbsurdSizesAndOffsetsFailCleanly) {
  MemFd f(4096);
  ANeuralNetworksMemory* m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(SIZE_MAX, PROT_READ, f.fd, 0, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(16, PROT_READ, f.fd, SIZE_MAX - 4, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
  m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_NE(ANeuralNetworksMemory_createFromFd(SIZE_MAX - 100, PROT_READ, f.fd, 4000, &m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(m, nullptr);
}

TEST(ApiMemory, DescriptorNullRules) {
  EXPECT_EQ(ANeuralNetworksMemoryDesc_create(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_finish(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksMemoryDesc_setDimensions(nullptr, 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksMemory* m = reinterpret_cast<ANeuralNetworksMemory*>(0x1);
  EXPECT_EQ(ANeuralNetworksMemory_createFromDesc(nullptr, &m), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(m, nullptr);
  ANeuralNetworksMemoryDesc_free(nullptr);
}

// ---------------------------------------------------------------------------------------------
// Devices

TEST(ApiDevice, Registry) {
  uint32_t count = 0;
  EXPECT_EQ(ANeuralNetworks_getDeviceCount(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(ANeuralNetworks_getDeviceCount(&count), ANEURALNETWORKS_NO_ERROR);
  ASSERT_GE(count, 2u);
  const int64_t runtimeLevel = ANeuralNetworks_getRuntimeFeatureLevel();
  EXPECT_GE(runtimeLevel, ANEURALNETWORKS_FEATURE_LEVEL_1);

  std::set<std::string> names;
  for (uint32_t i = 0; i < count; ++i) {
    SCOPED_TRACE(i);
    ANeuralNetworksDevice* d = nullptr;
    ASSERT_EQ(ANeuralNetworks_getDevice(i, &d), ANEURALNETWORKS_NO_ERROR);
    ASSERT_NE(d, nullptr);
    ANeuralNetworksDevice* again = nullptr;
    ASSERT_EQ(ANeuralNetworks_getDevice(i, &again), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(d, again) << "the same index yields the same handle";

    const char* name = nullptr;
    ASSERT_EQ(ANeuralNetworksDevice_getName(d, &name), ANEURALNETWORKS_NO_ERROR);
    ASSERT_NE(name, nullptr);
    EXPECT_TRUE(names.insert(name).second) << "duplicate device name " << name;
    int32_t type = -1;
    ASSERT_EQ(ANeuralNetworksDevice_getType(d, &type), ANEURALNETWORKS_NO_ERROR);
    EXPECT_GE(type, ANEURALNETWORKS_DEVICE_UNKNOWN);
    EXPECT_LE(type, ANEURALNETWORKS_DEVICE_ACCELERATOR);
    const char* version = nullptr;
    ASSERT_EQ(ANeuralNetworksDevice_getVersion(d, &version), ANEURALNETWORKS_NO_ERROR);
    ASSERT_NE(version, nullptr);
    EXPECT_GT(strlen(version), 0u);
    int64_t level = 0;
    ASSERT_EQ(ANeuralNetworksDevice_getFeatureLevel(d, &level), ANEURALNETWORKS_NO_ERROR);
    EXPECT_GE(level, ANEURALNETWORKS_FEATURE_LEVEL_1);
    EXPECT_LE(level, runtimeLevel);
    EXPECT_EQ(ANeuralNetworksDevice_wait(d), ANEURALNETWORKS_NO_ERROR);
    bool supported = true;
    EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(d, "com.example.none", &supported), ANEURALNETWORKS_NO_ERROR);
    EXPECT_FALSE(supported);
    // NULL out-pointers.
    EXPECT_EQ(ANeuralNetworksDevice_getName(d, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksDevice_getType(d, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksDevice_getVersion(d, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksDevice_getFeatureLevel(d, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(d, nullptr, &supported), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksDevice_getExtensionSupport(d, "x", nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  }
  EXPECT_EQ(names.count("nnapi-cpu"), 1u);
  EXPECT_EQ(names.count("nnapi-cpu-reference"), 1u);
  for (const char* n : {"nnapi-cpu", "nnapi-cpu-reference"}) {
    const ANeuralNetworksDevice* d = deviceNamed(n);
    ASSERT_NE(d, nullptr) << n;
    int32_t type = -1;
    ASSERT_EQ(ANeuralNetworksDevice_getType(d, &type), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(type, ANEURALNETWORKS_DEVICE_CPU) << n;
  }

  ANeuralNetworksDevice* d = reinterpret_cast<ANeuralNetworksDevice*>(0x1);
  EXPECT_EQ(ANeuralNetworks_getDevice(count, &d), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworks_getDevice(UINT32_MAX, &d), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworks_getDevice(0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  const char* name = nullptr;
  int32_t type = 0;
  const char* version = nullptr;
  int64_t level = 0;
  EXPECT_EQ(ANeuralNetworksDevice_getName(nullptr, &name), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksDevice_getType(nullptr, &type), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksDevice_getVersion(nullptr, &version), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksDevice_getFeatureLevel(nullptr, &level), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksDevice_wait(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
}

// ---------------------------------------------------------------------------------------------
// Events from fds

TEST(ApiDevice, EventFromSyncFenceFdRules) {
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(3, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(-1, &ev), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ev, nullptr);
  ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(0, &ev), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ev, nullptr);
  // Issue 9: only a sync_file is a fence. A pipe (even a readable one), a regular file or a
  // socket is refused: waiting on a pipe that never becomes readable would never return.
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  for (int fd : {p[0], p[1]}) {
    ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
    EXPECT_EQ(ANeuralNetworksEvent_createFromSyncFenceFd(fd, &ev), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ev, nullptr);
    const std::string message = ANNLinux_getLastErrorMessage();
    EXPECT_NE(message.find("sync"), std::string::npos) << message;
  }
  close(p[0]);
  close(p[1]);
}

// ---------------------------------------------------------------------------------------------
// Diagnostics extension

TEST(ApiDiagnostics, LastErrorNamesFunctionOperandAndRule) {
  ANNLinux_clearLastErrorMessage();
  EXPECT_STREQ(ANNLinux_getLastErrorMessage(), "");

  ModelBuilder mb;
  mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  const float v[4] = {};
  // Wrong length on operand 1.
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(mb.get(), 1, v, 12), ANEURALNETWORKS_BAD_DATA);
  std::string msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("ANeuralNetworksModel_setOperandValue"), std::string::npos) << msg;
  EXPECT_NE(msg.find("operand 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("12"), std::string::npos) << msg;  // the received length
  EXPECT_NE(msg.find("16"), std::string::npos) << msg;  // the expected size

  // A later successful call starts from a clean message.
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(mb.get(), 1, v, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_STREQ(ANNLinux_getLastErrorMessage(), "");

  // Out-of-range index: names the index and the operand count.
  ASSERT_EQ(ANeuralNetworksModel_setOperandValue(mb.get(), 9, v, 16), ANEURALNETWORKS_BAD_DATA);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("9"), std::string::npos) << msg;
  EXPECT_NE(msg.find("range"), std::string::npos) << msg;

  // NULL argument: names the function and the argument.
  ASSERT_EQ(ANeuralNetworksModel_addOperand(mb.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("ANeuralNetworksModel_addOperand"), std::string::npos) << msg;
  EXPECT_NE(msg.find("type"), std::string::npos) << msg;

  // Unknown operation code.
  const uint32_t in[] = {0, 1}, out[] = {1};
  ASSERT_EQ(ANeuralNetworksModel_addOperation(mb.get(), 4242, 2, in, 1, out), ANEURALNETWORKS_BAD_DATA);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("ANeuralNetworksModel_addOperation"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4242"), std::string::npos) << msg;

  // Wrong signature: names the operation.
  const uint32_t in2[] = {0, 1};
  const uint32_t out2[] = {1};
  ModelBuilder mb2;
  mb2.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb2.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  ASSERT_EQ(ANeuralNetworksModel_addOperation(mb2.get(), ANEURALNETWORKS_ADD, 2, in2, 1, out2), ANEURALNETWORKS_BAD_DATA);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_FALSE(msg.empty());
  EXPECT_NE(msg.find("ADD"), std::string::npos) << msg;

  // State error after finish.
  ModelBuilder mb3;
  const uint32_t a = mb3.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  const uint32_t act = mb3.addInt32(0);
  const uint32_t o = mb3.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb3.addOperation(ANEURALNETWORKS_ADD, {a, a, act}, {o});
  ASSERT_EQ(mb3.finish({a}, {o}), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksModel_finish(mb3.get()), ANEURALNETWORKS_BAD_STATE);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("ANeuralNetworksModel_finish"), std::string::npos) << msg;
  EXPECT_NE(msg.find("finished"), std::string::npos) << msg;

  ANNLinux_clearLastErrorMessage();
  EXPECT_STREQ(ANNLinux_getLastErrorMessage(), "");
}

TEST(ApiDiagnostics, ExecutionErrorsAreDescribed) {
  ModelBuilder mb;
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  const uint32_t act = mb.addInt32(0);
  const uint32_t o = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, a, act}, {o});
  ASSERT_EQ(mb.finish({a}, {o}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(mb.get(), &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksExecution* e = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
  float buf[4] = {};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, buf, 8), ANEURALNETWORKS_BAD_DATA);
  std::string msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("ANeuralNetworksExecution_setInput"), std::string::npos) << msg;
  EXPECT_NE(msg.find("input 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("8"), std::string::npos) << msg;
  ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_DATA);
  msg = ANNLinux_getLastErrorMessage();
  EXPECT_NE(msg.find("never set"), std::string::npos) << msg;
  ANeuralNetworksExecution_free(e);
  ANeuralNetworksCompilation_free(c);
}

}  // namespace
