// Device "test-extension" of libnnapi_test_faulty.so: an example vendor extension driver
// (docs/drivers.md, "Vendor extensions").
//
// Extension "com.example.nnapi_test":
//   operand type 0  a tensor of 4-byte elements holding float32 values
//   operation 0     out = in * scale + bias, elementwise; `in` TENSOR_FLOAT32 or operand
//                   type 0, `out` TENSOR_FLOAT32 of the same shape; bias 1, scale 2 unless
//                   `in` (of type 0) carries 4 bytes of extension data: a float32 scale
//   attribute 0     "fail": a compilation (execution) carrying it fails to prepare (compute)
//   attribute 1     "bias": 4 bytes, a float32 replacing the bias 1 (an execution attribute
//                   wins over a compilation one)
// The device claims only operation 0 and refuses to prepare a model with anything else, so it
// proves the partitioner sends it only its own operations. It computes with a tiny
// interpreter of its own (the CPU driver knows no extension).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {
namespace {

constexpr const char* kTestExtension = "com.example.nnapi_test";
constexpr uint16_t kTestTensorType = 0;
constexpr uint16_t kTestOperation = 0;
constexpr uint16_t kFailAttribute = 0;
constexpr uint16_t kBiasAttribute = 1;

bool isTestExtensionCode(int32_t code, uint16_t within) {
  return isExtensionCode(code) && codeWithinExtension(code) == within &&
         extensionName(extensionPrefixOf(code)) == kTestExtension;
}

// Why operation `op` of `sg` is not one this device runs; empty when it is.
std::string whyNotOurs(const Subgraph& sg, const Operation& op) {
  if (!isTestExtensionCode(static_cast<int32_t>(op.type), kTestOperation))
    return "not an operation of extension com.example.nnapi_test";
  if (op.inputs.size() != 1 || op.outputs.size() != 1) return "expects 1 input and 1 output";
  const Operand& in = sg.operands[op.inputs[0]];
  const Operand& out = sg.operands[op.outputs[0]];
  if (in.type != OperandType::TENSOR_FLOAT32 &&
      !isTestExtensionCode(static_cast<int32_t>(in.type), kTestTensorType))
    return "input must be TENSOR_FLOAT32 or com.example.nnapi_test:0";
  if (out.type != OperandType::TENSOR_FLOAT32) return "output must be TENSOR_FLOAT32";
  if (in.lifetime == Lifetime::NO_VALUE) return "input has no value";
  return std::string();
}

// The attribute (kTestExtension, code) in `list`, or null.
const ExtensionAttribute* findAttribute(const std::vector<ExtensionAttribute>* list,
                                        uint16_t code) {
  if (list == nullptr) return nullptr;
  for (const ExtensionAttribute& a : *list)
    if (a.extension == kTestExtension && a.code == code) return &a;
  return nullptr;
}

class ExtensionPreparedModel : public PreparedModel {
 public:
  ExtensionPreparedModel(std::shared_ptr<const Model> model, float bias)
      : model_(std::move(model)), bias_(bias) {}

  Status execute(const Request& request, const ExecuteOptions& options, ExecutionState*,
                 std::vector<OutputShape>* outputShapes, Timing*) const override {
    const Subgraph& sg = model_->main;
    outputShapes->assign(request.outputs.size(), OutputShape());
    if (findAttribute(options.extensionAttributes, kFailAttribute) != nullptr)
      return Status(ErrorStatus::GENERAL_FAILURE,
                    "test-extension: execution attribute 'fail' received");
    float bias = bias_;
    if (const ExtensionAttribute* a = findAttribute(options.extensionAttributes, kBiasAttribute)) {
      if (a->data.size() != sizeof(float))
        return Status(ErrorStatus::INVALID_ARGUMENT, "test-extension: bias attribute size");
      memcpy(&bias, a->data.data(), sizeof(float));
    }
    if (request.inputs.size() != sg.inputIndexes.size() ||
        request.outputs.size() != sg.outputIndexes.size())
      return Status(ErrorStatus::INVALID_ARGUMENT, "test-extension: request does not match");
    // Each operand's values and shape as the operations see them.
    struct Value {
      const float* data = nullptr;
      Dims dims;
    };
    std::vector<Value> values(sg.operands.size());
    std::vector<std::vector<float>> temporaries(sg.operands.size());
    for (size_t i = 0; i < sg.operands.size(); ++i) {
      const Operand& o = sg.operands[i];
      values[i].dims = o.dimensions;
      const uint8_t* base = nullptr;
      if (o.lifetime == Lifetime::CONSTANT_COPY) {
        base = model_->operandValues.data() + o.location.offset;
      } else if (o.lifetime == Lifetime::CONSTANT_REFERENCE) {
        base = model_->pools[o.location.poolIndex]->data() + o.location.offset;
      }
      values[i].data = reinterpret_cast<const float*>(base);
    }
    for (size_t k = 0; k < request.inputs.size(); ++k) {
      const RequestArgument& arg = request.inputs[k];
      Value& v = values[sg.inputIndexes[k]];
      if (!arg.dimensions.empty()) v.dims = arg.dimensions;
      uint8_t* p = address(request, arg);
      if (p == nullptr || elementCount(v.dims) * 4 > arg.location.length)
        return Status(ErrorStatus::INVALID_ARGUMENT,
                      formatString("test-extension: input %zu is missing or too short", k));
      v.data = reinterpret_cast<const float*>(p);
    }
    for (const Operation& op : sg.operations) {
      const Value& in = values[op.inputs[0]];
      const uint32_t outIndex = op.outputs[0];
      const uint64_t n = elementCount(in.dims);
      if (in.data == nullptr && n > 0)
        return Status(ErrorStatus::GENERAL_FAILURE, "test-extension: input has no data");
      float* out = nullptr;
      const auto pos = std::find(sg.outputIndexes.begin(), sg.outputIndexes.end(), outIndex);
      if (pos != sg.outputIndexes.end()) {
        const size_t k = pos - sg.outputIndexes.begin();
        const RequestArgument& arg = request.outputs[k];
        (*outputShapes)[k].dimensions = in.dims;
        if (n * 4 > arg.location.length) {
          (*outputShapes)[k].isSufficient = false;
          return Status(ErrorStatus::OUTPUT_INSUFFICIENT_SIZE,
                        formatString("test-extension: output %zu needs %llu bytes", k,
                                     static_cast<unsigned long long>(n * 4)));
        }
        out = reinterpret_cast<float*>(address(request, arg));
        if (out == nullptr && n > 0)
          return Status(ErrorStatus::INVALID_ARGUMENT, "test-extension: bad output buffer");
      } else {
        temporaries[outIndex].assign(n, 0.f);
        out = temporaries[outIndex].data();
      }
      float scale = 2.f;
      const std::vector<uint8_t>& data = sg.operands[op.inputs[0]].extensionData;
      if (data.size() == sizeof(float)) memcpy(&scale, data.data(), sizeof(float));
      for (uint64_t i = 0; i < n; ++i) out[i] = in.data[i] * scale + bias;
      values[outIndex].data = out;
      values[outIndex].dims = in.dims;
    }
    return kOk;
  }

