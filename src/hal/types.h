// Canonical types shared by the runtime, the driver interface and the CPU driver.
// They mirror the NNAPI HAL (seeds 000/001/004) without any IPC conversion layer.
#pragma once

#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hal/operation_list.h"

namespace nn {

// Values equal the public OperandCode values (ANEURALNETWORKS_*), so conversion is a cast.
enum class OperandType : int32_t {
  FLOAT32 = 0,
  INT32 = 1,
  UINT32 = 2,
  TENSOR_FLOAT32 = 3,
  TENSOR_INT32 = 4,
  TENSOR_QUANT8_ASYMM = 5,
  BOOL = 6,
  TENSOR_QUANT16_SYMM = 7,
  TENSOR_FLOAT16 = 8,
  TENSOR_BOOL8 = 9,
  FLOAT16 = 10,
  TENSOR_QUANT8_SYMM_PER_CHANNEL = 11,
  TENSOR_QUANT16_ASYMM = 12,
  TENSOR_QUANT8_SYMM = 13,
  TENSOR_QUANT8_ASYMM_SIGNED = 14,
  SUBGRAPH = 15,
  OEM = 10000,
  TENSOR_OEM_BYTE = 10001,
};

// Values equal the public OperationCode values; generated from hal/operation_list.h.
enum class OperationType : int32_t {
#define NN_OPERATION_ENUM_ENTRY(name, code) name = code,
  NN_FOR_EACH_OPERATION(NN_OPERATION_ENUM_ENTRY)
#undef NN_OPERATION_ENUM_ENTRY
  OEM_OPERATION = 10000,
};

enum class Lifetime : int32_t {
  TEMPORARY_VARIABLE,
  SUBGRAPH_INPUT,
  SUBGRAPH_OUTPUT,
  CONSTANT_COPY,       // bytes live in Model::operandValues
  CONSTANT_REFERENCE,  // bytes live in Model::pools[location.poolIndex] (memory object or caller pointer)
  NO_VALUE,
  SUBGRAPH,            // location.offset = index into Model::referenced
};

// HAL error status; the runtime maps it to a public result code (ABI.md 1.8).
enum class ErrorStatus : int32_t {
  NONE = 0,
  DEVICE_UNAVAILABLE,
  GENERAL_FAILURE,
  OUTPUT_INSUFFICIENT_SIZE,
  INVALID_ARGUMENT,
  MISSED_DEADLINE_TRANSIENT,
  MISSED_DEADLINE_PERSISTENT,
  RESOURCE_EXHAUSTED_TRANSIENT,
  RESOURCE_EXHAUSTED_PERSISTENT,
  DEAD_OBJECT,
};
// Returned by an operation's shape inference at compilation when output shapes depend on
// values only known at execution (e.g. a non-constant RESHAPE shape); never escapes a driver.
constexpr ErrorStatus kDeferred = static_cast<ErrorStatus>(1000);
constexpr ErrorStatus kOk = ErrorStatus::NONE;

// Errors are values: a status code plus the message that says why. Success carries no
// message and allocates nothing, so the steady execution path stays allocation-free. The
// message travels with the value up to the C API boundary, which alone records it as the
// calling thread's last error (ANNLinux_getLastErrorMessage) and logs it.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorStatus code) : code_(code) {}  // NOLINT: implicit, `return kOk;` reads well
  Status(ErrorStatus code, std::string message);
  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  ErrorStatus code() const { return code_; }
  bool ok() const { return code_ == ErrorStatus::NONE; }
  // Empty for success and for errors nobody explained.
  const std::string& message() const;
  // Comparisons and switches look at the code only.
  operator ErrorStatus() const { return code_; }  // NOLINT

 private:
  ErrorStatus code_ = ErrorStatus::NONE;
  std::unique_ptr<std::string> message_;
};

// An absolute deadline `durationNs` after `nowNs`, saturating: a duration too long to
// represent means "no practical deadline" (UINT64_MAX), never a time in the past.
inline uint64_t deadlineAfter(uint64_t nowNs, uint64_t durationNs) {
  return durationNs > UINT64_MAX - nowNs ? UINT64_MAX : nowNs + durationNs;
}

