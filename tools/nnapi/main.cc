// nnapi: command-line front end for the NNAPI runtime and the TFLite importer.
//
//   nnapi devices
//   nnapi inspect MODEL [--verbose] [--device NAME]...
//   nnapi run MODEL [--input FILE.npy]... [--output-dir DIR] [--device NAME | --reference]
//                   [--threads N] [--seed N] [--relaxed]
//                   [--image FILE.png|jpg [--range LO,HI | --mean M --std S]]
//   nnapi bench MODEL [--threads N] [--runs N] [--warmup N] [--relaxed]
//                     [--device NAME | --reference]
//   nnapi demo face|selfie|pose IMAGE [--output DIR] [--model FILE] [--device NAME]
//
// Exit status: 0 success, 1 the command failed, 2 bad usage (see --help).
//
// Everything goes through the public NNAPI C API (libneuralnetworks).
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "demo_common.h"
#include "cli_common.h"
#include "face_detect.h"
#include "image_io.h"
#include "npy.h"
#include "tflite_importer.h"
#include "tflite_model.h"

using namespace nnapi_tflite;
using namespace nnapi_cli;

namespace {

constexpr const char* kReferenceDevice = "nnapi-cpu-reference";

const char* DeviceTypeName(int32_t t) {
  switch (t) {
    case ANEURALNETWORKS_DEVICE_OTHER: return "other";
    case ANEURALNETWORKS_DEVICE_CPU: return "cpu";
    case ANEURALNETWORKS_DEVICE_GPU: return "gpu";
    case ANEURALNETWORKS_DEVICE_ACCELERATOR: return "accelerator";
    default: return "unknown";
  }
}

std::string FeatureLevelName(int64_t fl) {
  switch (fl) {
    case 27: return "FL1 (API 27)";
    case 28: return "FL2 (API 28)";
    case 29: return "FL3 (API 29)";
    case 30: return "FL4 (API 30)";
    case 31: return "FL5 (API 31)";
    case 1000006: return "FL6";
    case 1000007: return "FL7";
    case 1000008: return "FL8";
    default: return std::to_string(fl);
  }
}

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "usage:\n"
               "  nnapi devices\n"
               "  nnapi inspect MODEL.tflite [--verbose] [--device NAME]...\n"
               "  nnapi run MODEL.tflite [--input FILE.npy]... [--output-dir DIR] [--device NAME | --reference]\n"
               "                         [--threads N] [--seed N] [--relaxed] [--image FILE [--range LO,HI | --mean M --std S]]\n"
               "  nnapi bench MODEL.tflite [--runs N] [--warmup N] [--threads N] [--relaxed] [--device NAME | --reference]\n"
               "  nnapi demo face|selfie|pose IMAGE.png|jpg [--output DIR] [--model FILE.tflite] [--device NAME]\n"
               "  nnapi --help\n"
               "  nnapi --version\n"
               "\n"
               "  devices            the runtime's feature level and its devices\n"
               "  inspect            TFLite -> NNAPI operator mapping and per-device operation support\n"
               "  run                one inference; prints each output's shape and values\n"
               "  bench              latency over --runs N (default 50) after --warmup N (default 5) runs\n"
               "  demo face          face detection (MediaPipe BlazeFace short range) on a photo: prints the faces\n"
               "                     (score, box and 6 keypoints in image pixels) and writes DIR/annotated.png and\n"
               "                     DIR/detections.json (DIR default out/face_detection; model default\n"
               "                     models/face_detection_short_range.tflite)\n"
               "  demo selfie        person segmentation (MediaPipe selfie segmentation): prints the person's share of\n"
               "                     the pixels and bounding box, writes DIR/mask.png, DIR/overlay.png (background\n"
               "                     dimmed) and DIR/segmentation.json (DIR default out/selfie_segmentation)\n"
               "  demo pose          body landmarks (MediaPipe BlazePose full): prints the 33 landmarks with their\n"
               "                     visibility, writes DIR/skeleton.png and DIR/landmarks.json (DIR default\n"
               "                     out/pose_landmarks); no person detector: the whole photo, then a re-crop\n"
               "                     around the body found\n"
               "\n"
               "  -i, --input FILE   run/bench: one .npy per model input, in order (default: random from --seed N,\n"
               "                     default 1)\n"
               "  -o, --output-dir DIR  run: also write input_K.npy and output_K.npy there (demo: same as --output)\n"
               "  --image FILE       run: a PNG or JPEG photo as the model's single NHWC input [1,H,W,3]: decoded to\n"
               "                     RGB, resized (bilinear, aspect ratio not kept) to HxW and normalised as below;\n"
               "                     quantized inputs get the normalised value quantized with the input's scale\n"
               "  --range LO,HI      run --image: map pixel 0..255 linearly to LO..HI (default 0,1; e.g. -1,1 for\n"
               "                     the MediaPipe models)\n"
               "  --mean M --std S   run --image: value = (pixel - M) / S, pixel in 0..255; M and S are one number\n"
               "                     or three (R,G,B), e.g. --mean 123.675,116.28,103.53 --std 58.395,57.12,57.375\n"
               "  --model FILE       demo: the .tflite to run instead of the default\n"
               "  -d, --device NAME  compile for this device only (inspect: may be repeated)\n"
               "  --devices A,B      inspect: compile for these devices together (createForDevices) and show the plan\n"
               "  --reference        same as --device %s (the op-by-op reference kernels)\n"
               "  -t, --threads N    CPU driver threads for this compilation (ANNLinux_Compilation_setCpuThreadCount)\n"
               "  --relaxed          run/bench: mark the model ANeuralNetworksModel_relaxComputationFloat32toFloat16\n"
               "                     (float32 arithmetic may run in float16 range and precision; what TFLite's NNAPI\n"
               "                     delegate does with allow_fp16)\n"
               "  --cache-dir DIR    run/bench: ANeuralNetworksCompilation_setCaching(DIR, token from the model path\n"
               "                     and size); drivers that cache keep their files under DIR\n"
               "  -v, --verbose      inspect: one line per TFLite operator\n"
               "  --no-progress      bench: no warmup/run progress line (shown on stderr only when stderr is\n"
               "                     a terminal)\n"
               "\n"
               "exit status:\n"
               "  0  success\n"
               "  1  the command failed: the model could not be read, imported, compiled or run, a device\n"
               "     was not found, an image could not be decoded, an output could not be written, or (inspect)\n"
               "     some operators are unsupported\n"
               "  2  bad usage\n",
               kReferenceDevice);
}