 private:
  static uint8_t* address(const Request& request, const RequestArgument& arg) {
    if (arg.location.pointer != nullptr) return static_cast<uint8_t*>(arg.location.pointer);
    if (arg.location.poolIndex >= request.pools.size()) return nullptr;
    const Memory* pool = request.pools[arg.location.poolIndex];
    if (pool == nullptr || !pool->contains(arg.location.offset, arg.location.length))
      return nullptr;
    return pool->data() + arg.location.offset;
  }

  std::shared_ptr<const Model> model_;
  float bias_;
};

class ExtensionDevice : public Device {
 public:
  const std::string& name() const override { return name_; }
  const std::string& version() const override { return version_; }
  int32_t type() const override { return 4; }  // ANEURALNETWORKS_DEVICE_ACCELERATOR
  int64_t featureLevel() const override { return kFeatureLevel8; }
  const std::vector<Extension>& extensions() const override { return extensions_; }

  Status getSupportedOperations(const Model& model, std::vector<bool>* supported,
                                std::vector<std::string>* reasons) const override {
    const Subgraph& sg = model.main;
    supported->assign(sg.operations.size(), false);
    if (reasons) reasons->assign(sg.operations.size(), std::string());
    for (size_t i = 0; i < sg.operations.size(); ++i) {
      const std::string why = whyNotOurs(sg, sg.operations[i]);
      (*supported)[i] = why.empty();
      if (!why.empty() && reasons)
        (*reasons)[i] = formatString("%s (operation #%zu): %s",
                                     operationName(sg.operations[i].type).c_str(), i, why.c_str());
    }
    return kOk;
  }

  Status prepareModel(const std::shared_ptr<const Model>& model, const PrepareOptions& options,
                      std::shared_ptr<PreparedModel>* prepared) const override {
    const Subgraph& sg = model->main;
    for (size_t i = 0; i < sg.operations.size(); ++i) {
      const std::string why = whyNotOurs(sg, sg.operations[i]);
      if (!why.empty())
        return makeError(ErrorStatus::INVALID_ARGUMENT,
                         "test-extension: operation #%zu (%s) must not be sent here: %s", i,
                         operationName(sg.operations[i].type).c_str(), why.c_str());
    }
    if (findAttribute(&options.extensionAttributes, kFailAttribute) != nullptr)
      return Status(ErrorStatus::GENERAL_FAILURE,
                    "test-extension: compilation attribute 'fail' received");
    float bias = 1.f;
    if (const ExtensionAttribute* a = findAttribute(&options.extensionAttributes, kBiasAttribute)) {
      if (a->data.size() != sizeof(float))
        return Status(ErrorStatus::INVALID_ARGUMENT, "test-extension: bias attribute size");
      memcpy(&bias, a->data.data(), sizeof(float));
    }
    *prepared = std::make_shared<ExtensionPreparedModel>(model, bias);
    return kOk;
  }

 private:
  std::string name_ = "test-extension";
  std::string version_ = "test-1";
  std::vector<Extension> extensions_{
      Extension{kTestExtension, {ExtensionOperandTypeInfo{kTestTensorType, true, 4}}}};
};

const Device* testExtensionDevice() {
  static const ExtensionDevice device;
  return &device;
}

}  // namespace
}  // namespace nn
