// What the picture-in / picture-out demos (`nnapi demo face|selfie|pose`, demo_commands.cc) share
// with main.cc: main.cc owns model loading and execution over the public NNAPI C API (through
// session.h) and hands the demos a DemoRunner; the demos own pre- and post-processing. Also the
// small file helpers every demo needs (output directory, JSON strings, default model paths).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "image_io.h"

namespace nnapi_cli {

struct DemoTensor {
  std::vector<uint32_t> dims;
  std::vector<float> values;
};

struct DemoRun {
  int input_width = 0, input_height = 0;  // the model's [1,H,W,3] input
  std::vector<DemoTensor> outputs;        // every output, in the model's order (float32 only)
  double compile_ms = 0, run_ms = 0;
};

// Loads and compiles `model` (on the device the user chose), runs it once with `input` resized
// (bilinear, aspect ratio not kept) to the model's input and normalised with `norm`. On failure
// the reason has been printed on stderr.
using DemoRunner =
    std::function<bool(const std::string& model, const Image& input, const Normalization& norm, DemoRun* out)>;

struct DemoOptions {
  std::string image;       // the photo (PNG or JPEG)
  std::string model;       // empty: the demo's default model
  std::string output_dir;  // empty: the demo's default directory
  std::string device;      // for the printed summary only; the runner applies it
  bool norm_given = false;  // --range/--mean/--std: replaces the model's documented [0,1]
  Normalization norm;
};

// `nnapi demo face`, `nnapi demo selfie` and `nnapi demo pose` (demo_commands.cc). Exit status 0 or 1.
int RunFaceDemo(const DemoOptions& options, const DemoRunner& run);
int RunSelfieDemo(const DemoOptions& options, const DemoRunner& run);
int RunPoseDemo(const DemoOptions& options, const DemoRunner& run);

// models/NAME under the working directory, else next to the source tree the binary was built in
// (build/bin/nnapi -> ../../models/NAME); `relative` itself if neither exists (the load error
// then names it).
std::string DefaultModelPath(const std::string& relative);
// mkdir -p: creates every missing component of `path`.
bool MakeDirectories(const std::string& path);
// A JSON string literal (quotes, backslashes and control characters escaped).
std::string JsonString(const std::string& s);
// Writes `text` to `path`; false with *error set on failure.
bool WriteTextFile(const std::string& path, const std::string& text, std::string* error);

}  // namespace nnapi_cli
