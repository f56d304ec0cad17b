// Structure-aware fuzz target for the model-building C API (issue 9, item 7).
//
// Turns bytes (format in model_api_program.h) into a sequence of public C API calls: operands
// of any type code, dims (0, huge), quantization and per-channel parameters, values (copies,
// memfd-backed memories, omitted, nested models), operations with arbitrary codes and operand
// lists, identify/relax/finish, compilation on the default path or each device, and executions
// with inputs and outputs sized from the bytes (sync, async, burst, reusable). Every call may
// fail; the target must never crash, hang or leak.
//
// Differential mode (NNAPI_FUZZ_DIFFERENTIAL=1): a model that finishes is compiled for
// nnapi-cpu and nnapi-cpu-reference, executed on both with the same (finite) inputs, and when
// both succeed their outputs must agree within the conformance tolerances; a mismatch aborts.
//
// Built twice: with NNAPI_LIBFUZZER as a libFuzzer target (clang), and with the stand-alone
// driver in model_api_fuzz_driver.cc (any compiler; ctest `model_api_fuzz_smoke`).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "model_api_program.h"

namespace {

using modelfuzz::kHugeDims;

// Per-input work bounds: executions stay fast and memory bounded whatever the bytes say.
constexpr uint64_t kMaxElements = 100000;         // per operand with a buffer
constexpr size_t kMaxConstantBytes = 16384;       // one constant's data
constexpr size_t kMaxOutputFallback = 1 << 16;    // output buffer when the shape is unknown
constexpr size_t kMaxExecutionBytes = 4u << 20;   // all buffers of one execution
constexpr uint32_t kMaxOperands = 40;
constexpr uint32_t kMaxOperations = 16;
constexpr uint32_t kMaxNesting = 2;
constexpr uint64_t kTimeoutNs = 2000000000ull;    // where createForDevices allows a deadline
constexpr uint64_t kLoopTimeoutNs = 100000000ull; // WHILE bodies

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t u8() { return pos_ < n_ ? p_[pos_++] : 0; }
  int32_t i32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(u8()) << (8 * i);
    int32_t r;
    memcpy(&r, &v, 4);
    return r;
  }
  float f32() {
    int32_t v = i32();
    float f;
    memcpy(&f, &v, 4);
    return f;
  }
  void bytes(uint8_t* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = u8();
  }
  size_t pos() const { return pos_; }
  void seek(size_t p) { pos_ = p; }

 private:
  const uint8_t* p_;
  size_t n_;
  size_t pos_ = 0;
};

size_t elementSize(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_FLOAT32: case ANEURALNETWORKS_INT32: case ANEURALNETWORKS_UINT32:
    case ANEURALNETWORKS_TENSOR_FLOAT32: case ANEURALNETWORKS_TENSOR_INT32:
      return 4;
    case ANEURALNETWORKS_FLOAT16: case ANEURALNETWORKS_TENSOR_FLOAT16:
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
      return 2;
    case ANEURALNETWORKS_BOOL: case ANEURALNETWORKS_TENSOR_BOOL8:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
    case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
      return 1;
    default:
      return 0;
  }
}

