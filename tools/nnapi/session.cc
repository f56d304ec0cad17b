#include "session.h"

#include <android/NeuralNetworksDiagnostics.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>

#include "image_io.h"
#include "npy.h"

using namespace nnapi_tflite;

namespace nnapi_cli {

std::vector<DeviceInfo> ListDevices(std::string* error) {
  std::vector<DeviceInfo> out;
  uint32_t n = 0;
  int r = ANeuralNetworks_getDeviceCount(&n);
  if (r != ANEURALNETWORKS_NO_ERROR) {
    *error = std::string("ANeuralNetworks_getDeviceCount failed: ") + ANNLinux_resultCodeName(r);
    return out;
  }
  for (uint32_t i = 0; i < n; ++i) {
    DeviceInfo d;
    if ((r = ANeuralNetworks_getDevice(i, &d.device)) != ANEURALNETWORKS_NO_ERROR) {
      *error = "ANeuralNetworks_getDevice(" + std::to_string(i) + ") failed: " + ANNLinux_resultCodeName(r);
      return {};
    }
    const char* s = nullptr;
    if (ANeuralNetworksDevice_getName(d.device, &s) == ANEURALNETWORKS_NO_ERROR && s) d.name = s;
    s = nullptr;
    if (ANeuralNetworksDevice_getVersion(d.device, &s) == ANEURALNETWORKS_NO_ERROR && s) d.version = s;
    ANeuralNetworksDevice_getType(d.device, &d.type);
    ANeuralNetworksDevice_getFeatureLevel(d.device, &d.feature_level);
    out.push_back(std::move(d));
  }
  return out;
}

bool FindDevice(const std::string& name, DeviceInfo* out, std::string* error) {
  std::vector<DeviceInfo> all = ListDevices(error);
  if (!error->empty()) return false;
  for (const DeviceInfo& d : all) {
    if (d.name == name) {
      *out = d;
      return true;
    }
  }
  std::string names;
  for (const DeviceInfo& d : all) names += (names.empty() ? "" : ", ") + d.name;
  *error = "no device named '" + name + "' (available: " + (names.empty() ? "none" : names) + ")";
  return false;
}

std::string Dims(const std::vector<uint32_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}
std::string Dims(const std::vector<int32_t>& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

double Ms(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

size_t ElementSize(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32: case ANEURALNETWORKS_TENSOR_INT32: return 4;
    case ANEURALNETWORKS_TENSOR_FLOAT16: case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return 2;
    default: return 1;
  }
}
const char* NpyDtype(int32_t type) {
  switch (type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32: return "<f4";
    case ANEURALNETWORKS_TENSOR_INT32: return "<i4";
    case ANEURALNETWORKS_TENSOR_FLOAT16: return "<f2";
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return "|u1";
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: case ANEURALNETWORKS_TENSOR_QUANT8_SYMM: return "|i1";
    case ANEURALNETWORKS_TENSOR_BOOL8: return "|b1";
    case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: return "<i2";
    case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: return "<u2";
    default: return "|u1";
  }
}
uint64_t Count(const std::vector<uint32_t>& d) {
  uint64_t n = 1;
  for (uint32_t x : d) n *= x;
  return n;
}

bool LoadModel(const std::string& path, Loaded* l, bool relaxed) {
  std::string err;
  if (!l->file.Open(path, &err)) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return false;
  }
  auto t0 = std::chrono::steady_clock::now();
  ImportOptions options;
  options.relax_float32_to_float16 = relaxed;
  if (!ImportModelFile(l->file, options, &l->imported, &l->report, &err)) {
    std::fprintf(stderr, "nnapi: %s: %s\n", path.c_str(), err.c_str());
    if (l->report.unsupported > 1) {
      std::fprintf(stderr, "nnapi: %d unsupported operators in total; see `nnapi inspect %s`\n",
                   l->report.unsupported, path.c_str());
    }
    return false;
  }
  l->import_ms = Ms(std::chrono::steady_clock::now() - t0);
  return true;
}

namespace {

// After a failed compilation: which operations do the chosen devices (or all devices) lack?
void ReportUnsupported(const Loaded& l, const std::vector<std::string>& names) {
  std::string err;
  std::vector<DeviceInfo> all = ListDevices(&err);
  std::vector<const ANeuralNetworksDevice*> devs;
  for (const DeviceInfo& d : all) {
    if (names.empty() || std::find(names.begin(), names.end(), d.name) != names.end()) devs.push_back(d.device);
  }
  const std::vector<NnOperation>& ops = l.imported.graph().operations;
  if (devs.empty() || ops.empty()) return;
  std::unique_ptr<bool[]> sup(new bool[ops.size()]());
  if (ANeuralNetworksModel_getSupportedOperationsForDevices(l.imported.model(), devs.data(),
                                                            static_cast<uint32_t>(devs.size()), sup.get()) !=
      ANEURALNETWORKS_NO_ERROR)
    return;
  std::map<std::string, int> missing;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!sup[i]) missing[NnOperationName(ops[i].type)]++;
  }
  if (missing.empty()) return;
  std::string s;
  for (const auto& [name, n] : missing) s += (s.empty() ? "" : ", ") + name + " x" + std::to_string(n);
  std::fprintf(stderr, "nnapi: operations no %s supports: %s\n", names.empty() ? "device" : "selected device",
               s.c_str());
}

