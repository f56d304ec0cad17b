// `nnapi` command line: the options of every command (Args), their parsing and the usage text.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image_io.h"

namespace nnapi_cli {

// The device name `--reference` stands for (the op-by-op reference kernels).
constexpr const char* kReferenceDevice = "nnapi-cpu-reference";

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

// Parses argv; prints the usage and exits with status 2 on bad usage, 0 for --help/--version.
Args ParseArgs(int argc, char** argv);

// Bad usage: the message and the usage on stderr, exit status 2.
[[noreturn]] void Usage(const char* msg = nullptr);

}  // namespace nnapi_cli