// printf-style constructor of an error value.
Status makeError(ErrorStatus code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// A value or the error that prevented it.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT
  Result(Status error) : status_(std::move(error)) {}  // NOLINT
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() { return value_; }
  const T& value() const { return value_; }
  T* operator->() { return &value_; }
  T& operator*() { return value_; }

 private:
  Status status_;
  T value_{};
};

// FeatureLevelCode values.
constexpr int64_t kFeatureLevel1 = 27;
constexpr int64_t kFeatureLevel2 = 28;
constexpr int64_t kFeatureLevel3 = 29;
constexpr int64_t kFeatureLevel4 = 30;
constexpr int64_t kFeatureLevel5 = 31;
constexpr int64_t kFeatureLevel6 = 1000006;
constexpr int64_t kFeatureLevel7 = 1000007;
constexpr int64_t kFeatureLevel8 = 1000008;

enum class FusedActivation : int32_t { NONE = 0, RELU = 1, RELU1 = 2, RELU6 = 3 };

using Dims = std::vector<uint32_t>;

// A mapped region of memory that constants or request arguments live in. Non-owning
// instances wrap caller pointers; owning ones (fd mappings, device allocations) release
// their storage in the destructor of a subclass.
class Memory {
 public:
  Memory(uint8_t* base, size_t size) : base_(base), size_(size) {}
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;
  uint8_t* data() const { return base_; }
  size_t size() const { return size_; }
  // True when offset/length lie inside the region (overflow-safe).
  bool contains(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }

 protected:
  uint8_t* base_;
  size_t size_;
};
using SharedMemory = std::shared_ptr<Memory>;

struct DataLocation {
  void* pointer = nullptr;  // direct caller pointer (request arguments); wins over poolIndex
  uint32_t poolIndex = 0;
  uint32_t offset = 0;
  uint32_t length = 0;
};

struct ChannelQuant {
  std::vector<float> scales;
  uint32_t channelDim = 0;
};

struct Operand {
  OperandType type = OperandType::FLOAT32;
  Dims dimensions;          // 0 entries mean "unknown"; empty on a tensor = unknown rank
  float scale = 0.f;
  int32_t zeroPoint = 0;
  Lifetime lifetime = Lifetime::TEMPORARY_VARIABLE;
  DataLocation location;
  std::shared_ptr<ChannelQuant> channelQuant;  // TENSOR_QUANT8_SYMM_PER_CHANNEL only
  // Extension operand types only: opaque bytes for the driver
  // (ANeuralNetworksModel_setOperandExtensionData).
  std::vector<uint8_t> extensionData;
};