bool isFloat(int32_t t) {
  return t == ANEURALNETWORKS_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT32 ||
         t == ANEURALNETWORKS_FLOAT16 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

// Elements of `dims` (1 for rank 0), saturated at UINT64_MAX; `known` is false for a 0 dim.
uint64_t elementCount(const std::vector<uint32_t>& dims, bool* known) {
  uint64_t n = 1;
  *known = true;
  for (uint32_t d : dims) {
    if (d == 0) *known = false;
    if (d != 0 && n > UINT64_MAX / d) return UINT64_MAX;
    n *= d;
  }
  return n;
}

struct OperandInfo {
  int32_t type = 0;
  std::vector<uint32_t> dims;
  float scale = 0.f;
  int32_t zeroPoint = 0;
  bool hasValue = false;
};

struct ModelInfo {
  std::vector<OperandInfo> operands;
  std::vector<uint32_t> inputs, outputs;
  std::vector<int32_t> operationCodes;
  bool relaxed = false;
  bool finished = false;
};

// Owns everything one program creates, freed in a safe order (executions before compilations
// before models before memories) so a leak or use-after-free is the library's, not ours.
struct Resources {
  std::vector<ANeuralNetworksModel*> models;
  std::vector<ANeuralNetworksMemory*> memories;
  std::vector<int> fds;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> buffers;
  ~Resources() {
    for (auto* m : models) ANeuralNetworksModel_free(m);
    for (auto* m : memories) ANeuralNetworksMemory_free(m);
    for (int fd : fds) close(fd);
  }
  // A memfd-backed NNAPI memory holding `data` (nullptr on failure).
  ANeuralNetworksMemory* memoryWith(const uint8_t* data, size_t size) {
    if (size == 0) return nullptr;
    int fd = memfd_create("nnapi-fuzz", MFD_CLOEXEC);
    if (fd < 0) return nullptr;
    fds.push_back(fd);
    if (ftruncate(fd, static_cast<off_t>(size)) != 0) return nullptr;
    if (data != nullptr && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return nullptr;
    ANeuralNetworksMemory* mem = nullptr;
    if (ANeuralNetworksMemory_createFromFd(size, PROT_READ | PROT_WRITE, fd, 0, &mem) !=
        ANEURALNETWORKS_NO_ERROR)
      return nullptr;
    memories.push_back(mem);
    return mem;
  }
};

bool gDifferential = false;

// Outcome features of the current program, for the stand-alone driver's corpus feedback (the
// driver has no coverage instrumentation): each call site's result code together with the
// last-error message with its numbers blanked, so every distinct validation or execution
// failure path counts once; plus each operation code of a model that executed successfully.
std::vector<uint64_t> gFeatures;

uint64_t hashMix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

int note(int site, int rc) {
  uint64_t h = hashMix(static_cast<uint64_t>(site) * 1000003u, static_cast<uint64_t>(rc) + 7);
  if (rc != ANEURALNETWORKS_NO_ERROR) {
    bool inNumber = false;
    for (const char* m = ANNLinux_getLastErrorMessage(); *m; ++m) {
      const bool digit = *m >= '0' && *m <= '9';
      if (digit && inNumber) continue;
      inNumber = digit;
      h = hashMix(h, digit ? '#' : static_cast<uint8_t>(*m));
    }
  }
  gFeatures.push_back(h);
  return rc;
}
bool gTrace = false;
unsigned long gCompared = 0;  // differential programs whose outputs were compared
// NNAPI_FUZZ_MODERATE_FLOATS=1: float data as in differential mode (finite, |x| <= 2), so a
// known NaN bug does not stop every run. Set by the ctests until the NaN/Inf-safe vexp
// (issue 9 item 10, branch i8b-rob) is merged: elementwise.h vexp converts NaN to int.
bool gModerateFloats = false;  // NNAPI_FUZZ_TRACE=1: one line per program (checking seeds)

// binary16 of a multiple of 1/64 in [-2, 2] (exact); no _Float16 so any compiler builds this.
uint16_t halfFromSmallFloat(float f) {
  if (f == 0.f) return 0;
  const uint16_t sign = f < 0 ? 0x8000 : 0;
  int exp = 0;
  const float m = std::frexp(std::fabs(f), &exp);  // f = m * 2^exp, m in [0.5, 1)
  const uint16_t mantissa = static_cast<uint16_t>(std::lround((m * 2 - 1) * 1024));
  return static_cast<uint16_t>(sign | ((exp - 1 + 15) << 10) | mantissa);
}

double floatFromHalf(uint16_t h) {
  const int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v;
  if (exp == 0) v = std::ldexp(mant, -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

// Fills `n` bytes of an input: raw bytes, or (differential mode) finite values of moderate
// size so both devices see data on which the conformance tolerances are meaningful.
void fillData(Reader& r, int32_t type, uint8_t* out, size_t n) {
  if (!(gDifferential || gModerateFloats) || !isFloat(type)) {
    r.bytes(out, n);
    return;
  }
  if (elementSize(type) == 4) {
    for (size_t i = 0; i + 4 <= n; i += 4) {
      float f = (static_cast<int>(r.u8()) - 128) / 64.f;
      memcpy(out + i, &f, 4);
    }
  } else {
    for (size_t i = 0; i + 2 <= n; i += 2) {
      const uint16_t h = halfFromSmallFloat((static_cast<int>(r.u8()) - 128) / 64.f);
      memcpy(out + i, &h, 2);
    }
  }
}

ANeuralNetworksModel* buildModel(Reader& r, Resources& res, uint32_t depth, ModelInfo* info);

void addOperands(Reader& r, Resources& res, uint32_t depth, ANeuralNetworksModel* model,
                 ModelInfo* info) {
  static const float kScales[8] = {0.f, 1.f, 0.5f, 1e-3f, -1.f, NAN, INFINITY, 1e30f};
  static const int32_t kZeroPoints[8] = {0, 128, 255, -128, 127, -1, 256, INT32_MIN};
  const uint32_t count = r.u8() % (kMaxOperands + 1);
  for (uint32_t i = 0; i < count; ++i) {
    OperandInfo op;
    const uint8_t typeByte = r.u8();
    op.type = typeByte < 0xF0 ? typeByte % 16 : r.i32();
    const uint8_t rankByte = r.u8();
    bool nullDims = rankByte >= 0xF0;
    const uint32_t rank = nullDims ? 1 : rankByte % 8;
    for (uint32_t d = 0; d < rank && !nullDims; ++d) {
      const uint8_t b = r.u8();
      op.dims.push_back(b < 0xF0 ? b : kHugeDims[b - 0xF0]);
    }
    const uint8_t quant = r.u8();
    bool perChannel = false;
    if (quant == 1) {
      op.scale = r.f32();
      op.zeroPoint = r.i32();
    } else if (quant == 2) {
      perChannel = true;
    } else if (quant != 0) {
      op.scale = kScales[quant % 8];
      op.zeroPoint = kZeroPoints[(quant / 8) % 8];
    }
    ANeuralNetworksOperandType t{op.type, nullDims ? 1u : rank,
                                 nullDims || op.dims.empty() ? nullptr : op.dims.data(), op.scale,
                                 op.zeroPoint};
    const int added = note(1, ANeuralNetworksModel_addOperand(model, &t));
    const uint32_t index = static_cast<uint32_t>(info->operands.size());
    if (added == ANEURALNETWORKS_NO_ERROR) info->operands.push_back(op);
    if (perChannel) {
      const uint32_t channelDim = r.u8();
      const uint32_t n = r.u8() % 64;
      std::vector<float> scales(n);
      for (auto& s : scales) s = r.u8() == 0 ? 0.f : r.u8() / 64.f + 1e-3f;
      ANeuralNetworksSymmPerChannelQuantParams p{channelDim, n, n ? scales.data() : nullptr};
      note(2, ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(model, index, &p));
    }
    const uint8_t valueKind = r.u8();
    bool known = false;
    const uint64_t elements = elementCount(op.dims, &known);
    const size_t es = elementSize(op.type);
    switch (valueKind) {
      case modelfuzz::kCopy:
      case modelfuzz::kWrongLength:
      case modelfuzz::kMemory: {
        // The declared size when it is known and small, else a length from the bytes.
        size_t bytes = (es != 0 && known && elements <= kMaxConstantBytes / es) ? elements * es
                                                                                : 1 + r.u8();
        if (valueKind == modelfuzz::kWrongLength) bytes = r.u8();
        res.buffers.push_back(std::make_unique<std::vector<uint8_t>>(bytes));
        auto& buf = *res.buffers.back();
        fillData(r, op.type, buf.data(), buf.size());
        int rc;
        if (valueKind == modelfuzz::kMemory) {
          ANeuralNetworksMemory* mem = res.memoryWith(buf.data(), buf.size());
          rc = ANeuralNetworksModel_setOperandValueFromMemory(model, index, mem, 0, buf.size());
        } else {
          rc = ANeuralNetworksModel_setOperandValue(model, index, buf.empty() ? nullptr : buf.data(),
                                                    buf.size());
        }
        if (note(3, rc) == ANEURALNETWORKS_NO_ERROR && index < info->operands.size())
          info->operands[index].hasValue = true;
        break;
      }
      case modelfuzz::kOmitted:
        if (note(4, ANeuralNetworksModel_setOperandValue(model, index, nullptr, 0)) ==
                ANEURALNETWORKS_NO_ERROR &&
            index < info->operands.size())
          info->operands[index].hasValue = true;
        break;
      case modelfuzz::kNested: {
        if (depth >= kMaxNesting) break;
        ModelInfo inner;
        ANeuralNetworksModel* nested = buildModel(r, res, depth + 1, &inner);
        if (nested != nullptr &&
            note(5, ANeuralNetworksModel_setOperandValueFromModel(model, index, nested)) ==
                ANEURALNETWORKS_NO_ERROR &&
            index < info->operands.size())
          info->operands[index].hasValue = true;
        break;
      }
      case modelfuzz::kScalarInt: {
        int32_t v = r.i32();
        if (note(6, ANeuralNetworksModel_setOperandValue(model, index, &v, sizeof(v))) ==
                ANEURALNETWORKS_NO_ERROR &&
            index < info->operands.size())
          info->operands[index].hasValue = true;
        break;
      }
      default:
        break;
    }
  }
}

std::vector<uint32_t> readIndices(Reader& r, uint32_t max) {
  std::vector<uint32_t> v(r.u8() % (max + 1));
  for (auto& x : v) x = r.u8();
  return v;
}

ANeuralNetworksModel* buildModel(Reader& r, Resources& res, uint32_t depth, ModelInfo* info) {
  const uint8_t flags = r.u8();
  ANeuralNetworksModel* model = nullptr;
  if (ANeuralNetworksModel_create(&model) != ANEURALNETWORKS_NO_ERROR) return nullptr;
  res.models.push_back(model);
  addOperands(r, res, depth, model, info);
  std::vector<bool> produced(info->operands.size()), consumed(info->operands.size());
  const uint32_t numOperations = r.u8() % (kMaxOperations + 1);
  for (uint32_t i = 0; i < numOperations; ++i) {
    const uint8_t codeByte = r.u8();
    const int32_t code = codeByte < 0xF0 ? codeByte % 106 : r.i32();
    std::vector<uint32_t> in = readIndices(r, 31), out = readIndices(r, 7);
    if (note(7, ANeuralNetworksModel_addOperation(model, code, static_cast<uint32_t>(in.size()),
                                                  in.data(), static_cast<uint32_t>(out.size()),
                                                  out.data())) == ANEURALNETWORKS_NO_ERROR) {
      info->operationCodes.push_back(code);
      for (uint32_t x : in) if (x < consumed.size()) consumed[x] = true;
      for (uint32_t x : out) if (x < produced.size()) produced[x] = true;
    }
  }
  if (flags & modelfuzz::kAutoIO) {
    for (uint32_t i = 0; i < info->operands.size(); ++i) {
      if (!produced[i] && !info->operands[i].hasValue && consumed[i]) info->inputs.push_back(i);
      if (produced[i] && !consumed[i]) info->outputs.push_back(i);
    }
  } else {
    info->inputs = readIndices(r, 15);
    info->outputs = readIndices(r, 15);
  }
  note(8, ANeuralNetworksModel_identifyInputsAndOutputs(
              model, static_cast<uint32_t>(info->inputs.size()), info->inputs.data(),
              static_cast<uint32_t>(info->outputs.size()), info->outputs.data()));
  if (flags & modelfuzz::kRelax) {
    info->relaxed = true;
    ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true);
  }
  if (!(flags & modelfuzz::kSkipFinish))
    info->finished = note(9, ANeuralNetworksModel_finish(model)) == ANEURALNETWORKS_NO_ERROR;
  return model;
}

struct Devices {
  std::vector<ANeuralNetworksDevice*> all;
  ANeuralNetworksDevice* fast = nullptr;
  ANeuralNetworksDevice* reference = nullptr;
};

const Devices& devices() {
  static const Devices d = [] {
    Devices d;
    uint32_t n = 0;
    ANeuralNetworks_getDeviceCount(&n);
    for (uint32_t i = 0; i < n; ++i) {
      ANeuralNetworksDevice* dev = nullptr;
      if (ANeuralNetworks_getDevice(i, &dev) != ANEURALNETWORKS_NO_ERROR) continue;
      d.all.push_back(dev);
      const char* name = nullptr;
      ANeuralNetworksDevice_getName(dev, &name);
      if (name && strcmp(name, "nnapi-cpu") == 0) d.fast = dev;
      if (name && strcmp(name, "nnapi-cpu-reference") == 0) d.reference = dev;
    }
    return d;
  }();
  return d;
}

struct RunResult {
  int status = ANEURALNETWORKS_OP_FAILED;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<std::vector<uint32_t>> dims;
};

// One execution. `data` is positioned at the input bytes; the caller rewinds it for a second
// device so both see the same inputs.
RunResult execute(ANeuralNetworksCompilation* compilation, const ModelInfo& info, uint8_t mode,
                  bool deadlineAllowed, Reader& data, Resources& res) {
  RunResult result;
  ANeuralNetworksExecution* exec = nullptr;
  if (ANeuralNetworksExecution_create(compilation, &exec) != ANEURALNETWORKS_NO_ERROR) return result;
  size_t budget = kMaxExecutionBytes;
  std::vector<std::vector<uint8_t>> inputs(info.inputs.size());
  for (uint32_t i = 0; i < info.inputs.size(); ++i) {
    const uint32_t index = info.inputs[i];
    if (index >= info.operands.size()) continue;
    const OperandInfo& op = info.operands[index];
    std::vector<uint32_t> dims = op.dims;
    bool giveDims = (mode & 0x10) != 0;
    for (auto& d : dims) {
      if (d == 0 || (mode & 0x10)) {
        d = 1 + data.u8() % 6;
        giveDims = true;
      }
    }
    bool known;
    const uint64_t elements = elementCount(dims, &known);
    const size_t es = elementSize(op.type);
    size_t bytes = (es != 0 && elements <= kMaxElements && elements * es <= budget) ? elements * es : 16;
    if (mode & 0x08) bytes /= 2;
    budget -= std::min(budget, bytes);
    inputs[i].resize(bytes);
    fillData(data, op.type, inputs[i].data(), bytes);
    ANeuralNetworksOperandType t{op.type, static_cast<uint32_t>(dims.size()),
                                 dims.empty() ? nullptr : dims.data(), op.scale, op.zeroPoint};
    const ANeuralNetworksOperandType* tp = giveDims ? &t : nullptr;
    if ((mode & 0x04) && bytes > 0) {
      ANeuralNetworksMemory* mem = res.memoryWith(inputs[i].data(), bytes);
      note(10, ANeuralNetworksExecution_setInputFromMemory(exec, i, tp, mem, 0, bytes));
    } else {
      note(11, ANeuralNetworksExecution_setInput(exec, i, tp, bytes ? inputs[i].data() : nullptr, bytes));
    }
  }
  result.outputs.resize(info.outputs.size());
  for (uint32_t i = 0; i < info.outputs.size(); ++i) {
    const uint32_t index = info.outputs[i];
    size_t bytes = 16;
    if (index < info.operands.size()) {
      const OperandInfo& op = info.operands[index];
      bool known;
      const uint64_t elements = elementCount(op.dims, &known);
      const size_t es = elementSize(op.type);
      bytes = (known && es != 0 && elements <= kMaxElements) ? elements * es
                                                              : std::min(kMaxOutputFallback, budget);
      if (mode & 0x08) bytes /= 2;
    }
    bytes = std::min(bytes, budget);
    budget -= bytes;
    result.outputs[i].assign(bytes, 0);
    note(12, ANeuralNetworksExecution_setOutput(exec, i, nullptr,
                                                bytes ? result.outputs[i].data() : nullptr, bytes));
  }
  if (deadlineAllowed) ANeuralNetworksExecution_setTimeout(exec, kTimeoutNs);
  ANeuralNetworksExecution_setLoopTimeout(exec, kLoopTimeoutNs);
  switch (mode & 3) {
    case 0:
      result.status = ANeuralNetworksExecution_compute(exec);
      break;
    case 1: {
      ANeuralNetworksEvent* event = nullptr;
      result.status = ANeuralNetworksExecution_startCompute(exec, &event);
      if (result.status == ANEURALNETWORKS_NO_ERROR) result.status = ANeuralNetworksEvent_wait(event);
      ANeuralNetworksEvent_free(event);
      break;
    }
    case 2: {
      ANeuralNetworksBurst* burst = nullptr;
      result.status = ANeuralNetworksBurst_create(compilation, &burst);
      if (result.status == ANEURALNETWORKS_NO_ERROR) {
        result.status = ANeuralNetworksExecution_burstCompute(exec, burst);
      }
      ANeuralNetworksExecution_free(exec);
      exec = nullptr;
      ANeuralNetworksBurst_free(burst);
      break;
    }
    case 3:
      ANeuralNetworksExecution_setReusable(exec, true);
      ANeuralNetworksExecution_compute(exec);
      result.status = ANeuralNetworksExecution_compute(exec);
      break;
  }
  note(13 + (mode & 3), result.status);
  if (result.status == ANEURALNETWORKS_NO_ERROR)
    for (int32_t code : info.operationCodes) note(20, code);
  if (exec != nullptr) {
    result.dims.resize(info.outputs.size());
    for (uint32_t i = 0; i < info.outputs.size(); ++i) {
      uint32_t rank = 0;
      if (ANeuralNetworksExecution_getOutputOperandRank(exec, i, &rank) != ANEURALNETWORKS_NO_ERROR ||
          rank > 64)
        continue;
      std::vector<uint32_t> dims(rank + 1);
      if (ANeuralNetworksExecution_getOutputOperandDimensions(exec, i, dims.data()) ==
          ANEURALNETWORKS_NO_ERROR) {
        dims.resize(rank);
        result.dims[i] = dims;
      }
    }
    ANeuralNetworksExecution_free(exec);
  }
  return result;
}

ANeuralNetworksCompilation* compileFor(ANeuralNetworksModel* model, ANeuralNetworksDevice* device,
                                       Reader& r, bool* deadlineAllowed) {
  ANeuralNetworksCompilation* c = nullptr;
  int rc = device ? ANeuralNetworksCompilation_createForDevices(model, &device, 1, &c)
                  : ANeuralNetworksCompilation_create(model, &c);
  if (rc != ANEURALNETWORKS_NO_ERROR) return nullptr;
  ANeuralNetworksCompilation_setPreference(c, r.u8() % 4);
  const uint8_t priority = r.u8();
  if (priority & 0x80) ANeuralNetworksCompilation_setPriority(c, 90 + (priority & 0x7F) % 25);
  const uint8_t timeout = r.u8();
  if (device != nullptr && (timeout & 1)) ANeuralNetworksCompilation_setTimeout(c, kTimeoutNs);
  if (note(17, ANeuralNetworksCompilation_finish(c)) != ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksCompilation_free(c);
    return nullptr;
  }
  *deadlineAllowed = device != nullptr;
  return c;
}

// Conformance tolerances (tools/cts/cts_check.cc): float32 1e-5 + 5 ULP relative, relaxed and
// float16 5 * 2^-10, quantized and int32 within 1, booleans exact.
void compareOutputs(const ModelInfo& info, const RunResult& fast, const RunResult& ref) {
  for (uint32_t i = 0; i < info.outputs.size(); ++i) {
    if (i >= fast.dims.size() || i >= ref.dims.size()) return;
    if (fast.dims[i] != ref.dims[i]) {
      fprintf(stderr, "differential: output %u dims differ\n", i);
      abort();
    }
    const OperandInfo& op = info.operands[info.outputs[i]];
    bool known;
    const uint64_t n = elementCount(ref.dims[i], &known);
    const size_t es = elementSize(op.type);
    if (es == 0 || n * es > fast.outputs[i].size() || n * es > ref.outputs[i].size()) continue;
    for (uint64_t k = 0; k < n; ++k) {
      const uint8_t* a = fast.outputs[i].data() + k * es;
      const uint8_t* e = ref.outputs[i].data() + k * es;
      double va = 0, ve = 0, atol = 0, rtol = 0;
      switch (op.type) {
        case ANEURALNETWORKS_TENSOR_FLOAT32: {
          float x, y;
          memcpy(&x, a, 4);
          memcpy(&y, e, 4);
          va = x, ve = y;
          atol = info.relaxed ? 5.0 / 1024 : 1e-5;
          rtol = info.relaxed ? 5.0 / 1024 : 5.0 / 8388608.0;
          break;
        }
        case ANEURALNETWORKS_TENSOR_FLOAT16: {
          uint16_t x, y;
          memcpy(&x, a, 2);
          memcpy(&y, e, 2);
          va = floatFromHalf(x), ve = floatFromHalf(y);
          atol = rtol = 5.0 / 1024;
          break;
        }
        case ANEURALNETWORKS_TENSOR_INT32: {
          int32_t x, y;
          memcpy(&x, a, 4);
          memcpy(&y, e, 4);
          va = x, ve = y, atol = 1;
          break;
        }
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: va = *a, ve = *e, atol = 1; break;
        case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
        case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
          va = static_cast<int8_t>(*a), ve = static_cast<int8_t>(*e), atol = 1;
          break;
        case ANEURALNETWORKS_TENSOR_BOOL8: va = *a != 0, ve = *e != 0; break;
        default: continue;  // quant16 and others: compared through their float paths only
      }
      if (std::isnan(va) && std::isnan(ve)) continue;
      if (va == ve) continue;  // also equal infinities
      if (!(std::fabs(va - ve) <= atol + rtol * std::fabs(ve))) {
        fprintf(stderr, "differential: output %u element %llu: nnapi-cpu %.9g, reference %.9g\n", i,
                static_cast<unsigned long long>(k), va, ve);
        abort();
      }
    }
  }
}

bool hasNondeterministicOperation(const ModelInfo& info) {
  for (int32_t code : info.operationCodes)
    if (code == ANEURALNETWORKS_RANDOM_MULTINOMIAL) return true;
  return false;
}

void runProgram(const uint8_t* data, size_t size) {
  Reader r(data, size);
  Resources res;
  ModelInfo info;
  ANeuralNetworksModel* model = buildModel(r, res, 0, &info);
  if (model == nullptr) return;
  const uint8_t compileByte = r.u8();
  const auto& devs = devices();
  if (gDifferential && info.finished && devs.fast && devs.reference &&
      !hasNondeterministicOperation(info)) {
    const uint8_t mode = r.u8() & 0x1F & ~0x08;  // full-sized outputs
    const size_t dataStart = r.pos();
    bool d1 = false, d2 = false;
    ANeuralNetworksCompilation* fast = compileFor(model, devs.fast, r, &d1);
    r.seek(dataStart);
    ANeuralNetworksCompilation* ref = compileFor(model, devs.reference, r, &d2);
    const size_t inputStart = r.pos();
    if (fast && ref) {
      RunResult a = execute(fast, info, mode, d1, r, res);
      r.seek(inputStart);
      RunResult b = execute(ref, info, mode, d2, r, res);
      if (gTrace) fprintf(stderr, "trace: differential %d %d\n", a.status, b.status);
      if (a.status == ANEURALNETWORKS_NO_ERROR && b.status == ANEURALNETWORKS_NO_ERROR) {
        compareOutputs(info, a, b);
        ++gCompared;
      }
    }
    ANeuralNetworksCompilation_free(fast);
    ANeuralNetworksCompilation_free(ref);
    return;
  }
  ANeuralNetworksDevice* device = nullptr;
  if (compileByte != 0 && !devs.all.empty()) device = devs.all[(compileByte - 1) % devs.all.size()];
  bool deadline = false;
  ANeuralNetworksCompilation* c = compileFor(model, device, r, &deadline);
  // Even an unfinished model gets a compilation attempt (it must be refused cleanly).
  if (c == nullptr) {
    if (gTrace) fprintf(stderr, "trace: finished %d, compilation failed\n", info.finished);
    return;
  }
  const uint8_t mode = r.u8();
  RunResult result = execute(c, info, mode, deadline, r, res);
  if (gTrace) fprintf(stderr, "trace: finished %d, execution %d\n", info.finished, result.status);
  ANeuralNetworksCompilation_free(c);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Absurd run-time shapes fail fast instead of allocating half the machine.
  setenv("NNAPI_MAX_OPERAND_BYTES", "16777216", 0);
  const char* diff = getenv("NNAPI_FUZZ_DIFFERENTIAL");
  gDifferential = diff != nullptr && diff[0] == '1';
  if (gDifferential)
    atexit([] { fprintf(stderr, "differential: %lu programs ran on both devices and agreed\n", gCompared); });
  const char* moderate = getenv("NNAPI_FUZZ_MODERATE_FLOATS");
  gModerateFloats = moderate != nullptr && moderate[0] == '1';
  const char* trace = getenv("NNAPI_FUZZ_TRACE");
  gTrace = trace != nullptr && trace[0] == '1';
  return 0;
}

// The features of the last program run (see note()).
const std::vector<uint64_t>& modelApiFuzzFeatures() { return gFeatures; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gFeatures.clear();
  runProgram(data, size);
  return 0;
}
