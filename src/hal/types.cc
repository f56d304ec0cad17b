#include "hal/types.h"

#include <cstdarg>
#include <cstdio>


namespace nn {

Status::Status(ErrorStatus code, std::string message)
    : code_(code),
      message_(message.empty() ? nullptr : std::make_unique<std::string>(std::move(message))) {}

Status::Status(const Status& other)
    : code_(other.code_),
      message_(other.message_ ? std::make_unique<std::string>(*other.message_) : nullptr) {}

Status& Status::operator=(const Status& other) {
  if (this != &other) {
    code_ = other.code_;
    message_ = other.message_ ? std::make_unique<std::string>(*other.message_) : nullptr;
  }
  return *this;
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return message_ ? *message_ : kEmpty;
}

std::string vformatString(const char* fmt, va_list args) {
  char stackBuf[512];
  va_list copy;
  va_copy(copy, args);
  const int n = vsnprintf(stackBuf, sizeof(stackBuf), fmt, copy);
  va_end(copy);
  if (n < 0) return fmt;
  if (static_cast<size_t>(n) < sizeof(stackBuf)) return std::string(stackBuf, n);
  std::string out(n + 1, '\0');
  vsnprintf(out.data(), out.size(), fmt, args);
  out.resize(n);
  return out;
}

std::string formatString(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformatString(fmt, args);
  va_end(args);
  return s;
}

Status operationError(OperationType type, uint32_t operationIndex, const char* fmt,
                      va_list args) {
  const std::string msg = vformatString(fmt, args);
  return Status(ErrorStatus::INVALID_ARGUMENT,
                formatString("%s (operation #%u): %s", toString(type), operationIndex,
                             msg.c_str()));
}

Status makeError(ErrorStatus code, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string message = vformatString(fmt, args);
  va_end(args);
  return Status(code, std::move(message));
}

const char* toString(OperandType type) {
  switch (type) {
    case OperandType::FLOAT32: return "FLOAT32";
    case OperandType::INT32: return "INT32";
    case OperandType::UINT32: return "UINT32";
    case OperandType::TENSOR_FLOAT32: return "TENSOR_FLOAT32";
    case OperandType::TENSOR_INT32: return "TENSOR_INT32";
    case OperandType::TENSOR_QUANT8_ASYMM: return "TENSOR_QUANT8_ASYMM";
    case OperandType::BOOL: return "BOOL";
    case OperandType::TENSOR_QUANT16_SYMM: return "TENSOR_QUANT16_SYMM";
    case OperandType::TENSOR_FLOAT16: return "TENSOR_FLOAT16";
    case OperandType::TENSOR_BOOL8: return "TENSOR_BOOL8";
    case OperandType::FLOAT16: return "FLOAT16";
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL: return "TENSOR_QUANT8_SYMM_PER_CHANNEL";
    case OperandType::TENSOR_QUANT16_ASYMM: return "TENSOR_QUANT16_ASYMM";
    case OperandType::TENSOR_QUANT8_SYMM: return "TENSOR_QUANT8_SYMM";
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: return "TENSOR_QUANT8_ASYMM_SIGNED";
    case OperandType::SUBGRAPH: return "SUBGRAPH";
    case OperandType::OEM: return "OEM_SCALAR";
    case OperandType::TENSOR_OEM_BYTE: return "TENSOR_OEM_BYTE";
  }
  // Extension names need a std::string: operandTypeName (hal/types.h) gives them.
  return isExtension(type) ? "EXTENSION_OPERAND_TYPE" : "UNKNOWN_OPERAND_TYPE";
}

const char* toString(OperationType type) {
  switch (type) {
#define NN_OPERATION_NAME_CASE(name, code) \
  case OperationType::name:               \
    return #name;
    NN_FOR_EACH_OPERATION(NN_OPERATION_NAME_CASE)
#undef NN_OPERATION_NAME_CASE
    case OperationType::OEM_OPERATION:
      return "OEM_OPERATION";
  }
  // Any int32 can reach here (extension codes, plugin garbage); operationName
  // (hal/types.h) names the extension.
  return isExtension(type) ? "EXTENSION_OPERATION" : "UNKNOWN_OPERATION";
}

size_t operationCount() {
#define NN_OPERATION_COUNT(name, code) +1
  return 0 NN_FOR_EACH_OPERATION(NN_OPERATION_COUNT);
#undef NN_OPERATION_COUNT
}

const char* toString(ErrorStatus status) {
  switch (status) {
    case ErrorStatus::NONE: return "NONE";
    case ErrorStatus::DEVICE_UNAVAILABLE: return "DEVICE_UNAVAILABLE";
    case ErrorStatus::GENERAL_FAILURE: return "GENERAL_FAILURE";
    case ErrorStatus::OUTPUT_INSUFFICIENT_SIZE: return "OUTPUT_INSUFFICIENT_SIZE";
    case ErrorStatus::INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case ErrorStatus::MISSED_DEADLINE_TRANSIENT: return "MISSED_DEADLINE_TRANSIENT";
    case ErrorStatus::MISSED_DEADLINE_PERSISTENT: return "MISSED_DEADLINE_PERSISTENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_TRANSIENT: return "RESOURCE_EXHAUSTED_TRANSIENT";
    case ErrorStatus::RESOURCE_EXHAUSTED_PERSISTENT: return "RESOURCE_EXHAUSTED_PERSISTENT";
    case ErrorStatus::DEAD_OBJECT: return "DEAD_OBJECT";
  }
  return "UNKNOWN_STATUS";
}

bool isKnownOperandType(int32_t code) {
  return (code >= 0 && code <= 15) || code == 10000 || code == 10001;
}

bool isKnownOperationType(int32_t code) {
  switch (code) {
#define NN_OPERATION_CODE_CASE(name, code) case code:
    NN_FOR_EACH_OPERATION(NN_OPERATION_CODE_CASE)
#undef NN_OPERATION_CODE_CASE
    case 10000:  // OEM_OPERATION: a known code, never supported
      return true;
    default:
      return false;
  }
}

bool isScalarType(OperandType type) {
  if (isExtension(type)) {
    // As the declaring device says; an undeclared type is rejected by validation anyway.
    ExtensionOperandTypeInfo info;
    return findExtensionOperandType(static_cast<int32_t>(type), &info) && !info.isTensor;
  }
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::BOOL:
    case OperandType::FLOAT16:
    case OperandType::SUBGRAPH:
    case OperandType::OEM:
      return true;
    default:
      return false;
  }
}

