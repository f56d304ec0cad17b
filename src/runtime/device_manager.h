// The process-wide list of devices the runtime exposes.
#pragma once

#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {

// Stable for the process lifetime; the first entry is the default device.
const std::vector<const Device*>& allDevices();
// Why each skipped driver plugin or device was skipped (ANNLinux_getDriverLoadProblem).
const std::vector<std::string>& driverLoadProblems();
// "built-in" or the plugin path; null for an unknown device. Valid for the process lifetime.
const std::string* deviceOrigin(const Device* device);
bool isKnownDevice(const Device* device);
// The highest feature level every API and operation of which the runtime implements.
int64_t runtimeFeatureLevel();

}  // namespace nn
