// Where the process's device list comes from. libneuralnetworks implements it in
// device_discovery.cc (built-in devices, then driver plugins); a test driver plugin, which
// links the rest of the runtime, provides its own implementation instead (tests/drivers/),
// so that a plugin never loads plugins itself.
#pragma once

#include <string>
#include <vector>

#include "hal/device.h"

namespace nn {

struct DiscoveredDevices {
  // In preference order: the first is the default device. Each lives until the process ends.
  std::vector<const Device*> devices;
  // "<path or file>: <reason>" for every driver plugin or device that was skipped.
  std::vector<std::string> loadProblems;
};

// Called once per process, at the first use of the device list (device_manager.cc).
DiscoveredDevices discoverDevices();

}  // namespace nn
