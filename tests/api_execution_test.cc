// API-contract tests for ANeuralNetworksExecution_*, ANeuralNetworksBurst_* and
// ANeuralNetworksEvent_*: the execution state machine (preparation -> computation -> completed),
// argument rules of setInput/setOutput, shape queries, timing and fenced execution
// (/work/shared/spec/ABI.md §3.1, §3.6, §3.7, §3.10), each with the exact result code.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksExtensions.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace {

using nntest::ModelBuilder;

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

enum class Target { kDefault, kCpu, kReference, kBoth };

// out = (in0 + in1) * c with c = {2, 3, 4, 5}. `inDims` / `outDims` are the declared shapes of
// the model inputs and output (0 = unknown axis, {} = unknown rank for the output).
struct AddMul {
  ModelBuilder mb;
  ANeuralNetworksCompilation* compilation = nullptr;

  explicit AddMul(Target target = Target::kDefault, std::vector<uint32_t> inDims = {4},
                  std::vector<uint32_t> outDims = {4}) {
    const uint32_t in0 = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, inDims);
    const uint32_t in1 = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, inDims);
    const uint32_t c = mb.addConstant<float>(ANEURALNETWORKS_TENSOR_FLOAT32, {4}, {2.f, 3.f, 4.f, 5.f});
    const uint32_t act = mb.addInt32(ANEURALNETWORKS_FUSED_NONE);
    const uint32_t t = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, inDims);
    const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, outDims);
    mb.addOperation(ANEURALNETWORKS_ADD, {in0, in1, act}, {t});
    mb.addOperation(ANEURALNETWORKS_MUL, {t, c, act}, {out});
    EXPECT_EQ(mb.finish({in0, in1}, {out}), ANEURALNETWORKS_NO_ERROR);
    int r;
    if (target == Target::kDefault) {
      r = ANeuralNetworksCompilation_create(mb.get(), &compilation);
    } else {
      std::vector<const ANeuralNetworksDevice*> devices;
      if (target != Target::kReference) devices.push_back(deviceNamed("nnapi-cpu"));
      if (target != Target::kCpu) devices.push_back(deviceNamed("nnapi-cpu-reference"));
      r = ANeuralNetworksCompilation_createForDevices(mb.get(), devices.data(), devices.size(), &compilation);
    }
    EXPECT_EQ(r, ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(compilation), ANEURALNETWORKS_NO_ERROR);
  }
  ~AddMul() { ANeuralNetworksCompilation_free(compilation); }

  ANeuralNetworksExecution* newExecution() const {
    ANeuralNetworksExecution* e = nullptr;
    EXPECT_EQ(ANeuralNetworksExecution_create(compilation, &e), ANEURALNETWORKS_NO_ERROR);
    return e;
  }
};

struct ExecDeleter {
  void operator()(ANeuralNetworksExecution* e) const { ANeuralNetworksExecution_free(e); }
};
using ExecPtr = std::unique_ptr<ANeuralNetworksExecution, ExecDeleter>;
struct EventDeleter {
  void operator()(ANeuralNetworksEvent* e) const { ANeuralNetworksEvent_free(e); }
};
using EventPtr = std::unique_ptr<ANeuralNetworksEvent, EventDeleter>;

std::vector<float> expected(const float* a, const float* b) {
  const float c[4] = {2, 3, 4, 5};
  std::vector<float> r(4);
  for (int i = 0; i < 4; ++i) r[i] = (a[i] + b[i]) * c[i];
  return r;
}

struct Io {
  float a[4] = {1, 2, 3, 4};
  float b[4] = {0.5f, -1, 10, 0};
  float out[4] = {-7, -7, -7, -7};
};

void bindAll(ANeuralNetworksExecution* e, Io& io) {
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 0, nullptr, io.a, sizeof(io.a)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e, 1, nullptr, io.b, sizeof(io.b)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e, 0, nullptr, io.out, sizeof(io.out)), ANEURALNETWORKS_NO_ERROR);
}

void expectOutput(const Io& io) {
  const std::vector<float> want = expected(io.a, io.b);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(io.out[i], want[i]) << "element " << i;
}

// ---------------------------------------------------------------------------------------------

