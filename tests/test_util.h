// Helpers for tests that build models through the public C API.
#pragma once

#include <android/NeuralNetworks.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace nntest {

// n floats uniform in [lo, hi) from a fixed seed.
inline std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

// Owns an ANeuralNetworksModel and the constant buffers it references.
class ModelBuilder {
 public:
  ModelBuilder() { ANeuralNetworksModel_create(&model_); }
  ~ModelBuilder() { ANeuralNetworksModel_free(model_); }
  ModelBuilder(const ModelBuilder&) = delete;
  ModelBuilder& operator=(const ModelBuilder&) = delete;

  ANeuralNetworksModel* get() const { return model_; }

  // Returns the operand index; records the first failing call's code in status().
  uint32_t addOperand(int32_t type, const std::vector<uint32_t>& dims = {}, float scale = 0.f,
                      int32_t zeroPoint = 0) {
    ANeuralNetworksOperandType t{type, static_cast<uint32_t>(dims.size()),
                                 dims.empty() ? nullptr : dims.data(), scale, zeroPoint};
    record(ANeuralNetworksModel_addOperand(model_, &t));
    return next_++;
  }
  template <typename T>
  uint32_t addConstant(int32_t type, const std::vector<uint32_t>& dims, const std::vector<T>& values,
                       float scale = 0.f, int32_t zeroPoint = 0) {
    const uint32_t index = addOperand(type, dims, scale, zeroPoint);
    setValue(index, values);
    return index;
  }
  template <typename T>
  void setValue(uint32_t index, const std::vector<T>& values) {
    buffers_.push_back(std::make_unique<std::vector<uint8_t>>(bytesOf(values)));
    const auto& b = *buffers_.back();
    record(ANeuralNetworksModel_setOperandValue(model_, index, b.empty() ? nullptr : b.data(),
                                                b.size()));
  }
  uint32_t addInt32(int32_t v) { return addConstant<int32_t>(ANEURALNETWORKS_INT32, {}, {v}); }
  uint32_t addFloat32(float v) { return addConstant<float>(ANEURALNETWORKS_FLOAT32, {}, {v}); }
  uint32_t addBool(bool v) { return addConstant<uint8_t>(ANEURALNETWORKS_BOOL, {}, {uint8_t(v)}); }
  // An omitted optional operand.
  uint32_t addNoValue(int32_t type, const std::vector<uint32_t>& dims = {}) {
    const uint32_t index = addOperand(type, dims);
    record(ANeuralNetworksModel_setOperandValue(model_, index, nullptr, 0));
    return index;
  }
  int addOperation(int32_t type, const std::vector<uint32_t>& inputs,
                   const std::vector<uint32_t>& outputs) {
    const int r = ANeuralNetworksModel_addOperation(model_, type, inputs.size(), inputs.data(),
                                                    outputs.size(), outputs.data());
    record(r);
    return r;
  }
  // identifyInputsAndOutputs + finish. Returns the first error seen while building, if any.
  int finish(const std::vector<uint32_t>& inputs, const std::vector<uint32_t>& outputs,
             bool relaxed = false) {
    record(ANeuralNetworksModel_identifyInputsAndOutputs(model_, inputs.size(), inputs.data(),
                                                         outputs.size(), outputs.data()));
    if (relaxed) record(ANeuralNetworksModel_relaxComputationFloat32toFloat16(model_, true));
    if (status_ != ANEURALNETWORKS_NO_ERROR) return status_;
    record(ANeuralNetworksModel_finish(model_));
    return status_;
  }
  int status() const { return status_; }

 private:
  void record(int r) {
    if (status_ == ANEURALNETWORKS_NO_ERROR) status_ = r;
  }
  ANeuralNetworksModel* model_ = nullptr;
  uint32_t next_ = 0;
  int status_ = ANEURALNETWORKS_NO_ERROR;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> buffers_;
};

struct RunResult {
  int status = ANEURALNETWORKS_NO_ERROR;  // first failing step's code
  std::string step;                        // which call failed
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint32_t>> outputDims;
};

// Compiles (on `deviceName` when given, e.g. "nnapi-cpu-reference") and runs once.
// outputSizes are the byte sizes of the output buffers. inputTypes[i], where given and not
// null, is passed with input i (its full shape when the model leaves dimensions unknown).
RunResult runModel(const ModelBuilder& model, const std::vector<std::vector<uint8_t>>& inputs,
                   const std::vector<size_t>& outputSizes, const char* deviceName = nullptr,
                   const std::vector<const ANeuralNetworksOperandType*>& inputTypes = {});

// The device of that name (ANeuralNetworksDevice_getName), or nullptr.
const ANeuralNetworksDevice* findDevice(const std::string& name);

}  // namespace nntest
