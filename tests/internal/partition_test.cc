// Partitioning across devices (runtime/partitioner.h, runtime/partitioned_model.h) without
// real plugins: a fake device wraps the reference CPU device and claims a pseudo-random half
// of the operations (by a hash of a seed and the operation's content), at twice the CPU's
// speed, so the runtime splits models between it and nnapi-cpu-reference. Both run the
// reference kernels, so a split execution must give the same bits as the whole model.
#include <gtest/gtest.h>

#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <random>
#include <thread>

#include "cpu/cpu_device.h"
#include "runtime/api_util.h"
#include "runtime/compilation.h"
#include "runtime/model.h"
#include "test_util.h"

namespace {

using nntest::ModelBuilder;
constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

class FakePartialDevice : public nn::Device {
 public:
  explicit FakePartialDevice(uint64_t seed, bool failPrepare = false)
      : seed_(seed), failPrepare_(failPrepare), inner_(nn::cpuReferenceDevice()) {}
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return inner_->version(); }
  int32_t type() const override { return ANEURALNETWORKS_DEVICE_ACCELERATOR; }
  int64_t featureLevel() const override { return inner_->featureLevel(); }
  nn::Capabilities capabilities() const override {
    nn::Capabilities c;
    const nn::PerformanceInfo fast{0.5f, 0.5f};
    c.relaxedFloat32toFloat16Scalar = c.relaxedFloat32toFloat16Tensor = fast;
    c.ifPerformance = c.whilePerformance = c.otherOperands = fast;
    return c;
  }
  // By content, not by index: the operation looks the same in the whole model and in the
  // step's sub-model the runtime hands to prepareModel.
  bool claims(const nn::Model& model, const nn::Operation& op) const {
    uint64_t h = mix(seed_, static_cast<uint64_t>(op.type));
    auto operand = [&](uint32_t i) {
      const nn::Operand& o = model.main.operands[i];
      h = mix(h, static_cast<uint64_t>(o.type));
      for (uint32_t d : o.dimensions) h = mix(h, d);
      if (o.lifetime == nn::Lifetime::CONSTANT_COPY) {
        for (uint32_t b = 0; b < o.location.length; ++b)
          h = mix(h, model.operandValues[o.location.offset + b]);
      }
    };
    for (uint32_t i : op.inputs) operand(i);
    for (uint32_t i : op.outputs) operand(i);
    return (h >> 29) & 1;
  }
  nn::Status getSupportedOperations(const nn::Model& model, std::vector<bool>* supported,
                                    std::vector<std::string>* reasons) const override {
    nn::Status s = inner_->getSupportedOperations(model, supported, reasons);
    if (!s.ok()) return s;
    for (size_t i = 0; i < supported->size(); ++i) {
      if (!claims(model, model.main.operations[i])) {
        (*supported)[i] = false;
        if (reasons) (*reasons)[i] = "not claimed by the fake device";
      }
    }
    return nn::kOk;
  }
  nn::Status prepareModel(const std::shared_ptr<const nn::Model>& model,
                          const nn::PrepareOptions& options,
                          std::shared_ptr<nn::PreparedModel>* prepared) const override {
    for (size_t i = 0; i < model->main.operations.size(); ++i) {
      if (!claims(*model, model->main.operations[i]))
        return nn::makeError(nn::ErrorStatus::INVALID_ARGUMENT,
                             "fake device: handed operation %zu (%s), which it does not claim", i,
                             nn::toString(model->main.operations[i].type));
    }
    if (failPrepare_) return nn::makeError(nn::ErrorStatus::GENERAL_FAILURE, "fake: refused");
    return inner_->prepareModel(model, options, prepared);
  }

 private:
  std::string name_ = "fake-partial";
  uint64_t seed_;
  bool failPrepare_;
  const nn::Device* inner_;
};

// A test model: its builder (plus referenced models) and inputs.
struct TestModel {
  std::string name;
  std::unique_ptr<ModelBuilder> mb;
  std::vector<std::unique_ptr<ModelBuilder>> refs;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::vector<uint32_t>> inputDims;  // passed in setInput's type when non-empty
  std::vector<int32_t> inputTypes;
  std::vector<size_t> outputBytes;
};

