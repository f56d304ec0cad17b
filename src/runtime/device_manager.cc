#include "runtime/device_manager.h"

#include <algorithm>

#include "hal/builtin_drivers.h"

namespace nn {

const std::vector<const Device*>& allDevices() {
  static const std::vector<const Device*> devices = builtinDevices();
  return devices;
}

bool isKnownDevice(const Device* device) {
  const auto& d = allDevices();
  return std::find(d.begin(), d.end(), device) != d.end();
}

int64_t runtimeFeatureLevel() {
  int64_t level = kFeatureLevel1;
  for (const Device* d : allDevices()) level = std::max(level, d->featureLevel());
  return level;
}

}  // namespace nn
