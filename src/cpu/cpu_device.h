// The built-in CPU devices: "nnapi-cpu" (fast kernels) and "nnapi-cpu-reference" (the
// simple reference kernels, an independent path to check the fast one against).
#pragma once

#include "hal/device.h"

namespace nn {

// The feature level the CPU driver implements completely (every operation and operand type
// of that level, and the runtime every API of it). Raised only when all conformance vectors
// up to that level pass: V1_0..V1_3, V1_3_cts_only, AIDL_V2 (FL6) and AIDL_V3 (FL7) do.
// FL8 is not claimed: its extension-attribute functions exist, but no extension is supported.
constexpr int64_t kCpuDeviceFeatureLevel = kFeatureLevel7;

const Device* cpuDevice();
const Device* cpuReferenceDevice();

}  // namespace nn