struct Operation {
  OperationType type = OperationType::ADD;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Subgraph {
  std::vector<Operand> operands;
  std::vector<Operation> operations;  // in a valid execution order after finish
  std::vector<uint32_t> inputIndexes;
  std::vector<uint32_t> outputIndexes;
};

struct Model {
  Subgraph main;
  std::vector<Subgraph> referenced;
  std::vector<uint8_t> operandValues;  // CONSTANT_COPY bytes
  std::vector<SharedMemory> pools;     // CONSTANT_REFERENCE sources
  bool relaxComputationFloat32toFloat16 = false;
};

struct RequestArgument {
  bool hasNoValue = false;
  DataLocation location;
  Dims dimensions;  // empty: use the model operand's dimensions
};

struct Request {
  std::vector<RequestArgument> inputs;
  std::vector<RequestArgument> outputs;
  std::vector<const Memory*> pools;
};

struct OutputShape {
  Dims dimensions;
  bool isSufficient = true;
};

constexpr uint64_t kNoTiming = UINT64_MAX;
struct Timing {
  uint64_t timeOnDeviceNs = kNoTiming;
  uint64_t timeInDriverNs = kNoTiming;
};

// ---- helpers ----
const char* toString(OperandType type);
const char* toString(OperationType type);
// Number of entries of NN_FOR_EACH_OPERATION.
size_t operationCount();
const char* toString(ErrorStatus status);
bool isKnownOperandType(int32_t code);
bool isKnownOperationType(int32_t code);
bool isScalarType(OperandType type);
bool isTensorType(OperandType type);
bool isQuantizedType(OperandType type);
// Bytes per element (0 for SUBGRAPH/OEM scalar). Extension types (hal/types.h) answer
// from the registry: the declaring device's ExtensionOperandTypeInfo.
uint32_t elementSize(OperandType type);
// Element count, 1 for rank 0; 0 when any dimension is 0; UINT64_MAX when the product
// does not fit in 64 bits (so size checks reject it instead of seeing a wrapped value).
uint64_t elementCount(const Dims& dims);
// Bytes of a tensor of `type` and `dims`, saturating at UINT64_MAX like elementCount.
uint64_t byteSize(OperandType type, const Dims& dims);
// True when the rank is known and every dimension is non-zero.
bool isFullySpecified(OperandType type, const Dims& dims);
std::string toString(const Dims& dims);
// printf into a std::string (any length).
std::string formatString(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string vformatString(const char* fmt, va_list args);
// The error "OP (operation #k): <printf message>" every operation check returns.
Status operationError(OperationType type, uint32_t operationIndex, const char* fmt, va_list args);

// ---- vendor extensions (NeuralNetworksExtensions.h) ----
// The process-wide registry that gives each extension name its 16-bit prefix, and the operand
// types of the extensions in use (bodies in hal/extensions.cc). An extension operand or
// operation code is (prefix << 16) | code-within-extension with prefix >= 1, so every code
// whose high 16 bits are 0 is a standard one. It lives in hal because sizing an extension
// operand (elementSize, isScalarType) needs it everywhere; the runtime fills it from the
// devices that declare each extension.
// A vendor extension a device declares (NeuralNetworksExtensions.h).
struct ExtensionOperandTypeInfo {
  uint16_t type = 0;  // code within the extension
  bool isTensor = false;
  uint32_t byteSize = 0;  // scalar size, or element size of a tensor type
};
struct Extension {
  std::string name;
  std::vector<ExtensionOperandTypeInfo> operandTypes;
};

inline bool isExtensionCode(int32_t code) { return (static_cast<uint32_t>(code) >> 16) != 0; }
inline bool isExtension(OperandType type) { return isExtensionCode(static_cast<int32_t>(type)); }
inline bool isExtension(OperationType type) {
  return isExtensionCode(static_cast<int32_t>(type));
}
inline uint16_t extensionPrefixOf(int32_t code) {
  return static_cast<uint16_t>(static_cast<uint32_t>(code) >> 16);
}
inline uint16_t codeWithinExtension(int32_t code) {
  return static_cast<uint16_t>(static_cast<uint32_t>(code) & 0xFFFFu);
}
inline int32_t makeExtensionCode(uint16_t prefix, uint16_t code) {
  return static_cast<int32_t>((static_cast<uint32_t>(prefix) << 16) | code);
}

// Registers `extension` (its name and operand types) on first use and returns its prefix;
// later calls return the same prefix and keep the first operand type list. False once all
// 65535 prefixes are taken. Thread-safe.
bool registerExtension(const Extension& extension, uint16_t* prefix);
// The prefix already given to `name`, or 0.
uint16_t findExtensionPrefix(const std::string& name);
// The name of an assigned prefix; empty when none was assigned.
std::string extensionName(uint16_t prefix);
// The declared operand type of an extension operand code; false when the prefix is not
// assigned or its extension does not declare that type.
bool findExtensionOperandType(int32_t code, ExtensionOperandTypeInfo* info);
// "<extension name>:<code>" for messages ("<unassigned prefix N>:<code>" when unknown).
std::string extensionCodeName(int32_t code);
// toString(type), or for an extension operation "extension operation <name>:<code>".
std::string operationName(OperationType type);
std::string operandTypeName(OperandType type);

}  // namespace nn
