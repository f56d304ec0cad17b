// The devices compiled into the library, in preference order (the first is the default).
// Implemented by the built-in CPU driver, so the runtime reaches it through the driver
// interface alone, exactly as it reaches any other device.
#pragma once

#include <vector>

#include "hal/device.h"

namespace nn {

std::vector<const Device*> builtinDevices();

}  // namespace nn
