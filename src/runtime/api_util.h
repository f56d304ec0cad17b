// Shared helpers of the C entry points: handle casts, and (runtime/api_result.h) the boundary
// that records each call's outcome: every entry point is `return apiCall([&]() -> ApiResult
// { ... });`, whose body returns an ApiResult on every path (NN_API_CHECK_NULL included).
#pragma once

#include <android/NeuralNetworks.h>

#include "runtime/api_result.h"

namespace nn {

class RuntimeModel;
class RuntimeCompilation;
class RuntimeExecution;
class RuntimeMemory;
class RuntimeEvent;
class RuntimeBurst;
class RuntimeMemoryDesc;
class Device;

inline RuntimeModel* fromHandle(ANeuralNetworksModel* h) { return reinterpret_cast<RuntimeModel*>(h); }
inline const RuntimeModel* fromHandle(const ANeuralNetworksModel* h) { return reinterpret_cast<const RuntimeModel*>(h); }
inline RuntimeCompilation* fromHandle(ANeuralNetworksCompilation* h) { return reinterpret_cast<RuntimeCompilation*>(h); }
inline const RuntimeCompilation* fromHandle(const ANeuralNetworksCompilation* h) { return reinterpret_cast<const RuntimeCompilation*>(h); }
inline RuntimeExecution* fromHandle(ANeuralNetworksExecution* h) { return reinterpret_cast<RuntimeExecution*>(h); }
inline const RuntimeExecution* fromHandle(const ANeuralNetworksExecution* h) { return reinterpret_cast<const RuntimeExecution*>(h); }
inline const RuntimeMemory* fromHandle(const ANeuralNetworksMemory* h) { return reinterpret_cast<const RuntimeMemory*>(h); }
inline RuntimeMemory* fromHandle(ANeuralNetworksMemory* h) { return reinterpret_cast<RuntimeMemory*>(h); }
inline RuntimeEvent* fromHandle(ANeuralNetworksEvent* h) { return reinterpret_cast<RuntimeEvent*>(h); }
inline RuntimeEvent* fromHandle(const ANeuralNetworksEvent* h) { return reinterpret_cast<RuntimeEvent*>(const_cast<ANeuralNetworksEvent*>(h)); }
inline RuntimeBurst* fromHandle(ANeuralNetworksBurst* h) { return reinterpret_cast<RuntimeBurst*>(h); }
inline const Device* fromHandle(const ANeuralNetworksDevice* h) { return reinterpret_cast<const Device*>(h); }

}  // namespace nn