TEST(ApiExecution, CreateRules) {
  AddMul m;
  ANeuralNetworksExecution* e = reinterpret_cast<ANeuralNetworksExecution*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_create(m.compilation, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_create(nullptr, &e), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(e, nullptr);

  // A compilation that is not finished: the reference's BAD_STATE (ABI.md §6.1).
  ANeuralNetworksCompilation* unfinished = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.mb.get(), &unfinished), ANEURALNETWORKS_NO_ERROR);
  e = reinterpret_cast<ANeuralNetworksExecution*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_create(unfinished, &e), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(e, nullptr);
  ANeuralNetworksBurst* b = reinterpret_cast<ANeuralNetworksBurst*>(0x1);
  EXPECT_EQ(ANeuralNetworksBurst_create(unfinished, &b), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(b, nullptr);
  ANeuralNetworksCompilation_free(unfinished);

  ANeuralNetworksExecution_free(nullptr);  // no-op
  ANeuralNetworksEvent_free(nullptr);      // no-op
  ANeuralNetworksBurst_free(nullptr);      // no-op
}

TEST(ApiExecution, ComputesAddMulOnEveryDevice) {
  for (Target t : {Target::kDefault, Target::kCpu, Target::kReference, Target::kBoth}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t);
    ExecPtr e(m.newExecution());
    Io io;
    bindAll(e.get(), io);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
    expectOutput(io);
    uint32_t rank = 0, dims[1] = {0};
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(rank, 1u);
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(dims[0], 4u);
  }
}

TEST(ApiExecution, SetInputOutputRules) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  EXPECT_EQ(ANeuralNetworksExecution_setInput(nullptr, 0, nullptr, io.a, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, nullptr, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(nullptr, 0, nullptr, io.out, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, nullptr, 16), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Index is a position in the model input/output list (2 inputs, 1 output).
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 2, nullptr, io.a, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), -1, nullptr, io.a, 16), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 1, nullptr, io.out, 16), ANEURALNETWORKS_BAD_DATA);
  // Length must be the exact byte size without padding.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 12), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 20), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 8), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, size_t{1} << 33), ANEURALNETWORKS_BAD_DATA);

  // Setting an argument twice is BAD_STATE.
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 16), ANEURALNETWORKS_BAD_STATE);

  // Computing with input 1 unset is BAD_DATA and leaves the execution usable.
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, nullptr, io.b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
}

TEST(ApiExecution, TypeOverrideRules) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  const uint32_t d4[] = {4}, d5[] = {5}, d22[] = {2, 2};
  const ANeuralNetworksOperandType wrongType{ANEURALNETWORKS_TENSOR_INT32, 1, d4, 0.f, 0};
  const ANeuralNetworksOperandType wrongScale{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d4, 0.5f, 0};
  const ANeuralNetworksOperandType wrongZeroPoint{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d4, 0.f, 3};
  const ANeuralNetworksOperandType wrongRank{ANEURALNETWORKS_TENSOR_FLOAT32, 2, d22, 0.f, 0};
  const ANeuralNetworksOperandType wrongDim{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d5, 0.f, 0};
  const ANeuralNetworksOperandType nullDims{ANEURALNETWORKS_TENSOR_FLOAT32, 1, nullptr, 0.f, 0};
  const ANeuralNetworksOperandType unknownRank{ANEURALNETWORKS_TENSOR_FLOAT32, 0, nullptr, 0.f, 0};
  const ANeuralNetworksOperandType same{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d4, 0.f, 0};
  for (const auto* t : {&wrongType, &wrongScale, &wrongZeroPoint, &wrongRank, &wrongDim, &nullDims, &unknownRank}) {
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, t, io.a, 16), ANEURALNETWORKS_BAD_DATA)
        << "type " << t->type << " rank " << t->dimensionCount;
    EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, t, io.out, 16), ANEURALNETWORKS_BAD_DATA);
  }
  // A type identical to the model's is accepted.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, &same, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, &same, io.b, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, &same, io.out, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
}

