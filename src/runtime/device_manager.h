// The process-wide list of devices the runtime exposes.
#pragma once

#include <vector>

#include "hal/device.h"

namespace nn {

// Stable for the process lifetime; the first entry is the default device.
const std::vector<const Device*>& allDevices();
bool isKnownDevice(const Device* device);
// The highest feature level every API and operation of which the runtime implements.
int64_t runtimeFeatureLevel();

}  // namespace nn