TestModel newModel(std::string name) {
  TestModel t;
  t.name = std::move(name);
  t.mb = std::make_unique<ModelBuilder>();
  return t;
}

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  return nntest::randomFloats(n, seed, -2.f, 2.f);
}

uint32_t addF32Const(ModelBuilder& mb, const std::vector<uint32_t>& dims, uint32_t seed) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return mb.addConstant<float>(kF32, dims, randomFloats(n, seed));
}

uint32_t binary(ModelBuilder& mb, int op, uint32_t a, uint32_t b, const std::vector<uint32_t>& dims) {
  const uint32_t act = mb.addInt32(0);
  const uint32_t out = mb.addOperand(kF32, dims);
  mb.addOperation(op, {a, b, act}, {out});
  return out;
}

// in -> ADD -> MUL -> CONV_2D -> RESHAPE -> ADD -> MUL -> out
TestModel chainModel() {
  TestModel t = newModel("chain");
  ModelBuilder& mb = *t.mb;
  const std::vector<uint32_t> d{1, 4, 4, 2};
  const uint32_t in = mb.addOperand(kF32, d);
  uint32_t x = binary(mb, ANEURALNETWORKS_ADD, in, addF32Const(mb, d, 1), d);
  x = binary(mb, ANEURALNETWORKS_MUL, x, addF32Const(mb, {2}, 2), d);
  const uint32_t filter = addF32Const(mb, {3, 2, 2, 2}, 3), bias = addF32Const(mb, {3}, 4);
  const uint32_t conv = mb.addOperand(kF32, {1, 4, 4, 3});
  mb.addOperation(ANEURALNETWORKS_CONV_2D,
                  {x, filter, bias, mb.addInt32(ANEURALNETWORKS_PADDING_SAME), mb.addInt32(1),
                   mb.addInt32(1), mb.addInt32(0)},
                  {conv});
  const uint32_t shape = mb.addConstant<int32_t>(kI32, {2}, {8, 6});
  const uint32_t r = mb.addOperand(kF32, {8, 6});
  mb.addOperation(ANEURALNETWORKS_RESHAPE, {conv, shape}, {r});
  x = binary(mb, ANEURALNETWORKS_ADD, r, addF32Const(mb, {6}, 5), {8, 6});
  x = binary(mb, ANEURALNETWORKS_MUL, x, addF32Const(mb, {8, 6}, 6), {8, 6});
  EXPECT_EQ(mb.finish({in}, {x}), ANEURALNETWORKS_NO_ERROR);
  t.inputs.push_back(nntest::bytesOf(randomFloats(32, 7)));
  t.inputDims.push_back({});
  t.inputTypes.push_back(kF32);
  t.outputBytes.push_back(48 * 4);
  return t;
}

// Two inputs, branches that join, and an output (b) that later operations also read.
TestModel diamondModel() {
  TestModel t = newModel("diamond");
  ModelBuilder& mb = *t.mb;
  const std::vector<uint32_t> d{2, 3, 4};
  const uint32_t in0 = mb.addOperand(kF32, d), in1 = mb.addOperand(kF32, d);
  const uint32_t a = binary(mb, ANEURALNETWORKS_ADD, in0, addF32Const(mb, d, 11), d);
  const uint32_t b = binary(mb, ANEURALNETWORKS_MUL, a, addF32Const(mb, {4}, 12), d);
  const uint32_t c = binary(mb, ANEURALNETWORKS_ADD, a, in1, d);
  const uint32_t e = binary(mb, ANEURALNETWORKS_ADD, b, c, d);
  const uint32_t f = binary(mb, ANEURALNETWORKS_MUL, in1, addF32Const(mb, d, 13), d);
  const uint32_t g = binary(mb, ANEURALNETWORKS_MUL, e, f, d);
  const uint32_t h = binary(mb, ANEURALNETWORKS_SUB, g, b, d);
  const uint32_t i = binary(mb, ANEURALNETWORKS_ADD, f, addF32Const(mb, {1}, 14), d);
  EXPECT_EQ(mb.finish({in0, in1}, {h, b, i}), ANEURALNETWORKS_NO_ERROR);
  for (uint32_t s : {21u, 22u}) {
    t.inputs.push_back(nntest::bytesOf(randomFloats(24, s)));
    t.inputDims.push_back({});
    t.inputTypes.push_back(kF32);
  }
  t.outputBytes = {96, 96, 96};
  return t;
}