// Bad usage: the message and the usage on stderr, exit status 2.
[[noreturn]] void Usage(const char* msg = nullptr) {
  if (msg) std::fprintf(stderr, "nnapi: %s\n\n", msg);
  PrintUsage(stderr);
  std::exit(2);
}

[[noreturn]] void Help() {
  PrintUsage(stdout);
  std::exit(0);
}

[[noreturn]] void Version() {
  PrintVersion("nnapi");
  std::exit(0);
}

struct Args {
  std::string command, model;
  std::vector<std::string> inputs, devices;
  std::string output_dir, cache_dir;
  int threads = 0, runs = 50, warmup = 5;
  uint64_t seed = 1;
  bool verbose = false;
  bool runs_given = false;
  bool no_progress = false;  // bench --no-progress
  bool relaxed = false;      // run/bench --relaxed
  // Images (run --image, demo).
  std::string image, demo_model;
  std::vector<std::string> extra;  // positionals after the first (demo: the image)
  Normalization norm;
  bool range_given = false, mean_given = false, std_given = false;
  Image decoded;  // demo: the (letterboxed) image to use instead of reading --image
};

int ParseInt(const std::string& flag, const char* v, int lo) {
  char* end = nullptr;
  long x = std::strtol(v, &end, 10);
  if (!end || *end || x < lo || x > 1000000000) Usage((flag + " expects an integer >= " + std::to_string(lo)).c_str());
  return static_cast<int>(x);
}

// A comma-separated list of finite floats ("127.5" or "123.7,116.3,103.5").
std::vector<float> ParseFloats(const std::string& flag, const std::string& v) {
  std::vector<float> out;
  for (size_t p = 0; p <= v.size();) {
    size_t q = v.find(',', p);
    if (q == std::string::npos) q = v.size();
    const std::string item = v.substr(p, q - p);
    char* end = nullptr;
    const float x = std::strtof(item.c_str(), &end);
    if (item.empty() || !end || *end || !std::isfinite(x)) Usage((flag + " expects numbers separated by commas").c_str());
    out.push_back(x);
    p = q + 1;
  }
  return out;
}

// --mean/--std: one value for all channels or one per channel (R,G,B).
void SetPerChannel(const std::string& flag, const std::string& v, float* dst) {
  std::vector<float> f = ParseFloats(flag, v);
  if (f.size() != 1 && f.size() != 3) Usage((flag + " expects 1 or 3 values").c_str());
  for (int c = 0; c < 3; ++c) dst[c] = f[f.size() == 1 ? 0 : c];
}

Args ParseArgs(int argc, char** argv) {
  Args a;
  if (argc < 2) Usage();
  a.command = argv[1];
  if (a.command == "--help" || a.command == "-h" || a.command == "help") Help();
  if (a.command == "--version") Version();
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    auto val = [&]() -> const char* {
      if (i + 1 >= argc) Usage((s + " needs a value").c_str());
      return argv[++i];
    };
    if (s == "--input" || s == "-i") a.inputs.push_back(val());
    else if (s == "--output-dir" || s == "-o") a.output_dir = val();
    else if (s == "--device" || s == "-d") a.devices.push_back(val());
    else if (s == "--devices") {  // inspect: a comma-separated list, compiled for together
      std::string list = val();
      for (size_t p = 0; p <= list.size();) {
        size_t q = list.find(',', p);
        if (q == std::string::npos) q = list.size();
        if (q > p) a.devices.push_back(list.substr(p, q - p));
        p = q + 1;
      }
    }
    else if (s == "--reference") a.devices.push_back(kReferenceDevice);
    else if (s == "--threads" || s == "-t") a.threads = ParseInt(s, val(), 1);
    else if (s == "--cache-dir") a.cache_dir = val();
    else if (s == "--runs") { a.runs = ParseInt(s, val(), 1); a.runs_given = true; }
    else if (s == "--warmup") a.warmup = ParseInt(s, val(), 0);
    else if (s == "--seed") a.seed = static_cast<uint64_t>(ParseInt(s, val(), 0));
    else if (s == "--verbose" || s == "-v") a.verbose = true;
    else if (s == "--image") a.image = val();
    else if (s == "--output") a.output_dir = val();
    else if (s == "--model") a.demo_model = val();
    else if (s == "--range") {
      std::vector<float> r = ParseFloats(s, val());
      if (r.size() != 2 || !(r[0] != r[1])) Usage("--range expects LO,HI with LO != HI");
      a.norm = RangeNormalization(r[0], r[1]);
      a.range_given = true;
    }
    else if (s == "--mean") { SetPerChannel(s, val(), a.norm.mean); a.mean_given = true; }
    else if (s == "--std") {
      SetPerChannel(s, val(), a.norm.std);
      for (float x : a.norm.std) if (x == 0) Usage("--std must not be 0");
      a.std_given = true;
    }
    else if (s == "--help" || s == "-h") Help();
    else if (s == "--version") Version();
    else if (s == "--no-progress") a.no_progress = true;
    else if (s == "--relaxed") a.relaxed = true;
    else if (!s.empty() && s[0] == '-') Usage(("unknown option " + s).c_str());
    else if (a.model.empty()) a.model = s;
    else if (a.command == "demo" && a.extra.empty()) a.extra.push_back(s);
    else Usage(("unexpected argument " + s).c_str());
  }
  if (a.range_given && (a.mean_given || a.std_given)) Usage("give either --range or --mean/--std, not both");
  if (a.mean_given != a.std_given) Usage("--mean and --std go together");
  if ((a.range_given || a.mean_given) && a.image.empty() && a.command != "demo") Usage("--range/--mean/--std apply to --image");
  if (!a.image.empty() && !a.inputs.empty()) Usage("give either --image or --input");
  if (!a.image.empty() && a.command != "run") Usage("--image is for run (demo takes the image as an argument)");
  if (a.relaxed && a.command != "run" && a.command != "bench") Usage("--relaxed is for run and bench");
  return a;
}

