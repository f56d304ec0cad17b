// Shared helpers for the tflite_* test suites.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tflite_builder.h"

namespace tflite_test {

// Directory holding the fetched models (scripts/fetch_models.sh), or "" when none is found.
inline std::string ModelsDir() {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("NNAPI_MODELS_DIR")) candidates.push_back(env);
#ifdef NNAPI_SOURCE_DIR
  candidates.push_back(std::string(NNAPI_SOURCE_DIR) + "/models");
#endif
  for (const char* rel : {"models", "../models", "../../models", "../../../models"}) candidates.push_back(rel);
  for (const std::string& c : candidates) {
    struct stat st;
    if (stat(c.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) return c;
  }
  return "";
}

inline std::string ModelPath(const std::string& name) {
  std::string dir = ModelsDir();
  if (dir.empty()) return "";
  std::string p = dir + "/" + name;
  struct stat st;
  return stat(p.c_str(), &st) == 0 ? p : "";
}

// input[1,4,4,2] -> CONV_2D(3x3, SAME, RELU) -> MAX_POOL_2D(2x2/2) -> RESHAPE[1,12] -> SOFTMAX
inline std::vector<uint8_t> TinyConvModel(std::vector<float>* weights_out = nullptr,
                                          std::vector<float>* bias_out = nullptr) {
  using namespace nnapi_tflite;
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 4, 4, 2}, "input");
  std::vector<float> w(3 * 3 * 3 * 2), bias = {0.1f, -0.2f, 0.3f};
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.1f;
  if (weights_out) *weights_out = w;
  if (bias_out) *bias_out = bias;
  int32_t wt = b.AddFloatConst({3, 3, 3, 2}, w, "weights");
  int32_t bt = b.AddFloatConst({3}, bias, "bias");
  int32_t c = b.AddFloatTensor({1, 4, 4, 3}, "conv");
  b.AddOperator(op::kConv2D, {in, wt, bt}, {c}, opt::kConv2D,
                TfliteBuilder::Conv2DOptions(Padding::kSame, 1, 1, Activation::kRelu));
  int32_t p = b.AddFloatTensor({1, 2, 2, 3}, "pool");
  b.AddOperator(op::kMaxPool2D, {c}, {p}, opt::kPool2D,
                TfliteBuilder::Pool2DOptions(Padding::kValid, 2, 2, 2, 2, Activation::kNone));
  int32_t shape = b.AddInt32Const({2}, {1, 12}, "shape");
  int32_t r = b.AddFloatTensor({1, 12}, "flat");
  b.AddOperator(op::kReshape, {p, shape}, {r}, opt::kReshape, TfliteBuilder::ReshapeOptions({1, 12}));
  int32_t s = b.AddFloatTensor({1, 12}, "probs");
  b.AddOperator(op::kSoftmax, {r}, {s}, opt::kSoftmax, TfliteBuilder::SoftmaxOptions(1.f));
  b.SetInputs({in});
  b.SetOutputs({s});
  return b.Finish();
}

}  // namespace tflite_test