// RESHAPE by a shape given at execution: its output, of unknown dimensions at compilation,
// crosses steps when the next operation runs elsewhere.
TestModel dynamicModel() {
  TestModel t = newModel("dynamic");
  ModelBuilder& mb = *t.mb;
  const uint32_t in = mb.addOperand(kF32, {4, 6});
  const uint32_t shape = mb.addOperand(kI32, {2});
  const uint32_t a = binary(mb, ANEURALNETWORKS_ADD, in, addF32Const(mb, {6}, 31), {4, 6});
  const uint32_t r = mb.addOperand(kF32, {0, 0});
  mb.addOperation(ANEURALNETWORKS_RESHAPE, {a, shape}, {r});
  const uint32_t b = binary(mb, ANEURALNETWORKS_MUL, r, addF32Const(mb, {1}, 32), {0, 0});
  const uint32_t c = binary(mb, ANEURALNETWORKS_ADD, b, addF32Const(mb, {1}, 33), {0, 0});
  const uint32_t e = binary(mb, ANEURALNETWORKS_SUB, c, addF32Const(mb, {1}, 34), {0, 0});
  EXPECT_EQ(mb.finish({in, shape}, {e}), ANEURALNETWORKS_NO_ERROR);
  t.inputs.push_back(nntest::bytesOf(randomFloats(24, 35)));
  t.inputDims.push_back({});
  t.inputTypes.push_back(kF32);
  t.inputs.push_back(nntest::bytesOf(std::vector<int32_t>{3, 8}));
  t.inputDims.push_back({});
  t.inputTypes.push_back(kI32);
  t.outputBytes.push_back(24 * 4);
  return t;
}

// x -> ADD -> IF(cond, then: ADD(x, x), else: MUL(x, k)) -> MUL -> out
TestModel ifModel(bool cond) {
  TestModel t = newModel(cond ? "if-then" : "if-else");
  const std::vector<uint32_t> d{1, 4};
  auto branch = [&](bool isThen) {
    auto m = std::make_unique<ModelBuilder>();
    const uint32_t x = m->addOperand(kF32, d);
    const uint32_t y = isThen ? binary(*m, ANEURALNETWORKS_ADD, x, x, d)
                              : binary(*m, ANEURALNETWORKS_MUL, x, addF32Const(*m, d, 41), d);
    EXPECT_EQ(m->finish({x}, {y}), ANEURALNETWORKS_NO_ERROR);
    return m;
  };
  t.refs.push_back(branch(true));
  t.refs.push_back(branch(false));
  ModelBuilder& mb = *t.mb;
  const uint32_t in = mb.addOperand(kF32, d);
  const uint32_t c = mb.addOperand(ANEURALNETWORKS_TENSOR_BOOL8, {1});
  const uint32_t a = binary(mb, ANEURALNETWORKS_ADD, in, addF32Const(mb, d, 42), d);
  const uint32_t thenOp = mb.addOperand(ANEURALNETWORKS_MODEL), elseOp = mb.addOperand(ANEURALNETWORKS_MODEL);
  ANeuralNetworksModel_setOperandValueFromModel(mb.get(), thenOp, t.refs[0]->get());
  ANeuralNetworksModel_setOperandValueFromModel(mb.get(), elseOp, t.refs[1]->get());
  const uint32_t y = mb.addOperand(kF32, d);
  mb.addOperation(ANEURALNETWORKS_IF, {c, thenOp, elseOp, a}, {y});
  const uint32_t out = binary(mb, ANEURALNETWORKS_MUL, y, addF32Const(mb, d, 43), d);
  const uint32_t out2 = binary(mb, ANEURALNETWORKS_SUB, a, addF32Const(mb, d, 44), d);
  EXPECT_EQ(mb.finish({in, c}, {out, out2}), ANEURALNETWORKS_NO_ERROR);
  t.inputs.push_back(nntest::bytesOf(randomFloats(4, 45)));
  t.inputDims.push_back({});
  t.inputTypes.push_back(kF32);
  t.inputs.push_back({static_cast<uint8_t>(cond)});
  t.inputDims.push_back({});
  t.inputTypes.push_back(ANEURALNETWORKS_TENSOR_BOOL8);
  t.outputBytes = {16, 16};
  return t;
}