TEST(ApiExecution, UnspecifiedInputDimsComeFromTypeArgument) {
  AddMul m(Target::kDefault, /*inDims=*/{0}, /*outDims=*/{0});
  ExecPtr e(m.newExecution());
  Io io;
  // Without a type the input shape is unknown, so no length can be checked.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_BAD_DATA);
  const uint32_t d4[] = {4}, d22[] = {2, 2}, d3[] = {3};
  const ANeuralNetworksOperandType t4{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d4, 0.f, 0};
  const ANeuralNetworksOperandType t22{ANEURALNETWORKS_TENSOR_FLOAT32, 2, d22, 0.f, 0};
  const ANeuralNetworksOperandType t3{ANEURALNETWORKS_TENSOR_FLOAT32, 1, d3, 0.f, 0};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, &t22, io.a, 16), ANEURALNETWORKS_BAD_DATA);  // rank
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, &t3, io.a, 16), ANEURALNETWORKS_BAD_DATA);   // length
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, &t4, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, &t4, io.b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
  uint32_t rank = 0, dims[1] = {0};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(rank, 1u);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(dims[0], 4u);
}

TEST(ApiExecution, UnspecifiedOutputShapeIsReportedAfterCompute) {
  // Declared output dims {0} (unknown axis) and {} (unknown rank).
  for (const std::vector<uint32_t>& outDims : {std::vector<uint32_t>{0}, std::vector<uint32_t>{}}) {
    SCOPED_TRACE(outDims.size());
    for (Target t : {Target::kCpu, Target::kReference}) {
      AddMul m(t, {4}, outDims);
      ExecPtr e(m.newExecution());
      Io io;
      bindAll(e.get(), io);
      uint32_t rank = 99, dims[1] = {0};
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_BAD_STATE);
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_BAD_STATE);
      ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
      expectOutput(io);
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(rank, 1u);
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(dims[0], 4u);
    }
  }
}

TEST(ApiExecution, OutputInsufficientSize) {
  for (Target t : {Target::kCpu, Target::kReference}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t, {4}, /*outDims=*/{0});
    ExecPtr e(m.newExecution());
    Io io;
    float small[2] = {0, 0};
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, nullptr, io.b, 16), ANEURALNETWORKS_NO_ERROR);
    // The shape is unknown at setOutput time, so the short buffer is accepted here...
    ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, small, sizeof(small)), ANEURALNETWORKS_NO_ERROR);
    // ...and the computation reports it, along with the shape that would have fit.
    EXPECT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    uint32_t rank = 0, dims[1] = {0};
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    EXPECT_EQ(rank, 1u);
    EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims),
              ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
    EXPECT_EQ(dims[0], 4u);
    // A failed computation has no timing.
    uint64_t d = 0;
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_IN_DRIVER, &d), ANEURALNETWORKS_BAD_STATE);
    EXPECT_EQ(d, UINT64_MAX);
  }
}

TEST(ApiExecution, OutputInsufficientSizeThroughEvent) {
  AddMul m(Target::kDefault, {4}, /*outDims=*/{0});
  ExecPtr e(m.newExecution());
  Io io;
  float small[3] = {0, 0, 0};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, nullptr, io.b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, small, sizeof(small)), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* ev = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_NO_ERROR);
  EventPtr guard(ev);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  uint32_t dims[1] = {0};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);
  EXPECT_EQ(dims[0], 4u);
}

TEST(ApiExecution, OutputQueriesRules) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  uint32_t rank = 0, dims[1];
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(nullptr, 0, &rank), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(nullptr, 0, dims), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  // Before completion.
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_BAD_STATE);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 1, &rank), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), -1, &rank), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 1, dims), ANEURALNETWORKS_BAD_DATA);
}

// ---------------------------------------------------------------------------------------------
// State machine

TEST(ApiExecution, NonReusableComputesOnce) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  EXPECT_EQ(ANeuralNetworksExecution_compute(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
  // Completed, not reusable: every further computation and every setter is BAD_STATE.
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_BAD_STATE);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ev, nullptr);
  float other[4] = {};
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, other, 16), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, other, 16), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setReusable(e.get(), true), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(e.get(), 1000), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(e.get(), true), ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiExecution, ReusableComputesAgainWithSameResults) {
  AddMul m;
  ExecPtr e(m.newExecution());
  EXPECT_EQ(ANeuralNetworksExecution_setReusable(nullptr, true), ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(e.get(), true), ANEURALNETWORKS_NO_ERROR);
  Io io;
  bindAll(e.get(), io);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> first(io.out, io.out + 4);
  expectOutput(io);
  std::fill(io.out, io.out + 4, -1.f);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(std::vector<float>(io.out, io.out + 4), first);
  // Bindings are by pointer: new input contents give new results on the next computation.
  io.a[0] = 100.f;
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
  EXPECT_NE(io.out[0], first[0]);
  // Reusable, but still never modifiable again.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(ANeuralNetworksExecution_setReusable(e.get(), false), ANEURALNETWORKS_BAD_STATE);
  // An asynchronous recomputation also works.
  ANeuralNetworksEvent* ev = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(ev);
  expectOutput(io);
}