// ---- devices -------------------------------------------------------------------------------

struct DeviceInfo {
  ANeuralNetworksDevice* device = nullptr;
  std::string name, version;
  int32_t type = 0;
  int64_t feature_level = 0;
};

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

int CmdDevices() {
  std::string err;
  std::vector<DeviceInfo> devs = ListDevices(&err);
  if (!err.empty()) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  std::printf("runtime feature level: %s\n", FeatureLevelName(ANeuralNetworks_getRuntimeFeatureLevel()).c_str());
  std::printf("%zu device(s)\n", devs.size());
  size_t w = 4;
  for (const DeviceInfo& d : devs) w = std::max(w, d.name.size());
  size_t vw = 7;
  for (const DeviceInfo& d : devs) vw = std::max(vw, d.version.size());
  std::printf("  %-*s  %-11s  %-13s  %-*s  %s\n", static_cast<int>(w), "name", "type", "feature level",
              static_cast<int>(vw), "version", "origin");
  for (const DeviceInfo& d : devs) {
    // "built-in", or the path of the driver plugin (docs/drivers.md) that provides the device.
    const char* origin = nullptr;
    if (ANNLinux_Device_getOrigin(d.device, &origin) != ANEURALNETWORKS_NO_ERROR || !origin) origin = "?";
    std::printf("  %-*s  %-11s  %-13s  %-*s  %s\n", static_cast<int>(w), d.name.c_str(), DeviceTypeName(d.type),
                FeatureLevelName(d.feature_level).c_str(), static_cast<int>(vw), d.version.c_str(), origin);
  }
  const uint32_t problems = ANNLinux_getDriverLoadProblemCount();
  if (problems > 0) {
    std::printf("%u driver plugin problem(s) (skipped):\n", problems);
    for (uint32_t i = 0; i < problems; ++i) {
      const char* p = ANNLinux_getDriverLoadProblem(i);
      std::printf("  %s\n", p ? p : "?");
    }
  }
  return 0;
}

// ---- shared model loading ------------------------------------------------------------------

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

struct Loaded {
  ModelFile file;
  ImportedModel imported;
  ImportReport report;
  double import_ms = 0;
};

