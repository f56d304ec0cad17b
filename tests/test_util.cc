#include "test_util.h"

namespace nntest {

RunResult runModel(const ModelBuilder& model, const std::vector<std::vector<uint8_t>>& inputs,
                   const std::vector<size_t>& outputSizes, const char* deviceName,
                   const std::vector<const ANeuralNetworksOperandType*>& inputTypes) {
  RunResult result;
  auto fail = [&](const char* step, int code) {
    result.status = code;
    result.step = step;
    return result;
  };
  ANeuralNetworksCompilation* compilation = nullptr;
  int r;
  if (deviceName != nullptr) {
    uint32_t count = 0;
    ANeuralNetworks_getDeviceCount(&count);
    const ANeuralNetworksDevice* device = nullptr;
    for (uint32_t i = 0; i < count; ++i) {
      ANeuralNetworksDevice* d = nullptr;
      const char* name = nullptr;
      ANeuralNetworks_getDevice(i, &d);
      ANeuralNetworksDevice_getName(d, &name);
      if (name && std::string(name) == deviceName) device = d;
    }
    if (device == nullptr) return fail("find device", ANEURALNETWORKS_BAD_DATA);
    r = ANeuralNetworksCompilation_createForDevices(model.get(), &device, 1, &compilation);
  } else {
    r = ANeuralNetworksCompilation_create(model.get(), &compilation);
  }
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("Compilation_create", r);
  std::unique_ptr<ANeuralNetworksCompilation, void (*)(ANeuralNetworksCompilation*)> compGuard(
      compilation, ANeuralNetworksCompilation_free);
  r = ANeuralNetworksCompilation_finish(compilation);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("Compilation_finish", r);
  ANeuralNetworksExecution* execution = nullptr;
  r = ANeuralNetworksExecution_create(compilation, &execution);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("Execution_create", r);
  std::unique_ptr<ANeuralNetworksExecution, void (*)(ANeuralNetworksExecution*)> execGuard(
      execution, ANeuralNetworksExecution_free);
  for (size_t i = 0; i < inputs.size(); ++i) {
    r = ANeuralNetworksExecution_setInput(execution, i,
                                          i < inputTypes.size() ? inputTypes[i] : nullptr,
                                          inputs[i].empty() ? nullptr : inputs[i].data(),
                                          inputs[i].size());
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("Execution_setInput", r);
  }
  result.outputs.resize(outputSizes.size());
  for (size_t i = 0; i < outputSizes.size(); ++i) {
    result.outputs[i].resize(std::max<size_t>(outputSizes[i], 1));
    r = ANeuralNetworksExecution_setOutput(execution, i, nullptr, result.outputs[i].data(),
                                           result.outputs[i].size());
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("Execution_setOutput", r);
  }
  r = ANeuralNetworksExecution_compute(execution);
  if (r != ANEURALNETWORKS_NO_ERROR) return fail("Execution_compute", r);
  result.outputDims.resize(outputSizes.size());
  for (size_t i = 0; i < outputSizes.size(); ++i) {
    result.outputs[i].resize(outputSizes[i]);
    uint32_t rank = 0;
    r = ANeuralNetworksExecution_getOutputOperandRank(execution, i, &rank);
    if (r != ANEURALNETWORKS_NO_ERROR) return fail("getOutputOperandRank", r);
    result.outputDims[i].resize(rank);
    if (rank > 0) {
      r = ANeuralNetworksExecution_getOutputOperandDimensions(execution, i,
                                                              result.outputDims[i].data());
      if (r != ANEURALNETWORKS_NO_ERROR) return fail("getOutputOperandDimensions", r);
    }
  }
  return result;
}

const ANeuralNetworksDevice* findDevice(const std::string& name) {
  uint32_t n = 0;
  if (ANeuralNetworks_getDeviceCount(&n) != ANEURALNETWORKS_NO_ERROR) return nullptr;
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice* d = nullptr;
    const char* s = nullptr;
    if (ANeuralNetworks_getDevice(i, &d) != ANEURALNETWORKS_NO_ERROR ||
        ANeuralNetworksDevice_getName(d, &s) != ANEURALNETWORKS_NO_ERROR)
      continue;
    if (s != nullptr && name == s) return d;
  }
  return nullptr;
}

}  // namespace nntest
