// C entry points: ANeuralNetworksModel_*.
#include <new>

#include "runtime/api_util.h"
#include "runtime/memory.h"
#include "runtime/model.h"
#include "runtime/device_manager.h"
#include "hal/device.h"
#include "runtime/extension_lookup.h"

using namespace nn;

extern "C" {

int ANeuralNetworksModel_create(ANeuralNetworksModel** model) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_create";
    NN_API_CHECK_NULL(fn, model);
    RuntimeModel* m = new (std::nothrow) RuntimeModel();
    *model = reinterpret_cast<ANeuralNetworksModel*>(m);
    if (m == nullptr) return apiError(ANEURALNETWORKS_OUT_OF_MEMORY, "%s: out of memory", fn);
    return apiOk();
  });
}

void ANeuralNetworksModel_free(ANeuralNetworksModel* model) { delete fromHandle(model); }

int ANeuralNetworksModel_finish(ANeuralNetworksModel* model) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_finish", model);
    return fromHandle(model)->finish();
  });
}

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel* model,
                                    const ANeuralNetworksOperandType* type) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_addOperand", model);
    NN_API_CHECK_NULL("ANeuralNetworksModel_addOperand", type);
    return fromHandle(model)->addOperand(*type);
  });
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel* model, int32_t index,
                                         const void* buffer, size_t length) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_setOperandValue", model);
    return fromHandle(model)->setOperandValue(index, buffer, length);
  });
}

int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
    ANeuralNetworksModel* model, int32_t index,
    const ANeuralNetworksSymmPerChannelQuantParams* channelQuant) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams";
    NN_API_CHECK_NULL(fn, model);
    NN_API_CHECK_NULL(fn, channelQuant);
    return fromHandle(model)->setOperandSymmPerChannelQuantParams(index, *channelQuant);
  });
}

int ANeuralNetworksModel_setOperandValueFromMemory(ANeuralNetworksModel* model, int32_t index,
                                                   const ANeuralNetworksMemory* memory,
                                                   size_t offset, size_t length) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_setOperandValueFromMemory", model);
    NN_API_CHECK_NULL("ANeuralNetworksModel_setOperandValueFromMemory", memory);
    return fromHandle(model)->setOperandValueFromMemory(index, fromHandle(memory), offset, length);
  });
}

