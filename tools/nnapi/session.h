// What every `nnapi` command shares, over the public NNAPI C API: device lookup, loading a
// .tflite through the importer, compiling it for the chosen devices, filling inputs (random,
// .npy or a photo) and running it.
#pragma once

#include <android/NeuralNetworks.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "cli_args.h"
#include "tflite_importer.h"
#include "tflite_model.h"

namespace nnapi_cli {

struct DeviceInfo {
  ANeuralNetworksDevice* device = nullptr;
  std::string name, version;
  int32_t type = 0;
  int64_t feature_level = 0;
};

// Every device the runtime lists; on failure *error is set and the list is empty.
std::vector<DeviceInfo> ListDevices(std::string* error);
bool FindDevice(const std::string& name, DeviceInfo* out, std::string* error);

std::string Dims(const std::vector<uint32_t>& d);
std::string Dims(const std::vector<int32_t>& d);
double Ms(std::chrono::steady_clock::duration d);
size_t ElementSize(int32_t type);
const char* NpyDtype(int32_t type);  // the .npy dtype of an NNAPI tensor type
uint64_t Count(const std::vector<uint32_t>& d);

struct Loaded {
  nnapi_tflite::ModelFile file;
  nnapi_tflite::ImportedModel imported;
  nnapi_tflite::ImportReport report;
  double import_ms = 0;
};

// Opens and imports the .tflite (relaxed: relaxComputationFloat32toFloat16). Errors are printed.
bool LoadModel(const std::string& path, Loaded* l, bool relaxed = false);

struct Compiled {
  ANeuralNetworksCompilation* compilation = nullptr;
  Compiled() = default;
  Compiled(const Compiled&) = delete;
  Compiled& operator=(const Compiled&) = delete;
  ~Compiled() {
    if (compilation) ANeuralNetworksCompilation_free(compilation);
  }
};

// Compiles for `devices` (empty: the runtime's choice) with `threads` CPU threads (0: the
// driver's default) and, with a cache_dir, caching keyed by model_path. Errors are printed,
// with the operations no chosen device supports when finish fails.
bool Compile(const Loaded& l, const std::vector<std::string>& devices, int threads, Compiled* c, double* ms,
             const std::string& cache_dir = "", const std::string& model_path = "");

// Input/output buffers for one execution.
struct IoBuffers {
  std::vector<std::vector<uint8_t>> inputs, outputs;
};

// The inputs of `a` (--image or the demo's decoded photo, --input .npy files, or random from
// --seed) and zeroed outputs of the model's shapes. Errors are printed.
bool PrepareInputs(const Args& a, const Loaded& l, IoBuffers* io);

struct Execution {
  ANeuralNetworksExecution* e = nullptr;
  Execution() = default;
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;
  ~Execution() {
    if (e) ANeuralNetworksExecution_free(e);
  }
};

// With `reusable`, asks for a reusable execution (FL5+); *reused reports whether it was granted.
bool SetupExecution(const Compiled& c, IoBuffers* io, bool reusable, Execution* ex, bool* reused = nullptr);

// Loads, compiles and runs the model of `a` once on its inputs (run and the demos share it).
bool RunOnce(const Args& a, Loaded* l, Compiled* c, IoBuffers* io, Execution* ex, double* compile_ms,
             double* run_ms);

}  // namespace nnapi_cli