TEST(ApiExecution, StartComputeAndEventWait) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_startCompute(e.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_startCompute(nullptr, &ev), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ev, nullptr);
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ(ANeuralNetworksEvent_wait(nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);  // waiting again is fine
  expectOutput(io);
  // No fence behind a startCompute event: BAD_DATA and the fd stays -1.
  int fd = 5;
  EXPECT_EQ(ANeuralNetworksEvent_getSyncFenceFd(ev, &fd), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(fd, -1);
  EXPECT_EQ(ANeuralNetworksEvent_getSyncFenceFd(ev, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  ANeuralNetworksEvent_free(ev);
  uint32_t rank = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiExecution, StartComputeMissingInputIsBadData) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 16), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ev, nullptr);
}

TEST(ApiExecution, StartComputeWithDependencies) {
  AddMul m;
  // First execution produces an event; once waited on, it is an already-signalled dependency.
  ExecPtr first(m.newExecution());
  Io io1;
  bindAll(first.get(), io1);
  ANeuralNetworksEvent* dep = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(first.get(), &dep), ANEURALNETWORKS_NO_ERROR);
  EventPtr depGuard(dep);
  ASSERT_EQ(ANeuralNetworksEvent_wait(dep), ANEURALNETWORKS_NO_ERROR);

  ExecPtr second(m.newExecution());
  Io io2;
  io2.a[2] = -3.f;
  bindAll(second.get(), io2);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  const ANeuralNetworksEvent* deps[] = {dep};
  const ANeuralNetworksEvent* nullDep[] = {nullptr};
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second.get(), deps, 1, 0, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(nullptr, deps, 1, 0, &ev),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ev, nullptr);
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second.get(), nullptr, 1, 0, &ev),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second.get(), nullDep, 1, 0, &ev),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  // A non-zero duration needs a single-device createForDevices compilation.
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second.get(), deps, 1, 1000000000, &ev),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ev, nullptr);

  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(second.get(), deps, 1, 0, &ev),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(ev, nullptr);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(ev);
  expectOutput(io2);
  expectOutput(io1);

  // No dependencies at all (NULL with count 0) is also valid.
  ExecPtr third(m.newExecution());
  Io io3;
  bindAll(third.get(), io3);
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(third.get(), nullptr, 0, 0, &ev),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(ev);
  expectOutput(io3);
  // Completed and not reusable.
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(third.get(), nullptr, 0, 0, &ev),
            ANEURALNETWORKS_BAD_STATE);
}

TEST(ApiExecution, StartComputeWithDependenciesDurationOnSingleDevice) {
  AddMul m(Target::kCpu);
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ANeuralNetworksEvent* ev = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e.get(), nullptr, 0, 10000000000ull, &ev),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksEvent_wait(ev), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(ev);
  expectOutput(io);
}

TEST(ApiExecution, StartComputeWithDependenciesNeedsSpecifiedOutputs) {
  AddMul m(Target::kDefault, {4}, /*outDims=*/{0});
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  EXPECT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e.get(), nullptr, 0, 0, &ev),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(ev, nullptr);
  // The rejection did not start the execution.
  EXPECT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io);
}

// ---------------------------------------------------------------------------------------------
// Burst