bool isTensorType(OperandType type) { return !isScalarType(type); }

bool isQuantizedType(OperandType type) {
  switch (type) {
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_QUANT16_SYMM:
      return true;
    default:
      return false;
  }
}

uint32_t elementSize(OperandType type) {
  if (isExtension(type)) {
    ExtensionOperandTypeInfo info;
    return findExtensionOperandType(static_cast<int32_t>(type), &info) ? info.byteSize : 0;
  }
  switch (type) {
    case OperandType::FLOAT32:
    case OperandType::INT32:
    case OperandType::UINT32:
    case OperandType::TENSOR_FLOAT32:
    case OperandType::TENSOR_INT32:
      return 4;
    case OperandType::TENSOR_QUANT16_SYMM:
    case OperandType::TENSOR_QUANT16_ASYMM:
    case OperandType::TENSOR_FLOAT16:
    case OperandType::FLOAT16:
      return 2;
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED:
    case OperandType::TENSOR_QUANT8_SYMM:
    case OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL:
    case OperandType::BOOL:
    case OperandType::TENSOR_BOOL8:
    case OperandType::TENSOR_OEM_BYTE:
      return 1;
    case OperandType::SUBGRAPH:
    case OperandType::OEM:
      return 0;
  }
  return 0;
}

uint64_t elementCount(const Dims& dims) {
  for (uint32_t d : dims)
    if (d == 0) return 0;
  uint64_t n = 1;
  for (uint32_t d : dims) {
    // Saturates: an absurd shape must read as "too large", never wrap to a small size.
    if (n > UINT64_MAX / d) return UINT64_MAX;
    n *= d;
  }
  return n;
}

uint64_t byteSize(OperandType type, const Dims& dims) {
  const uint64_t count = elementCount(dims);
  const uint64_t size = elementSize(type);
  if (size != 0 && count > UINT64_MAX / size) return UINT64_MAX;
  return count * size;
}

bool isFullySpecified(OperandType type, const Dims& dims) {
  if (isScalarType(type)) return true;
  if (dims.empty()) return false;
  for (uint32_t d : dims)
    if (d == 0) return false;
  return true;
}

std::string toString(const Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += std::to_string(dims[i]);
  }
  return s + "]";
}

}  // namespace nn