bool LoadModel(const std::string& path, Loaded* l, bool relaxed = false) {
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

struct Compiled {
  ANeuralNetworksCompilation* compilation = nullptr;
  ~Compiled() {
    if (compilation) ANeuralNetworksCompilation_free(compilation);
  }
};

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

bool Compile(const Loaded& l, const std::vector<std::string>& devices, int threads, Compiled* c,
             double* ms, const std::string& cache_dir = "", const std::string& model_path = "") {
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

// Input/output buffers for one execution.
struct IoBuffers {
  std::vector<std::vector<uint8_t>> inputs, outputs;
};

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

struct Execution {
  ANeuralNetworksExecution* e = nullptr;
  ~Execution() {
    if (e) ANeuralNetworksExecution_free(e);
  }
};

// With `reusable`, asks for a reusable execution (FL5+); *reused reports whether it was granted.
bool SetupExecution(const Compiled& c, IoBuffers* io, bool reusable, Execution* ex, bool* reused = nullptr) {
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

// ---- inspect -------------------------------------------------------------------------------

// The runtime's partitioning plan (ANNLinux_Compilation_getStep*/getOperationDevice): the
// device of every operation, a line where the device changes, for a compilation over all
// devices (Compilation_create) or over `devs` (createForDevices).
void PrintPlan(const ImportedModel& im, const std::vector<NnOperation>& ops,
               const std::vector<DeviceInfo>& devs) {
  ANeuralNetworksCompilation* c = nullptr;
  std::vector<const ANeuralNetworksDevice*> list;
  for (const DeviceInfo& d : devs) list.push_back(d.device);
  int r = list.empty() ? ANeuralNetworksCompilation_create(im.model(), &c)
                       : ANeuralNetworksCompilation_createForDevices(im.model(), list.data(),
                                                                     static_cast<uint32_t>(list.size()), &c);
  if (r == ANEURALNETWORKS_NO_ERROR) {
    ANeuralNetworksCompilation_setPreference(c, ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER);
    r = ANeuralNetworksCompilation_finish(c);
  }
  std::printf("\nplan (%s):\n", list.empty() ? "Compilation_create, all devices" : "createForDevices");
  uint32_t steps = 0;
  if (r != ANEURALNETWORKS_NO_ERROR || ANNLinux_Compilation_getStepCount(c, &steps) != ANEURALNETWORKS_NO_ERROR) {
    std::printf("  compilation failed: %s: %s\n", ANNLinux_resultCodeName(r), ANNLinux_getLastErrorMessage());
    if (c) ANeuralNetworksCompilation_free(c);
    return;
  }
  auto name = [](const ANeuralNetworksDevice* d) {
    const char* n = nullptr;
    return d && ANeuralNetworksDevice_getName(d, &n) == ANEURALNETWORKS_NO_ERROR && n ? std::string(n) : std::string("?");
  };
  std::printf("  %u step(s):", steps);
  for (uint32_t k = 0; k < steps; ++k) {
    const ANeuralNetworksDevice* d = nullptr;
    ANNLinux_Compilation_getStepDevice(c, k, &d);
    std::printf("%s %s", k ? "," : "", name(d).c_str());
  }
  std::printf("\n");
  const ANeuralNetworksDevice* prev = nullptr;
  for (size_t i = 0; i < ops.size(); ++i) {
    const ANeuralNetworksDevice* d = nullptr;
    ANNLinux_Compilation_getOperationDevice(c, static_cast<uint32_t>(i), &d);
    if (i > 0 && d != prev) std::printf("  ---- %s -> %s\n", name(prev).c_str(), name(d).c_str());
    std::printf("  #%-4zu %-28s %s\n", i, NnOperationName(ops[i].type), name(d).c_str());
    prev = d;
  }
  ANeuralNetworksCompilation_free(c);
}

int CmdInspect(const Args& a) {
  ModelFile file;
  std::string err;
  if (!file.Open(a.model, &err)) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  const Model& m = file.model();
  const SubGraph& sg = m.subgraphs[0];
  std::printf("model: %s (%zu bytes, schema version %u%s%s)\n", a.model.c_str(), file.file_size(), m.version,
              m.description.empty() ? "" : ", ", m.description.c_str());
  std::printf("subgraphs: %zu; main subgraph: %zu tensors, %zu operators, %zu buffers\n", m.subgraphs.size(),
              sg.tensors.size(), sg.operators.size(), m.buffers.size());
  for (size_t k = 0; k < sg.inputs.size(); ++k) {
    const Tensor& t = sg.tensors[static_cast<size_t>(sg.inputs[k])];
    std::printf("  input  %zu: %-28s %s %s\n", k, t.name.c_str(), TensorTypeName(t.type), Dims(t.shape).c_str());
  }
  for (size_t k = 0; k < sg.outputs.size(); ++k) {
    const Tensor& t = sg.tensors[static_cast<size_t>(sg.outputs[k])];
    std::printf("  output %zu: %-28s %s %s\n", k, t.name.c_str(), TensorTypeName(t.type), Dims(t.shape).c_str());
  }

  ImportOptions opts;
  opts.allow_partial = true;
  NnGraph graph;
  ImportReport rep;
  bool complete = PlanImport(m, opts, &graph, &rep);

  // Per TFLite operator type: count and what it became.
  struct Row {
    int count = 0, unsupported = 0, folded = 0;
    std::map<std::string, int> nn;
    std::string reason;
  };
  std::map<std::string, Row> rows;
  for (const OpReport& o : rep.ops) {
    Row& r = rows[o.tflite_name];
    r.count++;
    if (o.status == OpReport::Status::kFolded) r.folded++;
    if (o.status == OpReport::Status::kUnsupported) {
      r.unsupported++;
      if (r.reason.empty()) r.reason = o.detail;
    }
    std::string seq;
    for (const std::string& n : o.nnapi_ops) seq += (seq.empty() ? "" : " + ") + n;
    if (!seq.empty()) r.nn[seq]++;
  }
  std::printf("\noperator mapping (TFLite -> NNAPI):\n");
  for (const auto& [name, r] : rows) {
    std::string to;
    for (const auto& [seq, n] : r.nn) to += (to.empty() ? "" : ", ") + seq + (n != r.count ? " x" + std::to_string(n) : "");
    if (r.folded) to += (to.empty() ? "" : ", ") + std::string("folded into constants") + (r.folded != r.count ? " x" + std::to_string(r.folded) : "");
    if (r.unsupported) to += (to.empty() ? "" : ", ") + std::string("UNSUPPORTED x") + std::to_string(r.unsupported) + ": " + r.reason;
    std::printf("  %-34s x%-4d -> %s\n", name.c_str(), r.count, to.c_str());
  }
  if (a.verbose) {
    std::printf("\nper operator:\n");
    for (const OpReport& o : rep.ops) {
      std::string seq;
      for (const std::string& n : o.nnapi_ops) seq += (seq.empty() ? "" : " + ") + n;
      const char* st = o.status == OpReport::Status::kMapped ? "" : o.status == OpReport::Status::kFolded ? "folded" : "UNSUPPORTED";
      std::printf("  #%-4d %-30s -> %s%s%s%s\n", o.index, o.tflite_name.c_str(), seq.c_str(), st,
                  o.detail.empty() ? "" : ": ", o.detail.c_str());
    }
  }
  std::printf("\nNNAPI graph: %zu operations, %zu operands, %zu inputs, %zu outputs; constants: %.2f MB referenced "
              "from the file, %.2f MB converted/owned\n",
              graph.operations.size(), graph.operands.size(), graph.inputs.size(), graph.outputs.size(),
              graph.file_const_bytes / 1048576.0, graph.owned_const_bytes / 1048576.0);
  if (!complete) {
    std::printf("import: INCOMPLETE — %d unsupported operator(s); first: %s\n", rep.unsupported,
                rep.first_error.c_str());
    if (rep.boundary_inputs || rep.boundary_outputs) {
      std::printf("        the mapped part gets %d extra input(s) and %d extra output(s) at the boundaries\n",
                  rep.boundary_inputs, rep.boundary_outputs);
    }
  } else {
    std::printf("import: complete (%zu TFLite operators: %zu mapped, %d folded)\n", rep.ops.size(),
                rep.ops.size() - static_cast<size_t>(rep.folded), rep.folded);
  }
  if (graph.operations.empty()) return complete ? 0 : 1;

  // Device support, through the runtime.
  std::vector<DeviceInfo> devs = ListDevices(&err);
  if (!err.empty()) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  if (!a.devices.empty()) {
    std::vector<DeviceInfo> chosen;
    for (const std::string& n : a.devices) {
      DeviceInfo d;
      if (!FindDevice(n, &d, &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
      chosen.push_back(d);
    }
    devs = chosen;
  }
  const size_t nops = graph.operations.size();
  std::vector<NnOperation> ops_copy = graph.operations;
  ImportedModel im;
  if (!BuildNnapiModel(std::move(graph), file.fd(), file.file_size(), &im, &err)) {
    std::printf("\ndevice support: unavailable — the runtime rejected the model: %s\n", err.c_str());
    return 1;
  }
  std::printf("\ndevice support (ANeuralNetworksModel_getSupportedOperationsForDevices):\n");
  std::vector<bool> any(nops, false);
  for (const DeviceInfo& d : devs) {
    std::unique_ptr<bool[]> sup(new bool[nops]());
    const ANeuralNetworksDevice* dp = d.device;
    int r = ANeuralNetworksModel_getSupportedOperationsForDevices(im.model(), &dp, 1, sup.get());
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::printf("  %s: query failed: %s\n", d.name.c_str(), ANNLinux_resultCodeName(r));
      continue;
    }
    size_t n = 0, partitions = 0;
    std::map<std::string, int> missing;
    for (size_t i = 0; i < nops; ++i) {
      if (sup[i]) {
        ++n;
        any[i] = true;
        if (i == 0 || !sup[i - 1]) ++partitions;
      } else {
        missing[NnOperationName(ops_copy[i].type)]++;
      }
    }
    // Runs of supported operations in execution order go to the device; each gap needs another
    // device, so the plan alternates between them.
    size_t gaps = 0;
    for (size_t i = 0; i < nops; ++i) {
      if (!sup[i] && (i == 0 || sup[i - 1])) ++gaps;
    }
    std::printf("  %-24s %zu/%zu operations supported; estimated partitions: %zu on this device + %zu elsewhere\n",
                d.name.c_str(), n, nops, partitions, gaps);
    if (!missing.empty()) {
      std::string s;
      for (const auto& [name, c] : missing) s += (s.empty() ? "" : ", ") + name + " x" + std::to_string(c);
      std::printf("  %-24s unsupported: %s\n", "", s.c_str());
    }
  }
  size_t none = 0;
  for (bool b : any) none += !b;
  if (none) std::printf("  %zu operation(s) are supported by none of the listed devices\n", none);
  PrintPlan(im, ops_copy, a.devices.empty() ? std::vector<DeviceInfo>() : devs);
  return complete ? 0 : 1;
}

// ---- run -----------------------------------------------------------------------------------

std::string ValuesPreview(const NnOperand& o, const std::vector<uint8_t>& buf, double* mn, double* mx, double* mean) {
  const uint64_t n = buf.size() / ElementSize(o.type);
  auto at = [&](uint64_t i) -> double {
    switch (o.type) {
      case ANEURALNETWORKS_TENSOR_FLOAT32: { float v; std::memcpy(&v, buf.data() + 4 * i, 4); return v; }
      case ANEURALNETWORKS_TENSOR_INT32: { int32_t v; std::memcpy(&v, buf.data() + 4 * i, 4); return v; }
      case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM: return (buf[i] - o.zero_point) * static_cast<double>(o.scale);
      case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED: return (static_cast<int8_t>(buf[i]) - o.zero_point) * static_cast<double>(o.scale);
      case ANEURALNETWORKS_TENSOR_BOOL8: return buf[i] ? 1 : 0;
      default: return buf[i];
    }
  };
  *mn = INFINITY;
  *mx = -INFINITY;
  double sum = 0;
  for (uint64_t i = 0; i < n; ++i) {
    double v = at(i);
    *mn = std::min(*mn, v);
    *mx = std::max(*mx, v);
    sum += v;
  }
  *mean = n ? sum / static_cast<double>(n) : 0;
  std::string s;
  for (uint64_t i = 0; i < std::min<uint64_t>(n, 6); ++i) {
    char b[32];
    std::snprintf(b, sizeof(b), "%s%.6g", i ? ", " : "", at(i));
    s += b;
  }
  if (n > 6) s += ", ...";
  return s;
}

// Loads, compiles and runs the model of `a` once on its inputs (run and demo share it).
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

int CmdRun(const Args& a) {
  Loaded l;
  Compiled c;
  IoBuffers io;
  Execution ex;
  double compile_ms = 0, run_ms = 0;
  if (!RunOnce(a, &l, &c, &io, &ex, &compile_ms, &run_ms)) return 1;
  const NnGraph& g = l.imported.graph();
  const SubGraph& sg = l.file.model().subgraphs[0];
  std::printf("model: %s\ndevice: %s\nimport %.1f ms, compile %.1f ms, inference %.2f ms\n", a.model.c_str(),
              a.devices.empty() ? "(runtime's choice)" : a.devices[0].c_str(), l.import_ms, compile_ms, run_ms);
  std::printf("inputs: %s\n", !a.image.empty() ? ("image " + a.image).c_str()
                               : a.inputs.empty() ? ("deterministic random (seed " + std::to_string(a.seed) + ")").c_str()
                                                  : "from .npy files");
  if (!a.output_dir.empty()) {
    if (!MakeDirectories(a.output_dir)) {
      fprintf(stderr, "nnapi: cannot create output directory %s: %s\n", a.output_dir.c_str(),
              strerror(errno));
      return 1;
    }
    // The inputs are saved too, so a run with random inputs can be replayed elsewhere.
    for (size_t k = 0; k < g.inputs.size(); ++k) {
      const NnOperand& o = g.operands[g.inputs[k]];
      std::string path = a.output_dir + "/input_" + std::to_string(k) + ".npy", err;
      std::vector<uint64_t> shape(o.dims.begin(), o.dims.end());
      if (!WriteNpyFile(path, NpyDtype(o.type), shape, io.inputs[k].data(), io.inputs[k].size(), &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
    }
  }
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const NnOperand& o = g.operands[g.outputs[k]];
    std::vector<uint32_t> dims = o.dims;
    uint32_t rank = 0;
    if (ANeuralNetworksExecution_getOutputOperandRank(ex.e, static_cast<int32_t>(k), &rank) == ANEURALNETWORKS_NO_ERROR &&
        rank == dims.size() && rank > 0) {
      ANeuralNetworksExecution_getOutputOperandDimensions(ex.e, static_cast<int32_t>(k), dims.data());
    }
    double mn, mx, mean;
    std::string preview = ValuesPreview(o, io.outputs[k], &mn, &mx, &mean);
    std::string name = k < sg.outputs.size() ? sg.tensors[static_cast<size_t>(sg.outputs[k])].name : "";
    std::printf("output %zu %s: %s %s  min %.6g max %.6g mean %.6g\n  [%s]\n", k, name.c_str(),
                NnOperandTypeName(o.type), Dims(dims).c_str(), mn, mx, mean, preview.c_str());
    if (!a.output_dir.empty()) {
      std::string path = a.output_dir + "/output_" + std::to_string(k) + ".npy";
      std::vector<uint64_t> shape(dims.begin(), dims.end());
      std::string err;
      if (!WriteNpyFile(path, NpyDtype(o.type), shape, io.outputs[k].data(), io.outputs[k].size(), &err)) {
        std::fprintf(stderr, "nnapi: %s\n", err.c_str());
        return 1;
      }
      std::printf("  -> %s\n", path.c_str());
    }
  }
  return 0;
}

// ---- bench ---------------------------------------------------------------------------------

struct Stats {
  double min = 0, max = 0, avg = 0, std = 0, median = 0, p90 = 0;
};
Stats Summarize(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  double sum = 0;
  for (double x : v) sum += x;
  s.avg = sum / static_cast<double>(v.size());
  double var = 0;
  for (double x : v) var += (x - s.avg) * (x - s.avg);
  s.std = std::sqrt(var / static_cast<double>(v.size()));
  auto pct = [&](double p) {
    double idx = p * static_cast<double>(v.size() - 1);
    size_t lo = static_cast<size_t>(idx);
    size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
  };
  s.median = pct(0.5);
  s.p90 = pct(0.9);
  return s;
}

// bench: "warmup [#####     ] 3/5 0:01" on stderr when it is a terminal (cli_common.h).
class Progress {
 public:
  Progress(const char* label, int total, bool enabled) : label_(label), total_(total), line_(enabled) {}
  void Update(int done) {
    if (!line_.active()) return;
    const int width = 30;
    int filled = total_ ? done * width / total_ : width;
    char text[128];
    std::snprintf(text, sizeof text, "%s [%.*s%*s] %d/%d %s", label_, filled, "##############################",
                  width - filled, "", done, total_, FormatElapsed(line_.Elapsed()).c_str());
    line_.Show(text, done == total_);
  }
  void Done() { line_.Clear(); }

 private:
  const char* label_;
  int total_;
  TerminalProgress line_;
};

int CmdBench(const Args& a) {
  auto t_init = std::chrono::steady_clock::now();
  Loaded l;
  if (!LoadModel(a.model, &l, a.relaxed)) return 1;
  Compiled c;
  double compile_ms = 0;
  if (!Compile(l, a.devices, a.threads, &c, &compile_ms, a.cache_dir, a.model)) return 1;
  double init_ms = Ms(std::chrono::steady_clock::now() - t_init);
  IoBuffers io;
  if (!PrepareInputs(a, l, &io)) return 1;
  Execution ex;
  bool reusable = false;
  if (!SetupExecution(c, &io, true, &ex, &reusable)) return 1;

  std::printf("STARTING!\n");
  std::printf("Graph: [%s]\n", a.model.c_str());
  std::printf("Device: [%s]\n", a.devices.empty() ? "runtime default" : a.devices[0].c_str());
  std::printf("Num threads: [%s]\n", a.threads > 0 ? std::to_string(a.threads).c_str() : "driver default");
  if (a.relaxed) std::printf("Relaxed: [float32 computed in float16 allowed]\n");
  std::printf("Min num runs: [%d]\nNum warmup runs: [%d]\n", a.runs, a.warmup);
  std::printf("Loaded model %s\n", a.model.c_str());
  std::printf("The input model file size (MB): %.4f\n", l.file.file_size() / 1e6);
  std::printf("Initialized session in %.3fms (import %.3fms, compile %.3fms).\n", init_ms, l.import_ms, compile_ms);

  bool first = true;
  auto run_once = [&](double* ms) -> bool {
    // Without reusable executions each run needs a fresh one; creating it is not timed.
    if (!first && !reusable) {
      Execution fresh;
      if (!SetupExecution(c, &io, false, &fresh)) return false;
      std::swap(ex.e, fresh.e);
    }
    first = false;
    auto t0 = std::chrono::steady_clock::now();
    int r = ANeuralNetworksExecution_compute(ex.e);
    *ms = Ms(std::chrono::steady_clock::now() - t0);
    if (r != ANEURALNETWORKS_NO_ERROR) {
      std::fprintf(stderr, "nnapi: ANeuralNetworksExecution_compute failed: %s\n", ANNLinux_resultCodeName(r));
      return false;
    }
    return true;
  };

  std::vector<double> warm;
  Progress pw("warmup", a.warmup, !a.no_progress);
  for (int i = 0; i < a.warmup; ++i) {
    double ms;
    if (!run_once(&ms)) return 1;
    warm.push_back(ms);
    pw.Update(i + 1);
  }
  pw.Done();
  std::vector<double> times;
  Progress pr("benchmark", a.runs, !a.no_progress);
  for (int i = 0; i < a.runs; ++i) {
    double ms;
    if (!run_once(&ms)) return 1;
    times.push_back(ms);
    pr.Update(i + 1);
  }
  pr.Done();
  auto us = [](double ms) { return static_cast<long long>(std::llround(ms * 1000.0)); };
  if (!warm.empty()) {
    Stats w = Summarize(warm);
    std::printf("count=%zu first=%lld curr=%lld min=%lld max=%lld avg=%.0f std=%lld\n", warm.size(), us(warm.front()),
                us(warm.back()), us(w.min), us(w.max), w.avg * 1000.0, us(w.std));
  }
  Stats s = Summarize(times);
  std::printf("count=%zu first=%lld curr=%lld min=%lld max=%lld avg=%.0f std=%lld\n", times.size(), us(times.front()),
              us(times.back()), us(s.min), us(s.max), s.avg * 1000.0, us(s.std));
  std::printf("Latency (ms): min=%.3f median=%.3f p90=%.3f max=%.3f avg=%.3f\n", s.min, s.median, s.p90, s.max, s.avg);
  std::printf("Inference timings in us: Init: %lld, First inference: %lld, Warmup (avg): %.0f, Inference (avg): %.0f\n",
              us(init_ms), us(warm.empty() ? times.front() : warm.front()),
              warm.empty() ? 0.0 : Summarize(warm).avg * 1000.0, s.avg * 1000.0);
  return 0;
}

// ---- demo face -----------------------------------------------------------------------------

// Pads the image to a centred square (black borders), as MediaPipe's face detection graph does
// to keep the aspect ratio; *pad_x/*pad_y receive the left/top padding.
Image Letterbox(const Image& img, int* pad_x, int* pad_y) {
  const int side = std::max(img.width, img.height);
  *pad_x = (side - img.width) / 2;
  *pad_y = (side - img.height) / 2;
  if (side == img.width && side == img.height) return img;
  Image sq;
  sq.width = sq.height = side;
  sq.rgb.assign(static_cast<size_t>(side) * side * 3, 0);
  for (int y = 0; y < img.height; ++y) {
    std::memcpy(&sq.rgb[(static_cast<size_t>(y + *pad_y) * side + *pad_x) * 3],
                &img.rgb[static_cast<size_t>(y) * img.width * 3], static_cast<size_t>(img.width) * 3);
  }
  return sq;
}

int CmdDemoFace(const Args& in) {
  if (in.extra.size() != 1) Usage("demo face needs an IMAGE (PNG or JPEG)");
  Args a = in;
  a.image = in.extra[0];
  a.model = a.demo_model.empty() ? DefaultModelPath("models/face_detection_short_range.tflite") : a.demo_model;
  if (a.output_dir.empty()) a.output_dir = "out/face_detection";
  if (!a.range_given && !a.mean_given) a.norm = RangeNormalization(-1.f, 1.f);  // the model wants RGB in [-1,1]
  Image photo;
  std::string err;
  if (!ReadImage(a.image, &photo, &err)) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  int pad_x = 0, pad_y = 0;
  a.decoded = Letterbox(photo, &pad_x, &pad_y);
  const float side = static_cast<float>(a.decoded.width);

  Loaded l;
  Compiled c;
  IoBuffers io;
  Execution ex;
  double compile_ms = 0, run_ms = 0;
  if (!RunOnce(a, &l, &c, &io, &ex, &compile_ms, &run_ms)) return 1;

  // The outputs by shape: regressors [1,896,16] and scores [1,896,1], both float32.
  const std::vector<Anchor> anchors = BlazeFaceShortRangeAnchors();
  const NnGraph& g = l.imported.graph();
  const float* regressors = nullptr;
  const float* scores = nullptr;
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const NnOperand& o = g.operands[g.outputs[k]];
    if (o.type != ANEURALNETWORKS_TENSOR_FLOAT32 || o.dims.empty()) continue;
    const uint64_t n = Count(o.dims);
    const float* p = reinterpret_cast<const float*>(io.outputs[k].data());
    if (o.dims.back() == 16 && n == anchors.size() * 16) regressors = p;
    if (o.dims.back() == 1 && n == anchors.size()) scores = p;
  }
  if (!regressors || !scores) {
    std::fprintf(stderr, "nnapi: %s does not look like BlazeFace short range: expected float32 outputs "
                 "[1,%zu,16] and [1,%zu,1]\n", a.model.c_str(), anchors.size(), anchors.size());
    return 1;
  }
  BlazeFaceParams params;
  std::vector<FaceDetection> raw = DecodeBlazeFace(regressors, scores, anchors, params);
  std::vector<FaceDetection> faces = WeightedNonMaxSuppression(raw, params.min_suppression_iou);

  // Normalised square coordinates -> pixels of the original photo.
  auto px = [&](float v) { return v * side - static_cast<float>(pad_x); };
  auto py = [&](float v) { return v * side - static_cast<float>(pad_y); };
  static const char* const kKeypointNames[kFaceKeypoints] = {"right_eye", "left_eye", "nose_tip",
                                                             "mouth", "right_ear", "left_ear"};
  std::printf("face detection: %s on %s (%dx%d)\n", a.model.c_str(), a.image.c_str(), photo.width, photo.height);
  std::printf("device: %s; compile %.1f ms, inference %.2f ms\n",
              a.devices.empty() ? "(runtime's choice)" : a.devices[0].c_str(), compile_ms, run_ms);
  std::printf("%zu face%s (score >= %.2f; %zu raw detections merged by weighted NMS, IoU %.1f):\n", faces.size(),
              faces.size() == 1 ? "" : "s", params.min_score, raw.size(), params.min_suppression_iou);
  std::string json = "{\n  \"image\": " + JsonString(a.image) + ",\n  \"width\": " + std::to_string(photo.width) +
                     ",\n  \"height\": " + std::to_string(photo.height) + ",\n  \"faces\": [";
  Image annotated = photo;
  for (size_t i = 0; i < faces.size(); ++i) {
    const FaceDetection& f = faces[i];
    const float x0 = px(f.xmin), y0 = py(f.ymin), x1 = px(f.xmax), y1 = py(f.ymax);
    std::printf("  face %zu: score %.3f  box x %.1f..%.1f y %.1f..%.1f (centre %.1f,%.1f size %.1fx%.1f)\n", i,
                f.score, x0, x1, y0, y1, (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0);
    char buf[256];
    std::snprintf(buf, sizeof(buf), "%s\n    {\"score\": %.4f, \"box\": [%.2f, %.2f, %.2f, %.2f], \"keypoints\": {",
                  i ? "," : "", f.score, x0, y0, x1, y1);
    json += buf;
    DrawRect(&annotated, x0, y0, x1, y1, 3.f, Rgb{0, 255, 0});
    std::printf("   ");
    for (int k = 0; k < kFaceKeypoints; ++k) {
      const float kx = px(f.keypoints[k][0]), ky = py(f.keypoints[k][1]);
      std::printf(" %s (%.1f,%.1f)", kKeypointNames[k], kx, ky);
      std::snprintf(buf, sizeof(buf), "%s\"%s\": [%.2f, %.2f]", k ? ", " : "", kKeypointNames[k], kx, ky);
      json += buf;
      DrawDot(&annotated, kx, ky, 4.f, Rgb{255, 0, 0});
    }
    std::printf("\n");
    json += "}}";
  }
  json += faces.empty() ? "]\n}\n" : "\n  ]\n}\n";

  if (!MakeDirectories(a.output_dir)) {
    std::fprintf(stderr, "nnapi: cannot create output directory %s: %s\n", a.output_dir.c_str(), strerror(errno));
    return 1;
  }
  const std::string png = a.output_dir + "/annotated.png", js = a.output_dir + "/detections.json";
  if (!WritePng(png, annotated, &err)) {
    std::fprintf(stderr, "nnapi: %s\n", err.c_str());
    return 1;
  }
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(js.c_str(), "w"), &std::fclose);
  if (!f || std::fwrite(json.data(), 1, json.size(), f.get()) != json.size()) {
    std::fprintf(stderr, "nnapi: cannot write %s: %s\n", js.c_str(), strerror(errno));
    return 1;
  }
  std::printf("annotated image: %s\ndetections: %s\n", png.c_str(), js.c_str());
  return 0;
}

// ---- demo selfie / pose (issue 11 item 4; the demos themselves are in demo_commands.cc) ------

// The DemoRunner of demo_common.h: one load, compile and run of `model` on `input` through the
// same path as `nnapi run --image`, with the device/threads/cache options of `base`.
bool RunDemoModel(const Args& base, const std::string& model, const Image& input, const Normalization& norm,
                  DemoRun* out) {
  Args a = base;
  a.model = model;
  a.decoded = input;
  a.norm = norm;
  Loaded l;
  Compiled c;
  IoBuffers io;
  Execution ex;
  if (!RunOnce(a, &l, &c, &io, &ex, &out->compile_ms, &out->run_ms)) return false;
  const NnGraph& g = l.imported.graph();
  const std::vector<uint32_t>& in = g.operands[g.inputs[0]].dims;  // [1,H,W,3]: checked by PrepareInputs
  out->input_height = static_cast<int>(in[in.size() - 3]);
  out->input_width = static_cast<int>(in[in.size() - 2]);
  out->outputs.clear();
  for (size_t k = 0; k < g.outputs.size(); ++k) {
    const NnOperand& o = g.operands[g.outputs[k]];
    DemoTensor t;
    t.dims = o.dims;
    if (o.type == ANEURALNETWORKS_TENSOR_FLOAT32) {
      t.values.resize(io.outputs[k].size() / 4);
      std::memcpy(t.values.data(), io.outputs[k].data(), t.values.size() * 4);
    }
    out->outputs.push_back(std::move(t));
  }
  return true;
}

int CmdDemoSelfieOrPose(const Args& a) {
  if (a.extra.size() != 1) Usage(("demo " + a.model + " needs an IMAGE (PNG or JPEG)").c_str());
  DemoOptions o;
  o.image = a.extra[0];
  o.model = a.demo_model;
  o.output_dir = a.output_dir;
  o.device = a.devices.empty() ? "" : a.devices[0];
  o.norm_given = a.range_given || a.mean_given;
  o.norm = a.norm;
  DemoRunner run = [&a](const std::string& model, const Image& input, const Normalization& norm, DemoRun* out) {
    return RunDemoModel(a, model, input, norm, out);
  };
  return a.model == "selfie" ? RunSelfieDemo(o, run) : RunPoseDemo(o, run);
}

}  // namespace

int main(int argc, char** argv) {
  Args a = ParseArgs(argc, argv);
  if (a.command == "devices") {
    if (!a.model.empty()) Usage("devices takes no model");
    return CmdDevices();
  }
  if (a.command == "demo") {
    if (a.model != "face" && a.model != "selfie" && a.model != "pose")
      Usage("demo: the demos are face, selfie and pose (nnapi demo face IMAGE)");
    if (a.devices.size() > 1) Usage("give at most one --device (or --reference)");
    return a.model == "face" ? CmdDemoFace(a) : CmdDemoSelfieOrPose(a);
  }
  if (a.command != "inspect" && a.command != "run" && a.command != "bench") Usage(("unknown command " + a.command).c_str());
  if (a.model.empty()) Usage((a.command + " needs a MODEL.tflite").c_str());
  if (a.devices.size() > 1 && a.command != "inspect") Usage("give at most one --device (or --reference)");
  if (a.command == "inspect") return CmdInspect(a);
  if (a.command == "run") return CmdRun(a);
  return CmdBench(a);
}