TEST(ApiExecution, BurstRules) {
  AddMul m;
  AddMul other;
  ANeuralNetworksBurst* burst = reinterpret_cast<ANeuralNetworksBurst*>(0x1);
  EXPECT_EQ(ANeuralNetworksBurst_create(m.compilation, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksBurst_create(nullptr, &burst), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(burst, nullptr);
  ASSERT_EQ(ANeuralNetworksBurst_create(m.compilation, &burst), ANEURALNETWORKS_NO_ERROR);
  ASSERT_NE(burst, nullptr);

  ExecPtr e(m.newExecution());
  ASSERT_EQ(ANeuralNetworksExecution_setReusable(e.get(), true), ANEURALNETWORKS_NO_ERROR);
  Io io;
  bindAll(e.get(), io);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(nullptr, burst), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(e.get(), nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);

  // A burst of another compilation (of an identical model) is BAD_DATA and does not start e.
  ANeuralNetworksBurst* otherBurst = nullptr;
  ASSERT_EQ(ANeuralNetworksBurst_create(other.compilation, &otherBurst), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(e.get(), otherBurst), ANEURALNETWORKS_BAD_DATA);

  for (int i = 0; i < 3; ++i) {
    std::fill(io.out, io.out + 4, 0.f);
    io.b[1] = static_cast<float>(i);
    ASSERT_EQ(ANeuralNetworksExecution_burstCompute(e.get(), burst), ANEURALNETWORKS_NO_ERROR) << i;
    expectOutput(io);
  }
  // A second execution on the same burst.
  ExecPtr e2(m.newExecution());
  Io io2;
  bindAll(e2.get(), io2);
  ASSERT_EQ(ANeuralNetworksExecution_burstCompute(e2.get(), burst), ANEURALNETWORKS_NO_ERROR);
  expectOutput(io2);
  EXPECT_EQ(ANeuralNetworksExecution_burstCompute(e2.get(), burst), ANEURALNETWORKS_BAD_STATE);  // not reusable

  e.reset();
  e2.reset();
  ANeuralNetworksBurst_free(burst);
  ANeuralNetworksBurst_free(otherBurst);
}

// ---------------------------------------------------------------------------------------------
// Timing, timeouts, padding

// A maximal duration means "no practical deadline": the deadline arithmetic saturates instead
// of wrapping into the past (which used to fail every computation with MISSED_DEADLINE).
TEST(ApiExecution, MaximalTimeoutsMeanNoDeadline) {
  for (Target t : {Target::kCpu, Target::kReference}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t);
    for (uint64_t duration : {UINT64_MAX, UINT64_MAX - 1, uint64_t{1} << 63}) {
      ExecPtr e(m.newExecution());
      ASSERT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), duration), ANEURALNETWORKS_NO_ERROR);
      Io io;
      bindAll(e.get(), io);
      ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR) << duration;
      expectOutput(io);
      ExecPtr e2(m.newExecution());
      Io io2;
      bindAll(e2.get(), io2);
      ANeuralNetworksEvent* event = nullptr;
      ASSERT_EQ(ANeuralNetworksExecution_startComputeWithDependencies(e2.get(), nullptr, 0,
                                                                      duration, &event),
                ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(ANeuralNetworksEvent_wait(event), ANEURALNETWORKS_NO_ERROR) << duration;
      ANeuralNetworksEvent_free(event);
      expectOutput(io2);
    }
  }
  // Compilation deadlines too.
  ModelBuilder mb;
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t b = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  const uint32_t out = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, b, mb.addInt32(ANEURALNETWORKS_FUSED_NONE)}, {out});
  ASSERT_EQ(mb.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksDevice* cpu = deviceNamed("nnapi-cpu");
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(mb.get(), &cpu, 1, &c), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_setTimeout(c, UINT64_MAX), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiExecution, MeasureTimingRules) {
  {
    AddMul implicit;  // Compilation_create: no single explicit device
    ExecPtr e(implicit.newExecution());
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(nullptr, true), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(e.get(), true), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), 1000000000), ANEURALNETWORKS_BAD_DATA);
  }
  {
    AddMul both(Target::kBoth);  // two devices
    ExecPtr e(both.newExecution());
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(e.get(), true), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), 1000000000), ANEURALNETWORKS_BAD_DATA);
  }
  for (Target t : {Target::kCpu, Target::kReference}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t);
    ExecPtr e(m.newExecution());
    uint64_t d = 0;
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(nullptr, ANEURALNETWORKS_DURATION_ON_HARDWARE, &d), ANEURALNETWORKS_UNEXPECTED_NULL);
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_ON_HARDWARE, nullptr), ANEURALNETWORKS_UNEXPECTED_NULL);
    // Not completed yet.
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_ON_HARDWARE, &d), ANEURALNETWORKS_BAD_STATE);
    EXPECT_EQ(d, UINT64_MAX);
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(e.get(), true), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), 10000000000ull), ANEURALNETWORKS_NO_ERROR);
    Io io;
    bindAll(e.get(), io);
    ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
    expectOutput(io);
    EXPECT_EQ(ANeuralNetworksExecution_setMeasureTiming(e.get(), false), ANEURALNETWORKS_BAD_STATE);
    EXPECT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), 0), ANEURALNETWORKS_BAD_STATE);
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), -1, &d), ANEURALNETWORKS_BAD_DATA);
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), 4, &d), ANEURALNETWORKS_BAD_DATA);
    uint64_t onHw = 0, inDriver = 0;
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_ON_HARDWARE, &onHw), ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_IN_DRIVER, &inDriver), ANEURALNETWORKS_NO_ERROR);
    // Measured values are real (< 10 s for four additions) or UINT64_MAX when not available;
    // when both are available, time in the driver includes time on the hardware.
    if (inDriver != UINT64_MAX) {
      EXPECT_LT(inDriver, 10000000000ull);
    }
    if (onHw != UINT64_MAX && inDriver != UINT64_MAX) {
      EXPECT_LE(onHw, inDriver);
    }
    EXPECT_NE(inDriver, UINT64_MAX) << "a CPU driver can always measure its own time";
  }
}