// x -> ADD -> WHILE(i < n: i += 1, x *= k) -> ADD -> out
TestModel whileModel() {
  TestModel t = newModel("while");
  const std::vector<uint32_t> d{1, 4};
  {
    auto m = std::make_unique<ModelBuilder>();
    const uint32_t i = m->addOperand(kI32, {1}), x = m->addOperand(kF32, d), n = m->addOperand(kI32, {1});
    const uint32_t less = m->addOperand(ANEURALNETWORKS_TENSOR_BOOL8, {1});
    m->addOperation(ANEURALNETWORKS_LESS, {i, n}, {less});
    EXPECT_EQ(m->finish({i, x, n}, {less}), ANEURALNETWORKS_NO_ERROR);
    t.refs.push_back(std::move(m));
  }
  {
    auto m = std::make_unique<ModelBuilder>();
    const uint32_t i = m->addOperand(kI32, {1}), x = m->addOperand(kF32, d), n = m->addOperand(kI32, {1});
    const uint32_t one = m->addConstant<int32_t>(kI32, {1}, {1});
    const uint32_t i2 = m->addOperand(kI32, {1});
    m->addOperation(ANEURALNETWORKS_ADD, {i, one, m->addInt32(0)}, {i2});
    const uint32_t x2 = binary(*m, ANEURALNETWORKS_MUL, x, m->addConstant<float>(kF32, {1}, {1.5f}), d);
    EXPECT_EQ(m->finish({i, x, n}, {i2, x2}), ANEURALNETWORKS_NO_ERROR);
    t.refs.push_back(std::move(m));
  }
  ModelBuilder& mb = *t.mb;
  const uint32_t in = mb.addOperand(kF32, d);
  const uint32_t a = binary(mb, ANEURALNETWORKS_ADD, in, addF32Const(mb, d, 51), d);
  const uint32_t condOp = mb.addOperand(ANEURALNETWORKS_MODEL), bodyOp = mb.addOperand(ANEURALNETWORKS_MODEL);
  ANeuralNetworksModel_setOperandValueFromModel(mb.get(), condOp, t.refs[0]->get());
  ANeuralNetworksModel_setOperandValueFromModel(mb.get(), bodyOp, t.refs[1]->get());
  const uint32_t i0 = mb.addConstant<int32_t>(kI32, {1}, {0});
  const uint32_t n = mb.addConstant<int32_t>(kI32, {1}, {3});
  const uint32_t iOut = mb.addOperand(kI32, {1}), xOut = mb.addOperand(kF32, d);
  mb.addOperation(ANEURALNETWORKS_WHILE, {condOp, bodyOp, i0, a, n}, {iOut, xOut});
  const uint32_t out = binary(mb, ANEURALNETWORKS_ADD, xOut, addF32Const(mb, d, 52), d);
  EXPECT_EQ(mb.finish({in}, {out, iOut}), ANEURALNETWORKS_NO_ERROR);
  t.inputs.push_back(nntest::bytesOf(randomFloats(4, 53)));
  t.inputDims.push_back({});
  t.inputTypes.push_back(kF32);
  t.outputBytes = {16, 4};
  return t;
}

