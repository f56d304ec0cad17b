#include "runtime/extension_lookup.h"

#include <android/NeuralNetworks.h>

#include "runtime/device_manager.h"

namespace nn {

bool deviceDeclaresExtension(const Device* device, const std::string& name) {
  for (const Extension& e : device->extensions())
    if (e.name == name) return true;
  return false;
}

const Device* deviceDeclaringExtension(const std::string& name) {
  for (const Device* d : allDevices())
    if (deviceDeclaresExtension(d, name)) return d;
  return nullptr;
}

Result<uint16_t> prefixOfDeclaredExtension(const std::string& name) {
  const Device* device = deviceDeclaringExtension(name);
  if (device == nullptr)
    return makeError(ErrorStatus::INVALID_ARGUMENT,
                     "extension '%s' is not declared by any device", name.c_str());
  for (const Extension& e : device->extensions()) {
    if (e.name != name) continue;
    uint16_t prefix = 0;
    if (!registerExtension(e, &prefix))
      return makeError(ErrorStatus::INVALID_ARGUMENT,
                       "extension '%s': all 65535 extension prefixes are in use", name.c_str());
    return prefix;
  }
  return makeError(ErrorStatus::GENERAL_FAILURE, "extension '%s' vanished", name.c_str());
}

ApiResult appendExtensionAttribute(const char* fn, std::vector<ExtensionAttribute>* list,
                                   const char* extensionName, uint16_t code, const void* data,
                                   size_t length) {
  if (extensionName[0] == '\0')
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the extension name is empty", fn);
  for (const ExtensionAttribute& a : *list) {
    if (a.extension == extensionName && a.code == code)
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: attribute %s:%u was already added", fn,
                      extensionName, code);
  }
  ExtensionAttribute a;
  a.extension = extensionName;
  a.code = code;
  const auto* bytes = static_cast<const uint8_t*>(data);
  if (length > 0) a.data.assign(bytes, bytes + length);
  list->push_back(std::move(a));
  return apiOk();
}

}  // namespace nn
