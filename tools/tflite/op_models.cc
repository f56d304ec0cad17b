// tflite_op_models OUTDIR: writes one small .tflite model per importer mapping case (operator +
// options variant), for checking the TFLite -> NNAPI mapping end to end against TensorFlow Lite
// itself (scripts/tflite_op_check.sh runs each through `nnapi run` and the TFLite reference).
//
// Inputs of every model are float32 (the CLI fills them with values in [-1, 1)); integer
// parameters such as axes, shapes or indices are constants. Cases are limited to what the
// TensorFlow Lite reference build accepts: it rejects CONV_2D without bias and CONCATENATION
// with a fused activation, and its kernels ignore a fused TANH (which the importer applies as a
// TANH operation, as the schema describes); those paths are covered by tests/tflite_*_test.cc.
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tflite_builder.h"

using namespace nnapi_tflite;

namespace {

std::mt19937 g_rng(11);

std::vector<float> Rand(size_t n, float scale = 1.f) {
  std::uniform_real_distribution<float> u(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = u(g_rng);
  return v;
}
size_t Count(const std::vector<int32_t>& s) {
  size_t n = 1;
  for (int32_t d : s) n *= static_cast<size_t>(d);
  return n;
}

// The MediaPipe weight pattern: a float16 constant of `shape` (random values in (-1, 1)) read
// through DEQUANTIZE; returns the float32 tensor the DEQUANTIZE writes.
int32_t HalfFilterThroughDequantize(TfliteBuilder& b, const std::vector<int32_t>& shape) {
  std::vector<uint16_t> wh;
  for (float f : Rand(Count(shape))) {
    // Truncating float32 -> float16 conversion for normal values in (-1, 1).
    uint32_t u;
    std::memcpy(&u, &f, 4);
    uint32_t sign = (u >> 16) & 0x8000u;
    int32_t e = static_cast<int32_t>((u >> 23) & 0xff) - 127 + 15;
    wh.push_back(e <= 0 ? static_cast<uint16_t>(sign)
                        : static_cast<uint16_t>(sign | (static_cast<uint32_t>(e) << 10) | ((u >> 13) & 0x3ff)));
  }
  TfliteBuilder::TensorSpec h;
  h.shape = shape;
  h.type = TensorType::kFloat16;
  h.buffer = b.AddBuffer(wh);
  h.name = "w16";
  int32_t w16 = b.AddTensor(h);
  int32_t w = b.AddFloatTensor(shape, "w");
  b.AddOperator(op::kDequantize, {w16}, {w});
  return w;
}

FbRef Table(std::function<void(FbNode&)> fill) {
  FbRef t = FbNode::Table();
  fill(*t);
  return t;
}

// Quantized tensor helpers (per-tensor unless several scales are given).
int32_t QTensor(TfliteBuilder& b, std::vector<int32_t> shape, TensorType type, std::vector<float> scale,
                std::vector<int64_t> zp, const std::string& name, uint32_t buffer = 0, int32_t qdim = 0) {
  TfliteBuilder::TensorSpec s;
  s.shape = std::move(shape);
  s.type = type;
  s.scale = std::move(scale);
  s.zero_point = std::move(zp);
  s.name = name;
  s.buffer = buffer;
  s.quantized_dimension = qdim;
  return b.AddTensor(s);
}
std::vector<int8_t> RandI8(size_t n) {
  std::uniform_int_distribution<int> u(-127, 127);
  std::vector<int8_t> v(n);
  for (int8_t& x : v) x = static_cast<int8_t>(u(g_rng));
  return v;
}
std::vector<int32_t> RandI32(size_t n, int lim) {
  std::uniform_int_distribution<int> u(-lim, lim);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = u(g_rng);
  return v;
}

struct Case {
  std::string name;
  std::function<void(TfliteBuilder&)> build;
};

// x -> op -> y for elementwise unary operators.
Case Unary(const std::string& name, int32_t code, std::vector<int32_t> shape = {1, 3, 4, 5}) {
  return {name, [=](TfliteBuilder& b) {
            int32_t x = b.AddFloatTensor(shape, "x");
            int32_t y = b.AddFloatTensor(shape, "y");
            b.AddOperator(code, {x}, {y});
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

// Two float inputs (second possibly broadcast) -> op with an optional fused activation.
Case Binary(const std::string& name, int32_t code, uint8_t opt_type, Activation act,
            std::vector<int32_t> shape_b = {1, 3, 4, 5}) {
  return {name, [=](TfliteBuilder& b) {
            int32_t x = b.AddFloatTensor({1, 3, 4, 5}, "x");
            int32_t z = b.AddFloatTensor(shape_b, "z");
            int32_t y = b.AddFloatTensor({1, 3, 4, 5}, "y");
            if (opt_type) {
              b.AddOperator(code, {x, z}, {y}, opt_type, TfliteBuilder::ActivationOptions(act));
            } else {
              b.AddOperator(code, {x, z}, {y});
            }
            b.SetInputs({x, z});
            b.SetOutputs({y});
          }};
}

Case Conv(const std::string& name, Padding pad, int stride, int k, Activation act, int dilation, bool bias) {
  return {name, [=](TfliteBuilder& b) {
            const int H = 9, W = 8, C = 3, O = 4;
            int eff = (k - 1) * dilation + 1;
            int OH = pad == Padding::kSame ? (H + stride - 1) / stride : (H - eff) / stride + 1;
            int OW = pad == Padding::kSame ? (W + stride - 1) / stride : (W - eff) / stride + 1;
            int32_t x = b.AddFloatTensor({1, H, W, C}, "x");
            int32_t w = b.AddFloatConst({O, k, k, C}, Rand(static_cast<size_t>(O * k * k * C)), "w");
            int32_t bi = bias ? b.AddFloatConst({O}, Rand(O), "b") : -1;
            int32_t y = b.AddFloatTensor({1, OH, OW, O}, "y");
            b.AddOperator(op::kConv2D, {x, w, bi}, {y}, opt::kConv2D,
                          TfliteBuilder::Conv2DOptions(pad, stride, stride, act, dilation, dilation));
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

Case Depthwise(const std::string& name, Padding pad, int stride, int mult, Activation act) {
  return {name, [=](TfliteBuilder& b) {
            const int H = 7, W = 9, C = 3, k = 3;
            int OH = pad == Padding::kSame ? (H + stride - 1) / stride : (H - k) / stride + 1;
            int OW = pad == Padding::kSame ? (W + stride - 1) / stride : (W - k) / stride + 1;
            int32_t x = b.AddFloatTensor({1, H, W, C}, "x");
            int32_t w = b.AddFloatConst({1, k, k, C * mult}, Rand(static_cast<size_t>(k * k * C * mult)), "w");
            int32_t bi = b.AddFloatConst({C * mult}, Rand(static_cast<size_t>(C * mult)), "b");
            int32_t y = b.AddFloatTensor({1, OH, OW, C * mult}, "y");
            b.AddOperator(op::kDepthwiseConv2D, {x, w, bi}, {y}, opt::kDepthwiseConv2D,
                          TfliteBuilder::DepthwiseOptions(pad, stride, stride, mult, act));
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

Case Pool(const std::string& name, int32_t code, Padding pad, int stride, int k, Activation act) {
  return {name, [=](TfliteBuilder& b) {
            const int H = 9, W = 7, C = 3;
            int OH = pad == Padding::kSame ? (H + stride - 1) / stride : (H - k) / stride + 1;
            int OW = pad == Padding::kSame ? (W + stride - 1) / stride : (W - k) / stride + 1;
            int32_t x = b.AddFloatTensor({1, H, W, C}, "x");
            int32_t y = b.AddFloatTensor({1, OH, OW, C}, "y");
            b.AddOperator(code, {x}, {y}, opt::kPool2D, TfliteBuilder::Pool2DOptions(pad, stride, stride, k, k, act));
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

Case Resize(const std::string& name, int32_t code, bool align, bool half) {
  return {name, [=](TfliteBuilder& b) {
            int32_t x = b.AddFloatTensor({1, 5, 7, 2}, "x");
            int32_t size = b.AddInt32Const({2}, {9, 12}, "size");
            int32_t y = b.AddFloatTensor({1, 9, 12, 2}, "y");
            FbRef o = code == op::kResizeBilinear
                          ? TfliteBuilder::ResizeBilinearOptions(align, half)
                          : Table([&](FbNode& t) { t.Set<uint8_t>(0, align).Set<uint8_t>(1, half); });
            b.AddOperator(code, {x, size}, {y},
                          code == op::kResizeBilinear ? opt::kResizeBilinear : opt::kResizeNearestNeighbor, o);
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

Case Reduce(const std::string& name, int32_t code, std::vector<int32_t> axes, bool keep,
            std::vector<int32_t> out_shape) {
  return {name, [=](TfliteBuilder& b) {
            int32_t x = b.AddFloatTensor({2, 3, 4, 5}, "x");
            int32_t ax = b.AddInt32Const({static_cast<int32_t>(axes.size())}, axes, "axes");
            int32_t y = b.AddFloatTensor(out_shape, "y");
            b.AddOperator(code, {x, ax}, {y}, opt::kReducer, TfliteBuilder::ReducerOptions(keep));
            b.SetInputs({x});
            b.SetOutputs({y});
          }};
}

std::vector<Case> Cases() {
  std::vector<Case> c;
  // Elementwise.
  c.push_back(Binary("add_relu6_broadcast", op::kAdd, opt::kAdd, Activation::kRelu6, {1, 1, 1, 5}));
  c.push_back(Binary("sub_relu", op::kSub, opt::kSub, Activation::kRelu));
  c.push_back(Binary("mul_relu_n1_to_1", op::kMul, opt::kMul, Activation::kReluN1To1, {1, 3, 1, 5}));
  c.push_back(Binary("maximum", op::kMaximum, 0, Activation::kNone));
  c.push_back(Binary("minimum", op::kMinimum, 0, Activation::kNone));
  c.push_back(Binary("squared_difference", op::kSquaredDifference, 0, Activation::kNone));
  c.push_back(Binary("prelu", op::kPrelu, 0, Activation::kNone, {1, 1, 1, 5}));
  for (auto [n, code] : std::vector<std::pair<std::string, int32_t>>{
           {"logistic", op::kLogistic}, {"tanh", op::kTanh}, {"relu", op::kRelu}, {"relu6", op::kRelu6},
           {"relu_n1_to_1", op::kReluN1To1}, {"hard_swish", op::kHardSwish}, {"exp", op::kExp},
           {"abs", op::kAbs}, {"neg", op::kNeg}, {"floor", op::kFloor}, {"square", op::kSquare},
           {"elu", op::kElu}, {"sin", op::kSin}}) {
    c.push_back(Unary(n, code));
  }
  c.push_back({"leaky_relu", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 7}, "x");
                 int32_t y = b.AddFloatTensor({2, 7}, "y");
                 b.AddOperator(op::kLeakyRelu, {x}, {y}, opt::kLeakyRelu, Table([](FbNode& t) { t.Set<float>(0, 0.2f); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  // Convolutions and pooling.
  c.push_back(Conv("conv_same_s1_k3_relu", Padding::kSame, 1, 3, Activation::kRelu, 1, true));
  c.push_back(Conv("conv_same_s2_k3", Padding::kSame, 2, 3, Activation::kNone, 1, true));
  c.push_back(Conv("conv_valid_s2_k2", Padding::kValid, 2, 2, Activation::kRelu6, 1, true));
  c.push_back(Conv("conv_same_dilation2", Padding::kSame, 1, 3, Activation::kNone, 2, true));
  c.push_back(Conv("conv_valid_dilation2", Padding::kValid, 1, 3, Activation::kRelu, 2, true));
  c.push_back(Depthwise("depthwise_same_s1", Padding::kSame, 1, 1, Activation::kRelu));
  c.push_back(Depthwise("depthwise_same_s2_mult2", Padding::kSame, 2, 2, Activation::kNone));
  c.push_back(Depthwise("depthwise_valid_s1_mult3", Padding::kValid, 1, 3, Activation::kRelu6));
  c.push_back(Pool("max_pool_same_s2_k3", op::kMaxPool2D, Padding::kSame, 2, 3, Activation::kNone));
  c.push_back(Pool("max_pool_valid_s2_k2", op::kMaxPool2D, Padding::kValid, 2, 2, Activation::kRelu));
  c.push_back(Pool("avg_pool_same_s2_k3", op::kAveragePool2D, Padding::kSame, 2, 3, Activation::kNone));
  c.push_back(Pool("avg_pool_valid_s1_k2", op::kAveragePool2D, Padding::kValid, 1, 2, Activation::kNone));
  c.push_back(Pool("l2_pool_valid_s1_k2", op::kL2Pool2D, Padding::kValid, 1, 2, Activation::kNone));
  c.push_back({"fully_connected", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 10}, "x");
                 int32_t w = b.AddFloatConst({6, 10}, Rand(60), "w");
                 int32_t bi = b.AddFloatConst({6}, Rand(6), "b");
                 int32_t y = b.AddFloatTensor({3, 6}, "y");
                 b.AddOperator(op::kFullyConnected, {x, w, bi}, {y}, opt::kFullyConnected,
                               TfliteBuilder::ActivationOptions(Activation::kRelu));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"fully_connected_keep_num_dims", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 3, 8}, "x");
                 int32_t w = b.AddFloatConst({5, 8}, Rand(40), "w");
                 int32_t y = b.AddFloatTensor({2, 3, 5}, "y");
                 b.AddOperator(op::kFullyConnected, {x, w, -1}, {y}, opt::kFullyConnected,
                               Table([](FbNode& t) { t.Set<int8_t>(0, 0).Set<uint8_t>(2, 1); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"transpose_conv_same", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 4, 5, 3}, "x");
                 int32_t shp = b.AddInt32Const({4}, {1, 8, 10, 2}, "shape");
                 int32_t w = b.AddFloatConst({2, 3, 3, 3}, Rand(54), "w");
                 int32_t bi = b.AddFloatConst({2}, Rand(2), "b");
                 int32_t y = b.AddFloatTensor({1, 8, 10, 2}, "y");
                 b.AddOperator(op::kTransposeConv, {shp, w, x, bi}, {y}, opt::kTransposeConv,
                               Table([](FbNode& t) { t.Set<int8_t>(0, 0).Set<int32_t>(1, 2).Set<int32_t>(2, 2); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  // Shape manipulation.
  c.push_back({"concatenation_axis_neg1", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 2, 3, 4}, "x");
                 int32_t z = b.AddFloatTensor({1, 2, 3, 2}, "z");
                 int32_t y = b.AddFloatTensor({1, 2, 3, 6}, "y");
                 b.AddOperator(op::kConcatenation, {x, z}, {y}, opt::kConcatenation,
                               TfliteBuilder::ConcatenationOptions(-1, Activation::kNone));
                 b.SetInputs({x, z});
                 b.SetOutputs({y});
               }});
  c.push_back({"reshape", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 3, 4}, "x");
                 int32_t s = b.AddInt32Const({2}, {4, -1}, "s");
                 int32_t y = b.AddFloatTensor({4, 6}, "y");
                 b.AddOperator(op::kReshape, {x, s}, {y}, opt::kReshape, TfliteBuilder::ReshapeOptions({4, -1}));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"softmax_beta", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 7}, "x");
                 int32_t y = b.AddFloatTensor({3, 7}, "y");
                 b.AddOperator(op::kSoftmax, {x}, {y}, opt::kSoftmax, TfliteBuilder::SoftmaxOptions(2.5f));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back(Unary("log_softmax", op::kLogSoftmax, {3, 7}));
  c.push_back(Unary("l2_normalization", op::kL2Normalization, {2, 3, 8}));
  c.push_back({"pad", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 3, 4, 2}, "x");
                 int32_t p = b.AddInt32Const({4, 2}, {0, 0, 1, 2, 2, 1, 0, 1}, "p");
                 int32_t y = b.AddFloatTensor({1, 6, 7, 3}, "y");
                 b.AddOperator(op::kPad, {x, p}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"padv2", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 3, 4, 2}, "x");
                 int32_t p = b.AddInt32Const({4, 2}, {0, 0, 1, 0, 0, 2, 0, 0}, "p");
                 int32_t v = b.AddFloatConst({}, {-3.5f}, "v");
                 int32_t y = b.AddFloatTensor({1, 4, 6, 2}, "y");
                 b.AddOperator(op::kPadV2, {x, p, v}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back(Resize("resize_bilinear", op::kResizeBilinear, false, false));
  c.push_back(Resize("resize_bilinear_align_corners", op::kResizeBilinear, true, false));
  c.push_back(Resize("resize_bilinear_half_pixel", op::kResizeBilinear, false, true));
  c.push_back(Resize("resize_nearest", op::kResizeNearestNeighbor, false, false));
  c.push_back(Resize("resize_nearest_half_pixel", op::kResizeNearestNeighbor, false, true));
  c.push_back(Reduce("mean_hw_keep", op::kMean, {1, 2}, true, {2, 1, 1, 5}));
  c.push_back(Reduce("mean_last", op::kMean, {-1}, false, {2, 3, 4}));
  c.push_back(Reduce("sum_axis0", op::kSum, {0}, false, {3, 4, 5}));
  c.push_back(Reduce("reduce_max", op::kReduceMax, {1, 3}, true, {2, 1, 4, 1}));
  c.push_back(Reduce("reduce_min", op::kReduceMin, {2}, false, {2, 3, 5}));
  c.push_back({"transpose", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 3, 4}, "x");
                 int32_t p = b.AddInt32Const({3}, {2, 0, 1}, "perm");
                 int32_t y = b.AddFloatTensor({4, 2, 3}, "y");
                 b.AddOperator(op::kTranspose, {x, p}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"squeeze", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 3, 1, 4}, "x");
                 int32_t y = b.AddFloatTensor({3, 4}, "y");
                 b.AddOperator(op::kSqueeze, {x}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"expand_dims", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 4}, "x");
                 int32_t a = b.AddInt32Const({1}, {1}, "axis");
                 int32_t y = b.AddFloatTensor({3, 1, 4}, "y");
                 b.AddOperator(op::kExpandDims, {x, a}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"strided_slice_masks", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({4, 6, 5}, "x");
                 int32_t bg = b.AddInt32Const({3}, {1, 0, 4}, "begin");
                 int32_t en = b.AddInt32Const({3}, {3, 5, 0}, "end");
                 int32_t st = b.AddInt32Const({3}, {1, 2, -1}, "strides");
                 int32_t y = b.AddFloatTensor({2, 3, 4}, "y");
                 // begin_mask on dim 1, end mask none; dim 2 walks backwards from 4 down to 1.
                 b.AddOperator(op::kStridedSlice, {x, bg, en, st}, {y}, opt::kStridedSlice,
                               Table([](FbNode& t) { t.Set<int32_t>(0, 2).Set<int32_t>(1, 0); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"slice", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({4, 6}, "x");
                 int32_t bg = b.AddInt32Const({2}, {1, 2}, "begin");
                 int32_t sz = b.AddInt32Const({2}, {2, -1}, "size");
                 int32_t y = b.AddFloatTensor({2, 4}, "y");
                 b.AddOperator(op::kSlice, {x, bg, sz}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"gather_axis1", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 5, 2}, "x");
                 int32_t idx = b.AddInt32Const({4}, {4, 0, 2, 2}, "idx");
                 int32_t y = b.AddFloatTensor({3, 4, 2}, "y");
                 b.AddOperator(op::kGather, {x, idx}, {y}, opt::kGather, Table([](FbNode& t) { t.Set<int32_t>(0, 1); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"split", [](TfliteBuilder& b) {
                 int32_t a = b.AddInt32Const({}, {2}, "axis");
                 int32_t x = b.AddFloatTensor({2, 3, 6}, "x");
                 int32_t y0 = b.AddFloatTensor({2, 3, 2}, "y0");
                 int32_t y1 = b.AddFloatTensor({2, 3, 2}, "y1");
                 int32_t y2 = b.AddFloatTensor({2, 3, 2}, "y2");
                 b.AddOperator(op::kSplit, {a, x}, {y0, y1, y2}, opt::kSplit, Table([](FbNode& t) { t.Set<int32_t>(0, 3); }));
                 b.SetInputs({x});
                 b.SetOutputs({y0, y1, y2});
               }});
  c.push_back({"split_v", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 7}, "x");
                 int32_t s = b.AddInt32Const({3}, {1, 4, 2}, "sizes");
                 int32_t a = b.AddInt32Const({}, {1}, "axis");
                 int32_t y0 = b.AddFloatTensor({2, 1}, "y0");
                 int32_t y1 = b.AddFloatTensor({2, 4}, "y1");
                 int32_t y2 = b.AddFloatTensor({2, 2}, "y2");
                 b.AddOperator(op::kSplitV, {x, s, a}, {y0, y1, y2}, opt::kSplitV, Table([](FbNode& t) { t.Set<int32_t>(0, 3); }));
                 b.SetInputs({x});
                 b.SetOutputs({y0, y1, y2});
               }});
  c.push_back({"unpack", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 2, 4}, "x");
                 int32_t y0 = b.AddFloatTensor({3, 4}, "y0");
                 int32_t y1 = b.AddFloatTensor({3, 4}, "y1");
                 b.AddOperator(op::kUnpack, {x}, {y0, y1}, opt::kUnpack,
                               Table([](FbNode& t) { t.Set<int32_t>(0, 2).Set<int32_t>(1, 1); }));
                 b.SetInputs({x});
                 b.SetOutputs({y0, y1});
               }});
  c.push_back({"pack", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 4}, "x");
                 int32_t z = b.AddFloatTensor({3, 4}, "z");
                 int32_t y = b.AddFloatTensor({3, 2, 4}, "y");
                 b.AddOperator(op::kPack, {x, z}, {y}, opt::kPack,
                               Table([](FbNode& t) { t.Set<int32_t>(0, 2).Set<int32_t>(1, 1); }));
                 b.SetInputs({x, z});
                 b.SetOutputs({y});
               }});
  c.push_back({"tile", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 3}, "x");
                 int32_t m = b.AddInt32Const({2}, {2, 3}, "mult");
                 int32_t y = b.AddFloatTensor({4, 9}, "y");
                 b.AddOperator(op::kTile, {x, m}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"space_to_depth", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 4, 6, 2}, "x");
                 int32_t y = b.AddFloatTensor({1, 2, 3, 8}, "y");
                 b.AddOperator(op::kSpaceToDepth, {x}, {y}, opt::kSpaceToDepth, Table([](FbNode& t) { t.Set<int32_t>(0, 2); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"depth_to_space", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({1, 2, 3, 8}, "x");
                 int32_t y = b.AddFloatTensor({1, 4, 6, 2}, "y");
                 b.AddOperator(op::kDepthToSpace, {x}, {y}, opt::kDepthToSpace, Table([](FbNode& t) { t.Set<int32_t>(0, 2); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"batch_matmul_adj_y", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({2, 3, 4}, "x");
                 int32_t z = b.AddFloatTensor({2, 5, 4}, "z");
                 int32_t y = b.AddFloatTensor({2, 3, 5}, "y");
                 b.AddOperator(op::kBatchMatMul, {x, z}, {y}, opt::kBatchMatMul,
                               Table([](FbNode& t) { t.Set<uint8_t>(0, 0).Set<uint8_t>(1, 1); }));
                 b.SetInputs({x, z});
                 b.SetOutputs({y});
               }});
  c.push_back({"arg_max_int32", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 7}, "x");
                 int32_t a = b.AddInt32Const({1}, {1}, "axis");
                 TfliteBuilder::TensorSpec s;
                 s.shape = {3};
                 s.type = TensorType::kInt32;
                 s.name = "y";
                 int32_t y = b.AddTensor(s);
                 b.AddOperator(op::kArgMax, {x, a}, {y}, opt::kArgMax,
                               Table([](FbNode& t) { t.Set<int8_t>(0, static_cast<int8_t>(TensorType::kInt32)); }));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"dequantize_fp16_weights_conv", [](TfliteBuilder& b) {
                 // The MediaPipe pattern: float16 constant -> DEQUANTIZE -> CONV_2D weights.
                 int32_t w = HalfFilterThroughDequantize(b, {2, 3, 3, 3});
                 int32_t x = b.AddFloatTensor({1, 5, 5, 3}, "x");
                 int32_t bi = b.AddFloatConst({2}, Rand(2), "b");
                 int32_t y = b.AddFloatTensor({1, 5, 5, 2}, "y");
                 b.AddOperator(op::kConv2D, {x, w, bi}, {y}, opt::kConv2D,
                               TfliteBuilder::Conv2DOptions(Padding::kSame, 1, 1, Activation::kNone));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"dequantize_fp16_weights_conv1x1", [](TfliteBuilder& b) {
                 // The same with a 1x1 filter: kept float16 behind a CAST at import, which the
                 // CPU driver fuses into the convolution (ImportOptions::half_conv_filters).
                 int32_t w = HalfFilterThroughDequantize(b, {40, 1, 1, 8});
                 int32_t x = b.AddFloatTensor({1, 6, 6, 8}, "x");
                 int32_t bi = b.AddFloatConst({40}, Rand(40), "b");
                 int32_t y = b.AddFloatTensor({1, 6, 6, 40}, "y");
                 b.AddOperator(op::kConv2D, {x, w, bi}, {y}, opt::kConv2D,
                               TfliteBuilder::Conv2DOptions(Padding::kSame, 1, 1, Activation::kRelu));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  // Quantized (int8 with per-channel weights as the TFLite converter writes them, and uint8).
  c.push_back({"q_int8_conv_per_channel", [](TfliteBuilder& b) {
                 const int O = 4, C = 3;
                 int32_t x = QTensor(b, {1, 6, 6, C}, TensorType::kInt8, {0.02f}, {-3}, "x");
                 std::vector<float> ws = {0.004f, 0.006f, 0.003f, 0.005f};
                 int32_t w = QTensor(b, {O, 3, 3, C}, TensorType::kInt8, ws, {0, 0, 0, 0}, "w",
                                     b.AddBuffer(RandI8(O * 9 * C)), 0);
                 std::vector<float> bs;
                 for (float f : ws) bs.push_back(0.02f * f);
                 int32_t bi = QTensor(b, {O}, TensorType::kInt32, bs, {0, 0, 0, 0}, "b", b.AddBuffer(RandI32(O, 2000)), 0);
                 int32_t y = QTensor(b, {1, 3, 3, O}, TensorType::kInt8, {0.05f}, {5}, "y");
                 b.AddOperator(op::kConv2D, {x, w, bi}, {y}, opt::kConv2D,
                               TfliteBuilder::Conv2DOptions(Padding::kSame, 2, 2, Activation::kRelu));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_int8_depthwise_per_channel", [](TfliteBuilder& b) {
                 const int C = 4;
                 int32_t x = QTensor(b, {1, 5, 5, C}, TensorType::kInt8, {0.03f}, {2}, "x");
                 std::vector<float> ws = {0.01f, 0.02f, 0.015f, 0.005f};
                 int32_t w = QTensor(b, {1, 3, 3, C}, TensorType::kInt8, ws, {0, 0, 0, 0}, "w",
                                     b.AddBuffer(RandI8(9 * C)), 3);
                 std::vector<float> bs;
                 for (float f : ws) bs.push_back(0.03f * f);
                 int32_t bi = QTensor(b, {C}, TensorType::kInt32, bs, {0, 0, 0, 0}, "b", b.AddBuffer(RandI32(C, 500)), 0);
                 int32_t y = QTensor(b, {1, 5, 5, C}, TensorType::kInt8, {0.08f}, {-10}, "y");
                 b.AddOperator(op::kDepthwiseConv2D, {x, w, bi}, {y}, opt::kDepthwiseConv2D,
                               TfliteBuilder::DepthwiseOptions(Padding::kSame, 1, 1, 1, Activation::kNone));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_int8_fully_connected", [](TfliteBuilder& b) {
                 int32_t x = QTensor(b, {2, 16}, TensorType::kInt8, {0.05f}, {1}, "x");
                 int32_t w = QTensor(b, {5, 16}, TensorType::kInt8, {0.01f}, {0}, "w", b.AddBuffer(RandI8(80)));
                 int32_t bi = QTensor(b, {5}, TensorType::kInt32, {0.0005f}, {0}, "b", b.AddBuffer(RandI32(5, 3000)));
                 int32_t y = QTensor(b, {2, 5}, TensorType::kInt8, {0.1f}, {-4}, "y");
                 b.AddOperator(op::kFullyConnected, {x, w, bi}, {y}, opt::kFullyConnected,
                               TfliteBuilder::ActivationOptions(Activation::kNone));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_uint8_add", [](TfliteBuilder& b) {
                 int32_t x = QTensor(b, {1, 4, 4, 3}, TensorType::kUInt8, {0.02f}, {128}, "x");
                 int32_t z = QTensor(b, {1, 4, 4, 3}, TensorType::kUInt8, {0.03f}, {100}, "z");
                 int32_t y = QTensor(b, {1, 4, 4, 3}, TensorType::kUInt8, {0.04f}, {120}, "y");
                 b.AddOperator(op::kAdd, {x, z}, {y}, opt::kAdd, TfliteBuilder::ActivationOptions(Activation::kNone));
                 b.SetInputs({x, z});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_uint8_avg_pool", [](TfliteBuilder& b) {
                 int32_t x = QTensor(b, {1, 6, 6, 2}, TensorType::kUInt8, {0.02f}, {128}, "x");
                 int32_t y = QTensor(b, {1, 3, 3, 2}, TensorType::kUInt8, {0.02f}, {128}, "y");
                 b.AddOperator(op::kAveragePool2D, {x}, {y}, opt::kPool2D,
                               TfliteBuilder::Pool2DOptions(Padding::kValid, 2, 2, 2, 2, Activation::kNone));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_int8_softmax", [](TfliteBuilder& b) {
                 int32_t x = QTensor(b, {2, 10}, TensorType::kInt8, {0.1f}, {0}, "x");
                 int32_t y = QTensor(b, {2, 10}, TensorType::kInt8, {1.f / 256}, {-128}, "y");
                 b.AddOperator(op::kSoftmax, {x}, {y}, opt::kSoftmax, TfliteBuilder::SoftmaxOptions(1.f));
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  c.push_back({"q_quantize_dequantize", [](TfliteBuilder& b) {
                 int32_t x = b.AddFloatTensor({3, 8}, "x");
                 int32_t q = QTensor(b, {3, 8}, TensorType::kInt8, {0.01f}, {3}, "q");
                 int32_t y = b.AddFloatTensor({3, 8}, "y");
                 b.AddOperator(op::kQuantize, {x}, {q});
                 b.AddOperator(op::kDequantize, {q}, {y});
                 b.SetInputs({x});
                 b.SetOutputs({y});
               }});
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  mkdir(dir.c_str(), 0755);
  int n = 0;
  for (const Case& c : Cases()) {
    TfliteBuilder b;
    c.build(b);
    std::vector<uint8_t> bytes = b.Finish();
    std::string path = dir + "/" + c.name + ".tflite";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
      std::fprintf(stderr, "%s: cannot write\n", path.c_str());
      if (f) std::fclose(f);
      return 1;
    }
    std::fclose(f);
    ++n;
  }
  std::printf("wrote %d models to %s\n", n, dir.c_str());
  return 0;
}