// A caching token for the model file: 32 bytes of FNV-1a over its path and size (the token
// only has to tell this model from others cached in the same directory).
std::array<uint8_t, ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN> CacheToken(const std::string& path) {
  struct stat st {};
  const uint64_t size = stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  std::array<uint8_t, ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN> token{};
  uint64_t h = 1469598103934665603ull;
  const std::string key = path + '\0' + std::to_string(size);
  for (size_t i = 0; i < token.size(); ++i) {
    for (char ch : key) h = (h ^ static_cast<uint8_t>(ch)) * 1099511628211ull;
    h = (h ^ i) * 1099511628211ull;
    token[i] = static_cast<uint8_t>(h >> 56);
  }
  return token;
}

}  // namespace

bool Compile(const Loaded& l, const std::vector<std::string>& devices, int threads, Compiled* c,
             double* ms, const std::string& cache_dir, const std::string& model_path) {
  auto t0 = std::chrono::steady_clock::now();
  int r;
  if (devices.empty()) {
    r = ANeuralNetworksCompilation_create(l.imported.model(), &c->compilation);
  } else {
    std::vector<const ANeuralNetworksDevice*> devs;
    for (const std::string& name : devices) {
      DeviceInfo d;
      std::string err;
      if (!FindDevice(name, &d, &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return false;
      }
      devs.push_back(d.device);
    }
    r = ANeuralNetworksCompilation_createForDevices(l.imported.model(), devs.data(),
                                                     static_cast<uint32_t>(devs.size()), &c->compilation);
  }
  if (r != ANEURALNETWORKS_NO_ERROR) {
    std::fprintf(stderr, "nnapi: compilation create failed: %s\n", ANNLinux_resultCodeName(r));
    return false;
  }
  ANeuralNetworksCompilation_setPreference(c->compilation, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER);
  if (threads > 0) {
    r = ANNLinux_Compilation_setCpuThreadCount(c->compilation, static_cast<uint32_t>(threads));
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: --threads %d: %s (%s)\n", threads, ANNLinux_resultCodeName(r),
                   ANNLinux_getLastErrorMessage());
      return false;
    }
  }
  if (!cache_dir.empty()) {
    const auto token = CacheToken(model_path);
    r = ANeuralNetworksCompilation_setCaching(c->compilation, cache_dir.c_str(), token.data());
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: --cache-dir %s: %s (%s)\n", cache_dir.c_str(),
                   ANNLinux_resultCodeName(r), ANNLinux_getLastErrorMessage());
      return false;
    }
  }
  r = ANeuralNetworksCompilation_finish(c->compilation);
  if (r != ANEURALNETWORKS_NO_ERROR) {
    std::fprintf(stderr, "nnapi: ANeuralNetworksCompilation_finish failed: %s\n", ANNLinux_resultCodeName(r));
    ReportUnsupported(l, devices);
    return false;
  }
  *ms = Ms(std::chrono::steady_clock::now() - t0);
  return true;
}

