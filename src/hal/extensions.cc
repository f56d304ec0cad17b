#include "hal/types.h"

#include <mutex>

namespace nn {
namespace {

struct Registry {
  std::mutex mutex;
  // extensions[prefix - 1]: prefixes are handed out 1, 2, ... in order of first use.
  std::vector<Extension> extensions;
};

Registry& registry() {
  // Never destroyed: codes stay resolvable from other static destructors.
  static Registry* r = new Registry;
  return *r;
}

}  // namespace

bool registerExtension(const Extension& extension, uint16_t* prefix) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < r.extensions.size(); ++i) {
    if (r.extensions[i].name == extension.name) {
      *prefix = static_cast<uint16_t>(i + 1);
      return true;
    }
  }
  if (r.extensions.size() >= 0xFFFFu) return false;
  r.extensions.push_back(extension);
  *prefix = static_cast<uint16_t>(r.extensions.size());
  return true;
}

uint16_t findExtensionPrefix(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (size_t i = 0; i < r.extensions.size(); ++i)
    if (r.extensions[i].name == name) return static_cast<uint16_t>(i + 1);
  return 0;
}

std::string extensionName(uint16_t prefix) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (prefix == 0 || prefix > r.extensions.size()) return std::string();
  return r.extensions[prefix - 1].name;
}

bool findExtensionOperandType(int32_t code, ExtensionOperandTypeInfo* info) {
  const uint16_t prefix = extensionPrefixOf(code);
  const uint16_t type = codeWithinExtension(code);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (prefix == 0 || prefix > r.extensions.size()) return false;
  for (const ExtensionOperandTypeInfo& t : r.extensions[prefix - 1].operandTypes) {
    if (t.type == type) {
      *info = t;
      return true;
    }
  }
  return false;
}

std::string extensionCodeName(int32_t code) {
  const uint16_t prefix = extensionPrefixOf(code);
  std::string name = extensionName(prefix);
  if (name.empty()) name = formatString("<unassigned extension prefix %u>", prefix);
  return formatString("%s:%u", name.c_str(), codeWithinExtension(code));
}

std::string operationName(OperationType type) {
  if (!isExtension(type)) return toString(type);
  return "extension operation " + extensionCodeName(static_cast<int32_t>(type));
}

std::string operandTypeName(OperandType type) {
  if (!isExtension(type)) return toString(type);
  return "extension operand type " + extensionCodeName(static_cast<int32_t>(type));
}

}  // namespace nn