int ANeuralNetworksModel_setOperandValueFromModel(ANeuralNetworksModel* model, int32_t index,
                                                  const ANeuralNetworksModel* value) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_setOperandValueFromModel", model);
    NN_API_CHECK_NULL("ANeuralNetworksModel_setOperandValueFromModel", value);
    return fromHandle(model)->setOperandValueFromModel(index, fromHandle(value));
  });
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel* model, ANeuralNetworksOperationType type,
                                      uint32_t inputCount, const uint32_t* inputs,
                                      uint32_t outputCount, const uint32_t* outputs) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_addOperation", model);
    NN_API_CHECK_NULL("ANeuralNetworksModel_addOperation", inputs);
    NN_API_CHECK_NULL("ANeuralNetworksModel_addOperation", outputs);
    return fromHandle(model)->addOperation(type, inputCount, inputs, outputCount, outputs);
  });
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel* model, uint32_t inputCount,
                                                  const uint32_t* inputs, uint32_t outputCount,
                                                  const uint32_t* outputs) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_identifyInputsAndOutputs", model);
    NN_API_CHECK_NULL("ANeuralNetworksModel_identifyInputsAndOutputs", inputs);
    NN_API_CHECK_NULL("ANeuralNetworksModel_identifyInputsAndOutputs", outputs);
    return fromHandle(model)->identifyInputsAndOutputs(inputCount, inputs, outputCount, outputs);
  });
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(ANeuralNetworksModel* model, bool allow) {
  return apiCall([&]() -> ApiResult {
    NN_API_CHECK_NULL("ANeuralNetworksModel_relaxComputationFloat32toFloat16", model);
    return fromHandle(model)->relaxComputationFloat32toFloat16(allow);
  });
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(
    const ANeuralNetworksModel* model, const ANeuralNetworksDevice* const* devices,
    uint32_t numDevices, bool* supportedOps) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_getSupportedOperationsForDevices";
    NN_API_CHECK_NULL(fn, model);
    NN_API_CHECK_NULL(fn, devices);
    NN_API_CHECK_NULL(fn, supportedOps);
    if (numDevices == 0) return apiError(ANEURALNETWORKS_BAD_DATA, "%s: numDevices is 0", fn);
    const RuntimeModel* m = fromHandle(model);
    if (!m->isValid()) {
      return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the model is not finished or is invalid", fn);
    }
    for (uint32_t i = 0; i < numDevices; ++i) {
      NN_API_CHECK_NULL(fn, devices[i]);
      if (!isKnownDevice(fromHandle(devices[i]))) {
        return apiError(ANEURALNETWORKS_BAD_DATA,
                        "%s: devices[%u] is not a device handle of this runtime", fn, i);
      }
      for (uint32_t j = 0; j < i; ++j) {
        if (devices[j] == devices[i])
          return apiError(ANEURALNETWORKS_BAD_DATA, "%s: device %u is listed twice", fn, i);
      }
    }
    const size_t count = m->operationCount();
    for (size_t k = 0; k < count; ++k) supportedOps[k] = false;
    for (uint32_t i = 0; i < numDevices; ++i) {
      std::vector<bool> supported;
      // A device that cannot check the model supports none of it (supportedOps stays false).
      (void)fromHandle(devices[i])->getSupportedOperations(*m->model(), &supported, nullptr);
      for (size_t k = 0; k < count && k < supported.size(); ++k)
        supportedOps[k] = supportedOps[k] || supported[k];
    }
    return apiOk();
  });
}

}  // extern "C"

namespace {

// Shared by getExtensionOperandType and getExtensionOperationType: same codes.
ApiResult extensionCode(const char* fn, const char* extensionName, uint16_t code,
                        int32_t* out) {
  Result<uint16_t> prefix = prefixOfDeclaredExtension(extensionName);
  if (!prefix.ok())
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s", fn, prefix.status().message().c_str());
  *out = makeExtensionCode(prefix.value(), code);
  return apiOk();
}

}  // namespace

extern "C" {

int ANeuralNetworksModel_getExtensionOperandType(ANeuralNetworksModel* model,
                                                 const char* extensionName,
                                                 uint16_t operandCodeWithinExtension,
                                                 int32_t* type) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_getExtensionOperandType";
    NN_API_CHECK_NULL(fn, model);
    NN_API_CHECK_NULL(fn, extensionName);
    NN_API_CHECK_NULL(fn, type);
    return extensionCode(fn, extensionName, operandCodeWithinExtension, type);
  });
}

int ANeuralNetworksModel_getExtensionOperationType(ANeuralNetworksModel* model,
                                                   const char* extensionName,
                                                   uint16_t operationCodeWithinExtension,
                                                   ANeuralNetworksOperationType* type) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_getExtensionOperationType";
    NN_API_CHECK_NULL(fn, model);
    NN_API_CHECK_NULL(fn, extensionName);
    NN_API_CHECK_NULL(fn, type);
    return extensionCode(fn, extensionName, operationCodeWithinExtension, type);
  });
}

int ANeuralNetworksModel_setOperandExtensionData(ANeuralNetworksModel* model, int32_t index,
                                                 const void* data, size_t length) {
  return apiCall([&]() -> ApiResult {
    const char* fn = "ANeuralNetworksModel_setOperandExtensionData";
    NN_API_CHECK_NULL(fn, model);
    if (data == nullptr && length > 0) {
      return apiError(ANEURALNETWORKS_UNEXPECTED_NULL, "%s: data is NULL but length is %zu", fn,
                      length);
    }
    return fromHandle(model)->setOperandExtensionData(index, data, length);
  });
}

}  // extern "C"
