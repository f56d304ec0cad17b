#include "cli_args.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli_common.h"

namespace nnapi_cli {
namespace {

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

}  // namespace

[[noreturn]] void Usage(const char* msg) {
  if (msg) std::fprintf(stderr, "nnapi: %s\n\n", msg);
  PrintUsage(stderr);
  std::exit(2);
}

namespace {

[[noreturn]] void Help() {
  PrintUsage(stdout);
  std::exit(0);
}

[[noreturn]] void Version() {
  PrintVersion("nnapi");
  std::exit(0);
}

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

}  // namespace

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

}  // namespace nnapi_cli