TEST(ApiExecution, DurationWithoutMeasureTiming) {
  AddMul m(Target::kCpu);
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  uint64_t d = 0;
  // ABI.md §6.2: the header yields UINT64_MAX (NO_ERROR), the reference BAD_STATE; either way
  // the value is UINT64_MAX.
  const int r = ANeuralNetworksExecution_getDuration(e.get(), ANEURALNETWORKS_DURATION_IN_DRIVER, &d);
  EXPECT_TRUE(r == ANEURALNETWORKS_NO_ERROR || r == ANEURALNETWORKS_BAD_STATE) << r;
  EXPECT_EQ(d, UINT64_MAX);
}

TEST(ApiExecution, LoopTimeoutAndGlobals) {
  EXPECT_EQ(ANeuralNetworks_getDefaultLoopTimeout(), 2000000000ull);
  EXPECT_EQ(ANeuralNetworks_getMaximumLoopTimeout(), 15000000000ull);
  AddMul m;
  ExecPtr e(m.newExecution());
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(nullptr, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(e.get(), UINT64_MAX), ANEURALNETWORKS_NO_ERROR);  // clamped
  EXPECT_EQ(ANeuralNetworksExecution_setLoopTimeout(e.get(), 0), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_setTimeout(nullptr, 1), ANEURALNETWORKS_UNEXPECTED_NULL);
}

TEST(ApiExecution, PaddingRules) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(nullptr, true), ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(e.get(), true), ANEURALNETWORKS_BAD_STATE);

  ExecPtr p(m.newExecution());
  ASSERT_EQ(ANeuralNetworksExecution_enableInputAndOutputPadding(p.get(), true), ANEURALNETWORKS_NO_ERROR);
  uint32_t padding = 0;
  ASSERT_EQ(ANeuralNetworksCompilation_getPreferredMemoryPaddingForInput(m.compilation, 0, &padding), ANEURALNETWORKS_NO_ERROR);
  const size_t padded = (16 + padding - 1) / padding * padding;
  std::vector<float> a(padded / 4, 0.f), b(padded / 4, 0.f), out(padded / 4, 0.f);
  for (int i = 0; i < 4; ++i) {
    a[i] = io.a[i];
    b[i] = io.b[i];
  }
  // Shorter than the raw size is still rejected.
  EXPECT_EQ(ANeuralNetworksExecution_setInput(p.get(), 0, nullptr, a.data(), 12), ANEURALNETWORKS_BAD_DATA);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(p.get(), 0, nullptr, a.data(), padded), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(p.get(), 1, nullptr, b.data(), padded), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(p.get(), 0, nullptr, out.data(), padded), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(p.get()), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> want = expected(io.a, io.b);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(out[i], want[i]);
}