namespace {

void RandomFill(const NnOperand& o, std::mt19937_64& rng, std::vector<uint8_t>* buf) {
  const uint64_t n = Count(o.dims);
  buf->assign(n * ElementSize(o.type), 0);
  std::uniform_real_distribution<float> uf(-1.f, 1.f);
  for (uint64_t i = 0; i < n; ++i) {
    switch (o.type) {
      case ANEURALNETWORKS_TENSOR_FLOAT32: {
        float v = uf(rng);
        std::memcpy(buf->data() + 4 * i, &v, 4);
        break;
      }
      case ANEURALNETWORKS_TENSOR_INT32: {
        int32_t v = static_cast<int32_t>(rng() % 10);
        std::memcpy(buf->data() + 4 * i, &v, 4);
        break;
      }
      case ANEURALNETWORKS_TENSOR_FLOAT16: {
        // Values in [-1, 1): sign, exponent 14 (0.5..1) or below, random mantissa.
        uint16_t h = static_cast<uint16_t>(((rng() & 1) << 15) | ((10 + rng() % 5) << 10) | (rng() & 0x3ff));
        std::memcpy(buf->data() + 2 * i, &h, 2);
        break;
      }
      case ANEURALNETWORKS_TENSOR_BOOL8: (*buf)[i] = static_cast<uint8_t>(rng() & 1); break;
      default: {
        size_t es = ElementSize(o.type);
        for (size_t b = 0; b < es; ++b) (*buf)[i * es + b] = static_cast<uint8_t>(rng());
      }
    }
  }
}

// --image: the photo resized to the input's [1,]H,W,3 and normalised; float32 inputs get the
// values, quantized inputs the values quantized with the operand's scale and zero point.
bool FillImageInput(const Image& img, const Normalization& norm, const NnOperand& o, std::vector<uint8_t>* buf) {
  const std::vector<uint32_t>& d = o.dims;
  const bool nhwc = (d.size() == 4 && d[0] == 1 && d[3] == 3) || (d.size() == 3 && d[2] == 3);
  if (!nhwc || d[d.size() - 3] == 0 || d[d.size() - 2] == 0 || d[d.size() - 3] > 16384 || d[d.size() - 2] > 16384) {
    std::fprintf(stderr, "nnapi: --image needs an RGB input of shape [1,H,W,3]; the model's input is %s\n",
                 Dims(d).c_str());
    return false;
  }
  const int h = static_cast<int>(d[d.size() - 3]), w = static_cast<int>(d[d.size() - 2]);
  const std::vector<float> v = NormalizedPixels(ResizeBilinear(img, w, h), norm);
  switch (o.type) {
    case ANEURALNETWORKS_TENSOR_FLOAT32:
      buf->resize(v.size() * 4);
      std::memcpy(buf->data(), v.data(), buf->size());
      return true;
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: {
      const bool sgn = o.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
      const float lo = sgn ? -128.f : 0.f, hi = sgn ? 127.f : 255.f;
      buf->resize(v.size());
      for (size_t i = 0; i < v.size(); ++i) {
        const float q = std::clamp(std::nearbyint(v[i] / o.scale) + static_cast<float>(o.zero_point), lo, hi);
        (*buf)[i] = sgn ? static_cast<uint8_t>(static_cast<int8_t>(q)) : static_cast<uint8_t>(q);
      }
      return true;
    }
    default:
      std::fprintf(stderr, "nnapi: --image: input type %s is not supported (float32 or quant8 are)\n",
                   NnOperandTypeName(o.type));
      return false;
  }
}

}  // namespace