std::vector<TestModel> allModels() {
  std::vector<TestModel> v;
  v.push_back(chainModel());
  v.push_back(diamondModel());
  v.push_back(dynamicModel());
  v.push_back(ifModel(true));
  v.push_back(ifModel(false));
  v.push_back(whileModel());
  return v;
}

struct Outcome {
  int status = ANEURALNETWORKS_NO_ERROR;
  std::string message;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint32_t>> dims;
};

// One computation through the public execution API; outputBytes can be shrunk to provoke
// OUTPUT_INSUFFICIENT_SIZE.
Outcome run(nn::RuntimeCompilation* compilation, const TestModel& t,
            const std::vector<size_t>& outputBytes, ANeuralNetworksExecution* reuse = nullptr) {
  Outcome o;
  ANeuralNetworksExecution* e = reuse;
  if (e == nullptr)
    ANeuralNetworksExecution_create(reinterpret_cast<ANeuralNetworksCompilation*>(compilation), &e);
  for (size_t i = 0; reuse == nullptr && i < t.inputs.size(); ++i) {
    EXPECT_EQ(ANeuralNetworksExecution_setInput(e, i, nullptr, t.inputs[i].data(), t.inputs[i].size()),
              ANEURALNETWORKS_NO_ERROR) << ANNLinux_getLastErrorMessage();
  }
  o.outputs.resize(outputBytes.size());
  for (size_t i = 0; i < outputBytes.size(); ++i) {
    o.outputs[i].assign(outputBytes[i], 0xAB);
    if (reuse == nullptr) {
      EXPECT_EQ(ANeuralNetworksExecution_setOutput(e, i, nullptr, o.outputs[i].data(), outputBytes[i]),
                  ANEURALNETWORKS_NO_ERROR) << ANNLinux_getLastErrorMessage();
    }
  }
  o.status = ANeuralNetworksExecution_compute(e);
  o.message = ANNLinux_getLastErrorMessage();
  if (o.status == ANEURALNETWORKS_NO_ERROR || o.status == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) {
    o.dims.resize(outputBytes.size());
    for (size_t i = 0; i < outputBytes.size(); ++i) {
      uint32_t rank = 0;
      ANeuralNetworksExecution_getOutputOperandRank(e, i, &rank);
      o.dims[i].resize(rank);
      if (rank) ANeuralNetworksExecution_getOutputOperandDimensions(e, i, o.dims[i].data());
    }
  }
  if (reuse == nullptr) ANeuralNetworksExecution_free(e);
  return o;
}

const nn::RuntimeModel* runtimeModel(const TestModel& t) { return nn::fromHandle(t.mb->get()); }

Outcome wholeOnReference(const TestModel& t) {
  nn::RuntimeCompilation c(runtimeModel(t), {nn::cpuReferenceDevice()}, true);
  EXPECT_TRUE(c.finish().ok());
  return run(&c, t, t.outputBytes);
}