TEST(ApiExecution, OmittedRequiredInputFailsCleanly) {
  // buffer = NULL, length = 0 omits an (optional) argument; omitting an input that ADD
  // requires must make the computation fail with an error code, never read through NULL.
  // Run in a child process so that a crash is reported as this test's failure instead of
  // taking the whole suite down.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        AddMul m;
        ExecPtr e(m.newExecution());
        Io io;
        int r = ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, nullptr, 0);
        if (r == ANEURALNETWORKS_NO_ERROR) {
          if (ANeuralNetworksExecution_setInput(e.get(), 1, nullptr, io.b, 16) != ANEURALNETWORKS_NO_ERROR ||
              ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, io.out, 16) != ANEURALNETWORKS_NO_ERROR)
            _exit(2);
          r = ANeuralNetworksExecution_compute(e.get());
        }
        fprintf(stderr, "omitted required input: result %d\n", r);
        _exit(r != ANEURALNETWORKS_NO_ERROR ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "omitted required input: result");
}

TEST(ApiExecution, ExtensionAttributeRules) {
  AddMul m(Target::kCpu);
  ExecPtr e(m.newExecution());
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(nullptr, "x", 0, nullptr, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e.get(), nullptr, 0, nullptr, 0), ANEURALNETWORKS_UNEXPECTED_NULL);
  EXPECT_EQ(ANeuralNetworksExecution_addExtensionAttribute(e.get(), "x", 0, nullptr, 4), ANEURALNETWORKS_UNEXPECTED_NULL);
}

// ---------------------------------------------------------------------------------------------
// Deadlines, concurrency, event lifetime

TEST(ApiExecution, ExpiredExecutionDeadline) {
  // A 1 ns budget has run out before the first operation finishes: the driver may abort with
  // MISSED_DEADLINE_* (then no shapes are available) or, having checked too late, succeed.
  for (Target t : {Target::kCpu, Target::kReference}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t);
    ExecPtr e(m.newExecution());
    ASSERT_EQ(ANeuralNetworksExecution_setTimeout(e.get(), 1), ANEURALNETWORKS_NO_ERROR);
    Io io;
    bindAll(e.get(), io);
    const int r = ANeuralNetworksExecution_compute(e.get());
    uint32_t rank = 0;
    if (r == ANEURALNETWORKS_NO_ERROR) {
      expectOutput(io);
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
    } else {
      EXPECT_TRUE(r == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT || r == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT) << r;
      EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_BAD_STATE);
    }
  }
}

TEST(ApiExecution, ExpiredCompilationDeadline) {
  ModelBuilder mb;
  const uint32_t a = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  const uint32_t act = mb.addInt32(0);
  const uint32_t o = mb.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4});
  mb.addOperation(ANEURALNETWORKS_ADD, {a, a, act}, {o});
  ASSERT_EQ(mb.finish({a}, {o}), ANEURALNETWORKS_NO_ERROR);
  const ANeuralNetworksDevice* cpu = deviceNamed("nnapi-cpu");
  ANeuralNetworksCompilation* c = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_createForDevices(mb.get(), &cpu, 1, &c), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_setTimeout(c, 1), ANEURALNETWORKS_NO_ERROR);
  const int r = ANeuralNetworksCompilation_finish(c);
  ANeuralNetworksExecution* e = reinterpret_cast<ANeuralNetworksExecution*>(0x1);
  if (r == ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_free(e);
  } else {
    EXPECT_TRUE(r == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT || r == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT) << r;
    // A failed compilation cannot create executions or bursts.
    EXPECT_EQ(ANeuralNetworksExecution_create(c, &e), ANEURALNETWORKS_BAD_STATE);
    EXPECT_EQ(e, nullptr);
    EXPECT_EQ(ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_STATE);
  }
  ANeuralNetworksCompilation_free(c);
}