bool PrepareInputs(const Args& a, const Loaded& l, IoBuffers* io) {
  const NnGraph& g = l.imported.graph();
  const bool use_image = !a.image.empty() || a.decoded.width > 0;
  if (use_image && g.inputs.size() != 1) {
    std::fprintf(stderr, "nnapi: --image needs a model with one input; this one has %zu\n", g.inputs.size());
    return false;
  }
  if (!a.inputs.empty() && a.inputs.size() != g.inputs.size()) {
    std::fprintf(stderr, "nnapi: model has %zu inputs, %zu --input files given\n", g.inputs.size(), a.inputs.size());
    return false;
  }
  // Shapes come from the model file; refuse absurd buffer sizes instead of failing to allocate.
  constexpr uint64_t kMaxTensorBytes = uint64_t{4} << 30;
  for (uint32_t idx : g.inputs) {
    const NnOperand& o = g.operands[idx];
    if (Count(o.dims) * ElementSize(o.type) > kMaxTensorBytes) {
      std::fprintf(stderr, "nnapi: input shape %s is too large to allocate\n", Dims(o.dims).c_str());
      return false;
    }
  }
  for (uint32_t idx : g.outputs) {
    const NnOperand& o = g.operands[idx];
    if (Count(o.dims) * ElementSize(o.type) > kMaxTensorBytes) {
      std::fprintf(stderr, "nnapi: output shape %s is too large to allocate\n", Dims(o.dims).c_str());
      return false;
    }
  }
  std::mt19937_64 rng(a.seed);
  io->inputs.resize(g.inputs.size());
  for (size_t k = 0; k < g.inputs.size(); ++k) {
    const NnOperand& o = g.operands[g.inputs[k]];
    if (use_image) {
      Image img = a.decoded;
      std::string err;
      if (img.width == 0 && !ReadImage(a.image, &img, &err)) {
        std::fprintf(stderr, "nnapi: --image %s\n", err.c_str());
        return false;
      }
      if (!FillImageInput(img, a.norm, o, &io->inputs[k])) return false;
      continue;
    }
    if (a.inputs.empty()) {
      RandomFill(o, rng, &io->inputs[k]);
      continue;
    }
    NpyArray arr;
    std::string err;
    if (!ReadNpyFile(a.inputs[k], &arr, &err)) {
      std::fprintf(stderr, "nnapi: input %zu: %s\n", k, err.c_str());
      return false;
    }
    const uint64_t want = Count(o.dims);
    if (arr.element_count() != want) {
      std::fprintf(stderr, "nnapi: input %zu: %s holds %llu elements, the model expects %s = %llu\n", k,
                   a.inputs[k].c_str(), static_cast<unsigned long long>(arr.element_count()),
                   Dims(o.dims).c_str(), static_cast<unsigned long long>(want));
      return false;
    }
    if (arr.dtype == NpyDtype(o.type) || (arr.dtype.size() == 3 && arr.dtype.substr(1) == std::string(NpyDtype(o.type)).substr(1))) {
      io->inputs[k] = arr.data;
    } else if (o.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      std::vector<float> f;
      if (!NpyToFloat32(arr, &f, &err)) {
        std::fprintf(stderr, "nnapi: input %zu: %s\n", k, err.c_str());
        return false;
      }
      io->inputs[k].resize(f.size() * 4);
      std::memcpy(io->inputs[k].data(), f.data(), io->inputs[k].size());
    } else {
      std::fprintf(stderr, "nnapi: input %zu: .npy dtype %s does not match the model's %s\n", k, arr.dtype.c_str(),
                   NnOperandTypeName(o.type));
      return false;
    }
  }
  io->outputs.resize(g.outputs.size());
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const NnOperand& o = g.operands[g.outputs[k]];
    io->outputs[k].assign(Count(o.dims) * ElementSize(o.type), 0);
  }
  return true;
}

bool SetupExecution(const Compiled& c, IoBuffers* io, bool reusable, Execution* ex, bool* reused) {
  int r = ANeuralNetworksExecution_create(c.compilation, &ex->e);
  if (r != ANEURALNETWORKS_NO_ERROR) {
    std::fprintf(stderr, "nnapi: ANeuralNetworksExecution_create failed: %s\n", ANNLinux_resultCodeName(r));
    return false;
  }
  bool granted = reusable && ANeuralNetworksExecution_setReusable(ex->e, true) == ANEURALNETWORKS_NO_ERROR;
  if (reused) *reused = granted;
  for (size_t k = 0; k < io->inputs.size(); ++k) {
    r = ANeuralNetworksExecution_setInput(ex->e, static_cast<int32_t>(k), nullptr, io->inputs[k].data(),
                                          io->inputs[k].size());
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: setInput(%zu) failed: %s\n", k, ANNLinux_resultCodeName(r));
      return false;
    }
  }
  for (size_t k = 0; k < io->outputs.size(); ++k) {
    r = ANeuralNetworksExecution_setOutput(ex->e, static_cast<int32_t>(k), nullptr, io->outputs[k].data(),
                                           io->outputs[k].size());
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: setOutput(%zu) failed: %s\n", k, ANNLinux_resultCodeName(r));
      return false;
    }
  }
  return true;
}

bool RunOnce(const Args& a, Loaded* l, Compiled* c, IoBuffers* io, Execution* ex,
             double* compile_ms, double* run_ms) {
  if (!LoadModel(a.model, l, a.relaxed)) return false;
  if (!Compile(*l, a.devices, a.threads, c, compile_ms, a.cache_dir, a.model)) return false;
  if (!PrepareInputs(a, *l, io)) return false;
  if (!SetupExecution(*c, io, false, ex)) return false;
  auto t0 = std::chrono::steady_clock::now();
  int r = ANeuralNetworksExecution_compute(ex->e);
  *run_ms = Ms(std::chrono::steady_clock::now() - t0);
  if (r != ANEURALNETWORKS_NO_ERROR) {
    std::fprintf(stderr, "nnapi: ANeuralNetworksExecution_compute failed: %s\n", ANNLinux_resultCodeName(r));
    return false;
  }
  return true;
}

}  // namespace nnapi_cli