TEST(Partition, RandomSplitsMatchWholeModel) {
  constexpr int kSeeds = 300;
  std::vector<TestModel> models = allModels();
  int compilations = 0, split = 0;
  for (const TestModel& t : models) {
    ASSERT_EQ(t.mb->status(), ANEURALNETWORKS_NO_ERROR) << t.name;
    const Outcome expected = wholeOnReference(t);
    ASSERT_EQ(expected.status, ANEURALNETWORKS_NO_ERROR) << t.name << ": " << expected.message;
    int modelSplit = 0;
    for (int seed = 0; seed < kSeeds; ++seed) {
      FakePartialDevice fake(seed);
      nn::RuntimeCompilation c(runtimeModel(t), {&fake, nn::cpuReferenceDevice()}, false);
      const nn::ApiResult r = c.finish();
      ASSERT_TRUE(r.ok()) << t.name << " seed " << seed << ": " << r.message();
      ++compilations;
      if (c.stepCount() > 1) {
        ++modelSplit;
        EXPECT_EQ(c.device(), nullptr);
      }
      // Every operation runs where the plan says, and that device claims it.
      const nn::Model& m = *c.canonicalModel();
      for (uint32_t op = 0; op < m.main.operations.size(); ++op) {
        const nn::Device* d = nullptr;
        ASSERT_TRUE(c.operationDevice(op, &d).ok());
        if (d == &fake) EXPECT_TRUE(fake.claims(m, m.main.operations[op]));
        else EXPECT_EQ(d, nn::cpuReferenceDevice());
      }
      // Twice on one reusable execution (the second run reuses the per-execution buffers).
      ANeuralNetworksExecution* e = nullptr;
      ANeuralNetworksExecution_create(reinterpret_cast<ANeuralNetworksCompilation*>(&c), &e);
      ANeuralNetworksExecution_setReusable(e, true);
      std::vector<std::vector<uint8_t>> outs(t.outputBytes.size());
      for (size_t i = 0; i < t.inputs.size(); ++i)
        ANeuralNetworksExecution_setInput(e, i, nullptr, t.inputs[i].data(), t.inputs[i].size());
      for (size_t i = 0; i < outs.size(); ++i) {
        outs[i].assign(t.outputBytes[i], 0);
        ANeuralNetworksExecution_setOutput(e, i, nullptr, outs[i].data(), outs[i].size());
      }
      for (int rep = 0; rep < 2; ++rep) {
        for (auto& o : outs) std::fill(o.begin(), o.end(), 0xCD);
        ASSERT_EQ(ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR)
            << t.name << " seed " << seed << ": " << ANNLinux_getLastErrorMessage();
        for (size_t i = 0; i < outs.size(); ++i) {
          EXPECT_EQ(outs[i], expected.outputs[i]) << t.name << " seed " << seed << " output " << i;
          uint32_t rank = 0;
          ANeuralNetworksExecution_getOutputOperandRank(e, i, &rank);
          std::vector<uint32_t> dims(rank);
          if (rank) ANeuralNetworksExecution_getOutputOperandDimensions(e, i, dims.data());
          EXPECT_EQ(dims, expected.dims[i]) << t.name << " seed " << seed << " output " << i;
        }
      }
      ANeuralNetworksExecution_free(e);
    }
    split += modelSplit;
    std::printf("[partition] %-8s %d of %d seeds split\n", t.name.c_str(), modelSplit, kSeeds);
    // Each model has several operations of different content: most seeds must split it.
    EXPECT_GT(modelSplit, kSeeds / 2) << t.name;
  }
  std::printf("[partition] %zu models x %d seeds: %d compilations, %d split\n", models.size(),
              kSeeds, compilations, split);
}

// A main output that is too small: OUTPUT_INSUFFICIENT_SIZE with the computed shape, also
// when the model is split; a big enough buffer then works.
TEST(Partition, DynamicOutputInsufficientWhenSplit) {
  TestModel t = dynamicModel();
  int tested = 0;
  for (int seed = 0; seed < 50; ++seed) {
    FakePartialDevice fake(seed);
    nn::RuntimeCompilation c(runtimeModel(t), {&fake, nn::cpuReferenceDevice()}, false);
    ASSERT_TRUE(c.finish().ok());
    if (c.stepCount() < 2) continue;
    ++tested;
    const Outcome small = run(&c, t, {8});
    EXPECT_EQ(small.status, ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE) << small.message;
    ASSERT_EQ(small.dims.size(), 1u);
    EXPECT_EQ(small.dims[0], (std::vector<uint32_t>{3, 8}));
    const Outcome ok = run(&c, t, t.outputBytes);
    EXPECT_EQ(ok.status, ANEURALNETWORKS_NO_ERROR) << ok.message;
  }
  EXPECT_GT(tested, 10);
}