TEST(ApiExecution, ConcurrentExecutionsOfOneCompilation) {
  // A finished compilation may be shared between threads; each thread owns its executions.
  for (Target t : {Target::kCpu, Target::kReference}) {
    SCOPED_TRACE(static_cast<int>(t));
    AddMul m(t);
    constexpr int kThreads = 4, kIterations = 50;
    std::vector<int> failures(kThreads, 0);
    std::vector<std::thread> threads;
    for (int k = 0; k < kThreads; ++k) {
      threads.emplace_back([&, k] {
        for (int i = 0; i < kIterations; ++i) {
          ANeuralNetworksExecution* e = nullptr;
          if (ANeuralNetworksExecution_create(m.compilation, &e) != ANEURALNETWORKS_NO_ERROR) {
            ++failures[k];
            continue;
          }
          Io io;
          io.a[0] = static_cast<float>(k * 1000 + i);
          int r = ANeuralNetworksExecution_setInput(e, 0, nullptr, io.a, 16);
          if (r == 0) r = ANeuralNetworksExecution_setInput(e, 1, nullptr, io.b, 16);
          if (r == 0) r = ANeuralNetworksExecution_setOutput(e, 0, nullptr, io.out, 16);
          if (r == 0) r = ANeuralNetworksExecution_compute(e);
          if (r != 0 || io.out[0] != expected(io.a, io.b)[0] || io.out[3] != expected(io.a, io.b)[3]) ++failures[k];
          ANeuralNetworksExecution_free(e);
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int k = 0; k < kThreads; ++k) EXPECT_EQ(failures[k], 0) << "thread " << k;
  }
}

TEST(ApiExecution, FreeingPendingEventWaitsForTheComputation) {
  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ANeuralNetworksEvent* ev = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(e.get(), &ev), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent_free(ev);  // no wait first
  // Once the free returned the computation is over: results and shapes are there.
  expectOutput(io);
  uint32_t rank = 0;
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank), ANEURALNETWORKS_NO_ERROR);
}

TEST(ApiExecution, LargerOutputBufferForUnknownShape) {
  AddMul m(Target::kDefault, {4}, /*outDims=*/{0});
  ExecPtr e(m.newExecution());
  Io io;
  float big[8];
  for (float& f : big) f = -1.f;
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 0, nullptr, io.a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(e.get(), 1, nullptr, io.b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(e.get(), 0, nullptr, big, sizeof(big)), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_compute(e.get()), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> want = expected(io.a, io.b);
  for (int i = 0; i < 4; ++i) EXPECT_FLOAT_EQ(big[i], want[i]);
  uint32_t dims[1] = {0};
  EXPECT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(e.get(), 0, dims), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(dims[0], 4u);
}

TEST(ApiExecution, FailedDependencyIsReported) {
  // The dependency's computation fails (OUTPUT_INSUFFICIENT_SIZE). ABI.md §3.7 / §6.5: the
  // dependent computation reports an error (header), or runs regardless (reference). If it
  // reports one, no event is returned and this execution's own (correctly sized) output must
  // not be described as too small: it never ran, so there are no shapes to query.
  AddMul unknownOut(Target::kDefault, {4}, /*outDims=*/{0});
  ExecPtr failing(unknownOut.newExecution());
  Io io1;
  float small[1] = {0};
  ASSERT_EQ(ANeuralNetworksExecution_setInput(failing.get(), 0, nullptr, io1.a, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setInput(failing.get(), 1, nullptr, io1.b, 16), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksExecution_setOutput(failing.get(), 0, nullptr, small, sizeof(small)), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksEvent* dep = nullptr;
  ASSERT_EQ(ANeuralNetworksExecution_startCompute(failing.get(), &dep), ANEURALNETWORKS_NO_ERROR);
  EventPtr depGuard(dep);
  ASSERT_EQ(ANeuralNetworksEvent_wait(dep), ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE);

  AddMul m;
  ExecPtr e(m.newExecution());
  Io io;
  bindAll(e.get(), io);
  ANeuralNetworksEvent* ev = reinterpret_cast<ANeuralNetworksEvent*>(0x1);
  const ANeuralNetworksEvent* deps[] = {dep};
  const int r = ANeuralNetworksExecution_startComputeWithDependencies(e.get(), deps, 1, 0, &ev);
  uint32_t rank = 0;
  if (r == ANEURALNETWORKS_NO_ERROR) {
    ASSERT_NE(ev, nullptr);
    const int w = ANeuralNetworksEvent_wait(ev);
    ANeuralNetworksEvent_free(ev);
    if (w == ANEURALNETWORKS_NO_ERROR) expectOutput(io);
  } else {
    EXPECT_EQ(ev, nullptr);
    const int q = ANeuralNetworksExecution_getOutputOperandRank(e.get(), 0, &rank);
    EXPECT_NE(q, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) << "the dependent's own output was big enough";
    EXPECT_NE(q, ANEURALNETWORKS_NO_ERROR)
        << "the dependent never computed (startComputeWithDependencies returned " << r << ", rank " << rank << ")";
  }
}

}  // namespace
