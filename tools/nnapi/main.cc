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
//
// The commands live in cmd_*.cc and demo_commands.cc, what they share (loading, compiling,
// inputs, running) in session.cc, the options in cli_args.cc.
#include <android/NeuralNetworks.h>
#include <android/NeuralNetworksDiagnostics.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cli_args.h"
#include "commands.h"
#include "demo_common.h"
#include "session.h"

using namespace nnapi_tflite;
using namespace nnapi_cli;

namespace {

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

}  // namespace

namespace nnapi_cli {

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

}  // namespace nnapi_cli

namespace {

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

// `nnapi demo face|selfie|pose IMAGE`: the demo named where other commands take the model.
int CmdDemo(const Args& a) {
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
  if (a.model == "face") return RunFaceDemo(o, run);
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
    return CmdDemo(a);
  }
  if (a.command != "inspect" && a.command != "run" && a.command != "bench") Usage(("unknown command " + a.command).c_str());
  if (a.model.empty()) Usage((a.command + " needs a MODEL.tflite").c_str());
  if (a.devices.size() > 1 && a.command != "inspect") Usage("give at most one --device (or --reference)");
  if (a.command == "inspect") return CmdInspect(a);
  if (a.command == "run") return CmdRun(a);
  return CmdBench(a);
}
