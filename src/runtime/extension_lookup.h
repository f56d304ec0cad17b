// Resolves vendor extension names against the devices of this process (the registry itself
// is in hal/types.h).
#pragma once

#include <string>

#include "hal/device.h"
#include "runtime/api_result.h"

namespace nn {

// The first device of allDevices() that declares `name`, or null.
const Device* deviceDeclaringExtension(const std::string& name);
// Whether `device` declares `name`.
bool deviceDeclaresExtension(const Device* device, const std::string& name);
// The prefix of `name`, assigned on first use from the declaring device's operand types.
// An extension no device declares gets no prefix (BAD_DATA naming it): its types and
// operations could never be sized, validated or run.
Result<uint16_t> prefixOfDeclaredExtension(const std::string& name);
// Appends a copied (name, code, data) attribute for addExtensionAttribute: BAD_DATA for a
// (name, code) pair already present. The device (one, checked by the caller) may ignore it.
ApiResult appendExtensionAttribute(const char* fn, std::vector<ExtensionAttribute>* list,
                                   const char* extensionName, uint16_t code, const void* data,
                                   size_t length);

}  // namespace nn