TEST(Partition, ExplicitDevicesNamesFirstUnsupportedOperation) {
  TestModel t = chainModel();
  for (int seed = 0; seed < 20; ++seed) {
    FakePartialDevice fake(seed);
    const nn::Model& m = *runtimeModel(t)->model();
    int firstUnclaimed = -1;
    for (size_t i = 0; i < m.main.operations.size() && firstUnclaimed < 0; ++i)
      if (!fake.claims(m, m.main.operations[i])) firstUnclaimed = static_cast<int>(i);
    nn::RuntimeCompilation c(runtimeModel(t), {&fake}, true);
    const nn::ApiResult r = c.finish();
    if (firstUnclaimed < 0) {
      EXPECT_TRUE(r.ok());
      continue;
    }
    EXPECT_EQ(r.code(), ANEURALNETWORKS_BAD_DATA);
    const std::string want = "operation #" + std::to_string(firstUnclaimed) + " (" +
                             nn::toString(m.main.operations[firstUnclaimed].type) + ")";
    EXPECT_NE(r.message().find(want), std::string::npos) << r.message() << " / want " << want;
    EXPECT_NE(r.message().find("fake-partial"), std::string::npos) << r.message();
    EXPECT_FALSE(c.isValid());
  }
}

TEST(Partition, FailedStepPrepareFallsBackToCpu) {
  TestModel t = diamondModel();
  const Outcome expected = wholeOnReference(t);
  int fellBack = 0;
  for (int seed = 0; seed < 20; ++seed) {
    FakePartialDevice fake(seed, /*failPrepare=*/true);
    nn::RuntimeCompilation automatic(runtimeModel(t), {&fake, nn::cpuReferenceDevice()}, false);
    const nn::ApiResult r = automatic.finish();
    ASSERT_TRUE(r.ok()) << r.message();
    for (uint32_t s = 0; s < automatic.stepCount(); ++s) {
      const nn::Device* d = nullptr;
      ASSERT_TRUE(automatic.stepDevice(s, &d).ok());
      EXPECT_EQ(d, nn::cpuReferenceDevice()) << "seed " << seed << " step " << s;
    }
    fellBack += automatic.stepCount() > 1;
    const Outcome got = run(&automatic, t, t.outputBytes);
    ASSERT_EQ(got.status, ANEURALNETWORKS_NO_ERROR) << got.message;
    EXPECT_EQ(got.outputs, expected.outputs);
    // createForDevices: no fallback, the failure is reported with the device's name.
    nn::RuntimeCompilation explicitDevices(runtimeModel(t), {&fake, nn::cpuReferenceDevice()},
                                           true);
    const nn::ApiResult e = explicitDevices.finish();
    const nn::Model& m = *runtimeModel(t)->model();
    bool anyClaimed = false;
    for (const nn::Operation& op : m.main.operations) anyClaimed |= fake.claims(m, op);
    if (!anyClaimed) continue;  // all on the reference device: nothing fails
    EXPECT_FALSE(e.ok());
    EXPECT_NE(e.message().find("fake-partial"), std::string::npos) << e.message();
  }
  EXPECT_GT(fellBack, 5);
}

// Executions of one split compilation on several threads: per-execution state only.
TEST(PartitionConcurrency, SplitCompilationManyThreads) {
  std::vector<TestModel> models;
  models.push_back(diamondModel());
  models.push_back(dynamicModel());
  for (const TestModel& t : models) {
    const Outcome expected = wholeOnReference(t);
    int seed = 0;
    std::unique_ptr<FakePartialDevice> fake;
    std::unique_ptr<nn::RuntimeCompilation> c;
    do {
      fake = std::make_unique<FakePartialDevice>(seed++);
      c = std::make_unique<nn::RuntimeCompilation>(
          runtimeModel(t), std::vector<const nn::Device*>{fake.get(), nn::cpuReferenceDevice()},
          false);
      ASSERT_TRUE(c->finish().ok());
    } while (c->stepCount() < 3 && seed < 100);
    ASSERT_GE(c->stepCount(), 2u);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int th = 0; th < 4; ++th) {
      threads.emplace_back([&] {
        for (int i = 0; i < 50; ++i) {
          const Outcome o = run(c.get(), t, t.outputBytes);
          if (o.status != ANEURALNETWORKS_NO_ERROR || o.outputs != expected.outputs) ++failures;
        }
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0) << t.name;
  }
}

}  // namespace
