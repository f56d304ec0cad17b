// The built-in CPU devices: "nnapi-cpu" (fast kernels) and "nnapi-cpu-reference" (the
// simple reference kernels, an independent path to check the fast one against).
#pragma once

#include "hal/device.h"

namespace nn {

// The feature level the CPU driver implements completely (every operation and operand type
// of that level). Raised only when the conformance vectors of the level pass.
constexpr int64_t kCpuDeviceFeatureLevel = kFeatureLevel2;

const Device* cpuDevice();
const Device* cpuReferenceDevice();

}  // namespace nn
