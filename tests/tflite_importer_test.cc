// TFLite -> NnGraph planning (no NNAPI runtime needed) and .npy I/O.
#include <android/NeuralNetworks.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

#include "half_convert.h"
#include "npy.h"
#include "tflite_builder.h"
#include "tflite_importer.h"
#include "tflite_test_util.h"

using namespace nnapi_tflite;

namespace {

struct Planned {
  std::vector<uint8_t> bytes;
  Model model;
  NnGraph graph;
  ImportReport report;
  bool ok = false;
};

void Plan(std::vector<uint8_t> bytes, Planned* p, bool partial = false) {
  p->bytes = std::move(bytes);
  std::string err;
  ASSERT_TRUE(ParseModel(p->bytes.data(), p->bytes.size(), &p->model, &err)) << err;
  ImportOptions o;
  o.allow_partial = partial;
  p->ok = PlanImport(p->model, o, &p->graph, &p->report);
}

std::vector<std::string> OpNames(const NnGraph& g) {
  std::vector<std::string> v;
  for (const NnOperation& op : g.operations) v.push_back(NnOperationName(op.type));
  return v;
}

template <typename T>
T Scalar(const NnGraph& g, uint32_t operand) {
  const NnOperand& o = g.operands[operand];
  EXPECT_EQ(o.lifetime, NnOperand::Lifetime::kConstOwned);
  T v{};
  const auto& d = *g.owned[static_cast<size_t>(o.owned)];
  EXPECT_EQ(d.size(), sizeof(T));
  std::memcpy(&v, d.data(), sizeof(T));
  return v;
}

TEST(TfliteImporter, ConvPoolReshapeSoftmax) {
  Planned p;
  Plan(tflite_test::TinyConvModel(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"CONV_2D", "MAX_POOL_2D", "RESHAPE", "SOFTMAX"}));

  const NnOperation& conv = p.graph.operations[0];
  ASSERT_EQ(conv.inputs.size(), 7u);  // implicit-padding signature, no dilation
  EXPECT_EQ(Scalar<int32_t>(p.graph, conv.inputs[3]), ANEURALNETWORKS_PADDING_SAME);
  EXPECT_EQ(Scalar<int32_t>(p.graph, conv.inputs[4]), 1);
  EXPECT_EQ(Scalar<int32_t>(p.graph, conv.inputs[6]), ANEURALNETWORKS_FUSED_RELU);
  // Weights are referenced from the file, not copied.
  const NnOperand& w = p.graph.operands[conv.inputs[1]];
  EXPECT_EQ(w.lifetime, NnOperand::Lifetime::kConstFile);
  EXPECT_EQ(w.dims, (std::vector<uint32_t>{3, 3, 3, 2}));
  const Buffer& wb = p.model.buffers[p.model.subgraphs[0].tensors[1].buffer];
  EXPECT_EQ(w.file_offset, wb.offset);
  EXPECT_EQ(w.length, wb.size);

  const NnOperation& pool = p.graph.operations[1];
  ASSERT_EQ(pool.inputs.size(), 7u);
  EXPECT_EQ(Scalar<int32_t>(p.graph, pool.inputs[1]), ANEURALNETWORKS_PADDING_VALID);
  EXPECT_EQ(Scalar<int32_t>(p.graph, pool.inputs[4]), 2);

  const NnOperation& sm = p.graph.operations[3];
  EXPECT_FLOAT_EQ(Scalar<float>(p.graph, sm.inputs[1]), 1.f);

  ASSERT_EQ(p.graph.inputs.size(), 1u);
  ASSERT_EQ(p.graph.outputs.size(), 1u);
  EXPECT_EQ(p.graph.operands[p.graph.inputs[0]].lifetime, NnOperand::Lifetime::kInput);
  EXPECT_EQ(p.graph.operands[p.graph.outputs[0]].dims, (std::vector<uint32_t>{1, 12}));
  ASSERT_EQ(p.report.ops.size(), 4u);
  EXPECT_EQ(p.report.ops[0].nnapi_ops, std::vector<std::string>{"CONV_2D"});
}

TEST(TfliteImporter, FoldsFloat16Dequantize) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 3}, "x");
  TfliteBuilder::TensorSpec h;
  h.shape = {1, 3};
  h.type = TensorType::kFloat16;
  std::vector<uint16_t> half = {0x3c00, 0xc100, 0x3555};  // 1.0, -2.5, ~0.3333
  h.buffer = b.AddBuffer(half);
  h.name = "w16";
  int32_t w16 = b.AddTensor(h);
  int32_t w = b.AddFloatTensor({1, 3}, "w");
  b.AddOperator(op::kDequantize, {w16}, {w});
  int32_t y = b.AddFloatTensor({1, 3}, "y");
  b.AddOperator(op::kAdd, {in, w}, {y}, opt::kAdd, TfliteBuilder::ActivationOptions(Activation::kTanh));
  b.SetInputs({in});
  b.SetOutputs({y});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  // DEQUANTIZE vanished; TANH is not a FuseCode so it follows the ADD as its own operation.
  EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"ADD", "TANH"}));
  EXPECT_EQ(p.report.folded, 1);
  EXPECT_EQ(p.report.ops[0].status, OpReport::Status::kFolded);
  const NnOperand& c = p.graph.operands[p.graph.operations[0].inputs[1]];
  ASSERT_EQ(c.type, ANEURALNETWORKS_TENSOR_FLOAT32);
  ASSERT_EQ(c.lifetime, NnOperand::Lifetime::kConstOwned);
  std::vector<float> vals(3);
  std::memcpy(vals.data(), p.graph.owned[static_cast<size_t>(c.owned)]->data(), 12);
  EXPECT_FLOAT_EQ(vals[0], 1.0f);
  EXPECT_FLOAT_EQ(vals[1], -2.5f);
  EXPECT_NEAR(vals[2], 1.f / 3.f, 1e-3f);
  EXPECT_EQ(Scalar<int32_t>(p.graph, p.graph.operations[0].inputs[2]), ANEURALNETWORKS_FUSED_NONE);
}

// A float16 1x1 CONV_2D filter stays a float16 constant read from the file, widened by a CAST
// (which the CPU driver fuses into the convolution); read by anything else too, it is folded.
// (Filters with 1-2 output channels are folded too: the driver's direct kernel reads float32.)
TEST(TfliteImporter, KeepsFloat16OneByOneConvFilter) {
  for (bool alsoAdded : {false, true}) {
    TfliteBuilder b;
    int32_t in = b.AddFloatTensor({1, 2, 2, 2}, "x");
    TfliteBuilder::TensorSpec h;
    h.shape = {4, 1, 1, 2};
    h.type = TensorType::kFloat16;
    h.buffer = b.AddBuffer(std::vector<uint16_t>{0x3c00, 0xc100, 0x3555, 0x0001, 0x3c00, 0x8001, 0x7bff, 0x0400});
    h.name = "w16";
    int32_t w16 = b.AddTensor(h);
    int32_t w = b.AddFloatTensor({4, 1, 1, 2}, "w");
    b.AddOperator(op::kDequantize, {w16}, {w});
    int32_t y = b.AddFloatTensor({1, 2, 2, 4}, "y");
    b.AddOperator(op::kConv2D, {in, w}, {y}, opt::kConv2D,
                  TfliteBuilder::Conv2DOptions(Padding::kSame, 1, 1, Activation::kNone));
    std::vector<int32_t> outs = {y};
    if (alsoAdded) {
      int32_t z = b.AddFloatTensor({4, 1, 1, 2}, "z");
      b.AddOperator(op::kAdd, {w, w}, {z}, opt::kAdd, TfliteBuilder::ActivationOptions(Activation::kNone));
      outs.push_back(z);
    }
    b.SetInputs({in});
    b.SetOutputs(outs);
    Planned p;
    Plan(b.Finish(), &p);
    ASSERT_TRUE(p.ok) << p.report.first_error;
    if (alsoAdded) {
      EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"CONV_2D", "ADD"}));
      EXPECT_EQ(p.report.folded, 1);
      EXPECT_EQ(p.graph.operands[p.graph.operations[0].inputs[1]].type, ANEURALNETWORKS_TENSOR_FLOAT32);
      continue;
    }
    EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"CAST", "CONV_2D"}));
    EXPECT_EQ(p.report.folded, 0);
    const NnOperand& c = p.graph.operands[p.graph.operations[0].inputs[0]];
    EXPECT_EQ(c.type, ANEURALNETWORKS_TENSOR_FLOAT16);
    EXPECT_EQ(c.lifetime, NnOperand::Lifetime::kConstFile);
    EXPECT_EQ(p.graph.operations[1].inputs[1], p.graph.operations[0].outputs[0]);
  }
}

// ---- float16 widening (issue 10: fast import) --------------------------------------------

// An independent definition of IEEE half -> float32: finite values through ldexp, Inf and NaN
// as bit patterns (the payload moved into the top of the float mantissa, signalling NaNs kept
// signalling, as the importer always did).
uint32_t ReferenceHalfBits(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) ? 0x80000000u : 0u;
  const int exp = (h >> 10) & 0x1f;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 31) return sign | 0x7f800000u | (mant << 13);
  const double mag = exp == 0 ? std::ldexp(static_cast<double>(mant), -24)
                              : std::ldexp(static_cast<double>(mant | 0x400u), exp - 25);
  float f = static_cast<float>(mag);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits | sign;
}

TEST(TfliteHalf, ScalarMatchesReferenceOnEveryHalf) {
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = HalfBitsToFloat(static_cast<uint16_t>(h));
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    ASSERT_EQ(bits, ReferenceHalfBits(static_cast<uint16_t>(h))) << std::hex << "half 0x" << h;
  }
}

// Every half value (NaNs signalling and quiet, infinities, subnormals, both zeros), at every
// source misalignment and with tails shorter than a vector, widened by the array path
// (F16C here when the CPU has it) equals the scalar definition bit for bit.
TEST(TfliteHalf, ArrayMatchesScalarOnEveryHalf) {
  SCOPED_TRACE(HalfToFloatPath());
  std::vector<uint8_t> src(2 * 65536 + 16);
  for (size_t shift = 0; shift < 3; ++shift) {
    for (uint32_t h = 0; h <= 0xffff; ++h) {
      const uint16_t v = static_cast<uint16_t>(h);
      std::memcpy(src.data() + shift + 2 * h, &v, 2);
    }
    for (size_t n : {size_t{65536}, size_t{65535}, size_t{7}, size_t{9}, size_t{1}}) {
      std::vector<float> out(n + 1, 0.f);
      const float canary = -123.f;
      out[n] = canary;
      HalfToFloatArray(src.data() + shift, out.data(), n);
      for (size_t i = 0; i < n; ++i) {
        uint32_t got, want;
        const float ref = HalfBitsToFloat(static_cast<uint16_t>(i));
        std::memcpy(&got, &out[i], 4);
        std::memcpy(&want, &ref, 4);
        ASSERT_EQ(got, want) << std::hex << "half 0x" << i << " shift " << shift << " n " << n;
      }
      ASSERT_EQ(out[n], canary) << "wrote past the end, n " << n;
    }
  }
}

// The fold itself on a constant holding every half value: the folded float32 constant is
// bit-identical to the scalar definition (signalling NaNs mixed into vector blocks too).
TEST(TfliteImporter, FoldsEveryFloat16ValueBitExact) {
  TfliteBuilder b;
  std::vector<uint16_t> half(65536);
  for (uint32_t h = 0; h <= 0xffff; ++h) half[h] = static_cast<uint16_t>(h);
  TfliteBuilder::TensorSpec hs;
  hs.shape = {1, 65536};
  hs.type = TensorType::kFloat16;
  hs.buffer = b.AddBuffer(half);
  hs.name = "w16";
  int32_t in = b.AddFloatTensor({1, 65536}, "x");
  int32_t w16 = b.AddTensor(hs);
  int32_t w = b.AddFloatTensor({1, 65536}, "w");
  b.AddOperator(op::kDequantize, {w16}, {w});
  int32_t y = b.AddFloatTensor({1, 65536}, "y");
  b.AddOperator(op::kAdd, {in, w}, {y}, opt::kAdd, TfliteBuilder::ActivationOptions(Activation::kNone));
  b.SetInputs({in});
  b.SetOutputs({y});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  ASSERT_EQ(p.report.folded, 1);
  const NnOperand& c = p.graph.operands[p.graph.operations[0].inputs[1]];
  ASSERT_EQ(c.lifetime, NnOperand::Lifetime::kConstOwned);
  const OwnedBytes& d = *p.graph.owned[static_cast<size_t>(c.owned)];
  ASSERT_EQ(d.size(), 65536u * 4);
  ASSERT_EQ(c.length, d.size());
  for (uint32_t h = 0; h <= 0xffff; ++h) {
    uint32_t got;
    std::memcpy(&got, d.data() + 4 * h, 4);
    ASSERT_EQ(got, ReferenceHalfBits(static_cast<uint16_t>(h))) << std::hex << "half 0x" << h;
  }
}

TEST(TfliteImporter, MissingBiasBecomesZeroConstant) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 3, 3, 2}, "in");
  int32_t wt = b.AddFloatConst({4, 1, 1, 2}, std::vector<float>(8, 0.5f), "w");
  int32_t out = b.AddFloatTensor({1, 3, 3, 4}, "out");
  b.AddOperator(op::kConv2D, {in, wt, -1}, {out}, opt::kConv2D,
                TfliteBuilder::Conv2DOptions(Padding::kValid, 1, 1, Activation::kRelu6, 2, 2));
  b.SetInputs({in});
  b.SetOutputs({out});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  const NnOperation& conv = p.graph.operations[0];
  ASSERT_EQ(conv.inputs.size(), 10u);  // dilation appends layout + two factors
  const NnOperand& bias = p.graph.operands[conv.inputs[2]];
  EXPECT_EQ(bias.dims, std::vector<uint32_t>{4});
  EXPECT_EQ(bias.length, 16u);
  EXPECT_EQ(Scalar<int32_t>(p.graph, conv.inputs[6]), ANEURALNETWORKS_FUSED_RELU6);
  EXPECT_EQ(Scalar<uint8_t>(p.graph, conv.inputs[7]), 0);
  EXPECT_EQ(Scalar<int32_t>(p.graph, conv.inputs[8]), 2);
}

TEST(TfliteImporter, DepthwiseMultiplierFromShapes) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 5, 5, 2}, "in");
  int32_t wt = b.AddFloatConst({1, 3, 3, 6}, std::vector<float>(54, 0.1f), "w");
  int32_t bt = b.AddFloatConst({6}, std::vector<float>(6, 0.f), "b");
  int32_t out = b.AddFloatTensor({1, 3, 3, 6}, "out");
  // depth_multiplier 0 in the options, as newer converters write it.
  b.AddOperator(op::kDepthwiseConv2D, {in, wt, bt}, {out}, opt::kDepthwiseConv2D,
                TfliteBuilder::DepthwiseOptions(Padding::kValid, 1, 1, 0, Activation::kNone));
  b.SetInputs({in});
  b.SetOutputs({out});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  const NnOperation& dw = p.graph.operations[0];
  ASSERT_EQ(dw.inputs.size(), 8u);
  EXPECT_EQ(Scalar<int32_t>(p.graph, dw.inputs[6]), 3);
}

TEST(TfliteImporter, ConcatAxisAndSeparateActivation) {
  TfliteBuilder b;
  int32_t a = b.AddFloatTensor({1, 2, 2, 3}, "a");
  int32_t c = b.AddFloatTensor({1, 2, 2, 5}, "c");
  int32_t out = b.AddFloatTensor({1, 2, 2, 8}, "out");
  b.AddOperator(op::kConcatenation, {a, c}, {out}, opt::kConcatenation,
                TfliteBuilder::ConcatenationOptions(-1, Activation::kRelu));
  b.SetInputs({a, c});
  b.SetOutputs({out});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"CONCATENATION", "RELU"}));
  EXPECT_EQ(Scalar<int32_t>(p.graph, p.graph.operations[0].inputs[2]), 3);
  EXPECT_EQ(p.graph.inputs.size(), 2u);
}

TEST(TfliteImporter, TransposeConvCustomOp) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 4, 4, 8}, "in");
  int32_t wt = b.AddFloatConst({2, 2, 2, 8}, std::vector<float>(64, 0.1f), "w");
  int32_t bt = b.AddFloatConst({2}, {0.f, 1.f}, "b");
  int32_t out = b.AddFloatTensor({1, 8, 8, 2}, "out");
  int32_t opts[3] = {2, 2, 2};  // VALID, stride 2x2
  std::vector<uint8_t> custom(reinterpret_cast<uint8_t*>(opts), reinterpret_cast<uint8_t*>(opts) + 12);
  b.AddOperator(op::kCustom, {in, wt, bt}, {out}, 0, nullptr, custom, "Convolution2DTransposeBias");
  b.SetInputs({in});
  b.SetOutputs({out});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  ASSERT_EQ(OpNames(p.graph), std::vector<std::string>{"TRANSPOSE_CONV_2D"});
  const NnOperation& tc = p.graph.operations[0];
  ASSERT_EQ(tc.inputs.size(), 9u);
  const NnOperand& shape = p.graph.operands[tc.inputs[3]];
  std::vector<int32_t> sv(4);
  std::memcpy(sv.data(), p.graph.owned[static_cast<size_t>(shape.owned)]->data(), 16);
  EXPECT_EQ(sv, (std::vector<int32_t>{1, 8, 8, 2}));
  EXPECT_EQ(Scalar<int32_t>(p.graph, tc.inputs[4]), ANEURALNETWORKS_PADDING_VALID);
  EXPECT_EQ(Scalar<int32_t>(p.graph, tc.inputs[5]), 2);
  EXPECT_EQ(p.report.ops[0].tflite_name, "CUSTOM(Convolution2DTransposeBias)");

  // Short custom options are reported, not read past.
  TfliteBuilder b2;
  in = b2.AddFloatTensor({1, 4, 4, 8}, "in");
  wt = b2.AddFloatConst({2, 2, 2, 8}, std::vector<float>(64, 0.1f), "w");
  bt = b2.AddFloatConst({2}, {0.f, 1.f}, "b");
  out = b2.AddFloatTensor({1, 8, 8, 2}, "out");
  b2.AddOperator(op::kCustom, {in, wt, bt}, {out}, 0, nullptr, std::vector<uint8_t>(4, 1),
                 "Convolution2DTransposeBias");
  b2.SetInputs({in});
  b2.SetOutputs({out});
  Planned q;
  Plan(b2.Finish(), &q);
  EXPECT_FALSE(q.ok);
  EXPECT_NE(q.report.first_error.find("operator 0 (CUSTOM(Convolution2DTransposeBias)): custom options hold 4 bytes"),
            std::string::npos)
      << q.report.first_error;
}

TEST(TfliteImporter, UnsupportedOperatorReportAndPartialGraph) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 8}, "in");
  int32_t r = b.AddFloatTensor({1, 8}, "r");
  int32_t g = b.AddFloatTensor({1, 8}, "g");
  int32_t out = b.AddFloatTensor({1, 8}, "out");
  b.AddOperator(op::kRelu, {in}, {r});
  b.AddOperator(op::kGelu, {r}, {g});
  b.AddOperator(op::kLogistic, {g}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  std::vector<uint8_t> bytes = b.Finish();

  Planned strict;
  Plan(bytes, &strict);
  EXPECT_FALSE(strict.ok);
  EXPECT_NE(strict.report.first_error.find("operator 1 (GELU)"), std::string::npos) << strict.report.first_error;

  Planned partial;
  Plan(bytes, &partial, /*partial=*/true);
  EXPECT_FALSE(partial.ok);
  EXPECT_EQ(partial.report.unsupported, 1);
  ASSERT_EQ(partial.report.ops.size(), 3u);
  EXPECT_EQ(partial.report.ops[1].status, OpReport::Status::kUnsupported);
  EXPECT_EQ(OpNames(partial.graph), (std::vector<std::string>{"RELU", "LOGISTIC"}));
  // 'r' leaves the mapped part, 'g' enters it: both cross the boundary.
  EXPECT_EQ(partial.report.boundary_inputs, 1);
  EXPECT_EQ(partial.report.boundary_outputs, 1);
  EXPECT_EQ(partial.graph.inputs.size(), 2u);
  EXPECT_EQ(partial.graph.outputs.size(), 2u);
}

TEST(TfliteImporter, FullyConnectedKeepNumDimsAddsReshape) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({2, 3, 4}, "in");
  int32_t wt = b.AddFloatConst({5, 4}, std::vector<float>(20, 0.25f), "w");
  int32_t bt = b.AddFloatConst({5}, std::vector<float>(5, 1.f), "b");
  int32_t out = b.AddFloatTensor({2, 3, 5}, "out");
  FbRef o = FbNode::Table();
  o->Set<int8_t>(0, 0).Set<uint8_t>(2, 1);
  b.AddOperator(op::kFullyConnected, {in, wt, bt}, {out}, opt::kFullyConnected, o);
  b.SetInputs({in});
  b.SetOutputs({out});
  Planned p;
  Plan(b.Finish(), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  EXPECT_EQ(OpNames(p.graph), (std::vector<std::string>{"FULLY_CONNECTED", "RESHAPE"}));
  EXPECT_EQ(p.graph.operands[p.graph.operations[0].outputs[0]].dims, (std::vector<uint32_t>{6, 5}));
}

TEST(TfliteImporter, MediaPipeModelsMapCompletely) {
  int seen = 0;
  for (const char* name : {"face_detection_short_range.tflite", "face_detection_full_range.tflite",
                           "hand_landmark_lite.tflite", "pose_landmark_lite.tflite", "selfie_segmentation.tflite",
                           "selfie_segmentation_landscape.tflite"}) {
    std::string path = tflite_test::ModelPath(name);
    if (path.empty()) continue;
    ++seen;
    ModelFile f;
    std::string err;
    ASSERT_TRUE(f.Open(path, &err)) << err;
    NnGraph g;
    ImportReport r;
    EXPECT_TRUE(PlanImport(f.model(), ImportOptions(), &g, &r)) << name << ": " << r.first_error;
    EXPECT_EQ(r.unsupported, 0) << name;
    // Every DEQUANTIZE in these fp16-weight exports reads a constant and is folded away.
    int dequant = 0;
    for (const NnOperation& op : g.operations) dequant += op.type == ANEURALNETWORKS_DEQUANTIZE;
    EXPECT_EQ(dequant, 0) << name;
    EXPECT_GT(r.folded, 0) << name;
    EXPECT_EQ(g.inputs.size(), f.model().subgraphs[0].inputs.size()) << name;
    EXPECT_EQ(g.outputs.size(), f.model().subgraphs[0].outputs.size()) << name;
  }
  if (seen == 0) GTEST_SKIP() << "no models fetched";
}

TEST(Npy, RoundTripAndErrors) {
  std::vector<float> v = {1.5f, -2.f, 3.25f, 0.f, 7.f, 8.f};
  std::vector<uint8_t> enc = EncodeNpy("<f4", {2, 3}, v.data(), v.size() * 4);
  EXPECT_EQ((10 + enc[8] + (enc[9] << 8)) % 64, 0);  // data aligned as numpy does
  NpyArray a;
  std::string err;
  ASSERT_TRUE(ParseNpy(enc.data(), enc.size(), &a, &err)) << err;
  EXPECT_EQ(a.dtype, "<f4");
  EXPECT_EQ(a.shape, (std::vector<uint64_t>{2, 3}));
  std::vector<float> back;
  ASSERT_TRUE(NpyToFloat32(a, &back, &err));
  EXPECT_EQ(back, v);

  std::vector<int32_t> iv = {1, -7};
  std::vector<uint8_t> ienc = EncodeNpy("<i4", {2}, iv.data(), 8);
  ASSERT_TRUE(ParseNpy(ienc.data(), ienc.size(), &a, &err)) << err;
  ASSERT_TRUE(NpyToFloat32(a, &back, &err));
  EXPECT_EQ(back, (std::vector<float>{1.f, -7.f}));

  std::vector<uint8_t> trunc(enc.begin(), enc.end() - 4);
  EXPECT_FALSE(ParseNpy(trunc.data(), trunc.size(), &a, &err));
  EXPECT_NE(err.find("shape needs 24"), std::string::npos) << err;
  std::vector<uint8_t> bad = enc;
  std::string h(reinterpret_cast<char*>(bad.data() + 10), bad.size() - 10);
  size_t fp = h.find("False");
  ASSERT_NE(fp, std::string::npos);
  std::memcpy(bad.data() + 10 + fp, "True ", 5);
  EXPECT_FALSE(ParseNpy(bad.data(), bad.size(), &a, &err));
  EXPECT_NE(err.find("Fortran"), std::string::npos) << err;
}

}  // namespace

namespace {

// 4x4 float matrix stored as 2x2 blocks, block rows dense, block columns CSR:
//   0 0 1 2
//   0 0 3 4
//   5 6 0 0
//   7 8 0 0
FbRef BlockSparsity(const std::vector<int32_t>& segments, const std::vector<uint8_t>& indices) {
  auto dim = [](int8_t format, int32_t dense_size) {
    FbRef d = FbNode::Table();
    d->Set<int8_t>(0, format).Set<int32_t>(1, dense_size);
    return d;
  };
  FbRef csr = dim(1, 0);
  FbRef seg = FbNode::Table();
  seg->SetRef(0, FbNode::Vector(segments));
  FbRef idx = FbNode::Table();
  idx->SetRef(0, FbNode::Vector(indices, 4));
  csr->Set<uint8_t>(2, 1).SetRef(3, seg).Set<uint8_t>(4, 3).SetRef(5, idx);  // Int32Vector, Uint8Vector
  FbRef sp = FbNode::Table();
  sp->SetRef(0, FbNode::Vector(std::vector<int32_t>{0, 1, 2, 3}));
  sp->SetRef(1, FbNode::Vector(std::vector<int32_t>{0, 1}));
  sp->SetRef(2, FbNode::Vector(std::vector<FbRef>{dim(0, 2), csr, dim(0, 2), dim(0, 2)}));
  return sp;
}

std::vector<uint8_t> SparseModel(const std::vector<int32_t>& segments, const std::vector<uint8_t>& indices) {
  std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  FbRef code0 = FbNode::Table();
  code0->Set<int8_t>(0, op::kDensify).Set<int32_t>(3, op::kDensify);
  FbRef code1 = FbNode::Table();
  code1->Set<int32_t>(3, op::kAdd);
  auto tensor = [](const char* name, uint32_t buffer, FbRef sparsity) {
    FbRef t = FbNode::Table();
    t->SetRef(0, FbNode::Vector(std::vector<int32_t>{4, 4})).Set<uint32_t>(2, buffer).SetRef(3, FbNode::String(name));
    if (sparsity) t->SetRef(6, sparsity);
    return t;
  };
  auto opnode = [](uint32_t code, std::vector<int32_t> in, std::vector<int32_t> out) {
    FbRef o = FbNode::Table();
    o->Set<uint32_t>(0, code).SetRef(1, FbNode::Vector(in)).SetRef(2, FbNode::Vector(out));
    return o;
  };
  FbRef sg = FbNode::Table();
  sg->SetRef(0, FbNode::Vector(std::vector<FbRef>{tensor("sparse", 1, BlockSparsity(segments, indices)),
                                                   tensor("dense", 0, nullptr), tensor("x", 0, nullptr),
                                                   tensor("y", 0, nullptr)}));
  sg->SetRef(1, FbNode::Vector(std::vector<int32_t>{2}));
  sg->SetRef(2, FbNode::Vector(std::vector<int32_t>{3}));
  sg->SetRef(3, FbNode::Vector(std::vector<FbRef>{opnode(0, {0}, {1}), opnode(1, {2, 1}, {3})}));
  FbRef empty = FbNode::Table();
  FbRef data = FbNode::Table();
  data->SetRef(0, FbNode::Bytes(values.data(), values.size() * 4));
  FbRef model = FbNode::Table();
  model->Set<uint32_t>(0, 3);
  model->SetRef(1, FbNode::Vector(std::vector<FbRef>{code0, code1}));
  model->SetRef(2, FbNode::Vector(std::vector<FbRef>{sg}));
  model->SetRef(4, FbNode::Vector(std::vector<FbRef>{empty, data}));
  return FbNode::Finish(model, "TFL3");
}

TEST(TfliteImporter, DensifyOfBlockSparseConstantIsFolded) {
  Planned p;
  Plan(SparseModel({0, 1, 2}, {1, 0}), &p);
  ASSERT_TRUE(p.ok) << p.report.first_error;
  const Tensor& st = p.model.subgraphs[0].tensors[0];
  ASSERT_TRUE(st.is_sparse);
  ASSERT_EQ(st.sparsity.dim_metadata.size(), 4u);
  EXPECT_EQ(st.sparsity.dim_metadata[1].array_indices, (std::vector<int32_t>{1, 0}));
  EXPECT_EQ(OpNames(p.graph), std::vector<std::string>{"ADD"});
  EXPECT_EQ(p.report.ops[0].status, OpReport::Status::kFolded);
  const NnOperand& c = p.graph.operands[p.graph.operations[0].inputs[1]];
  ASSERT_EQ(c.lifetime, NnOperand::Lifetime::kConstOwned);
  std::vector<float> dense(16);
  ASSERT_EQ(p.graph.owned[static_cast<size_t>(c.owned)]->size(), 64u);
  std::memcpy(dense.data(), p.graph.owned[static_cast<size_t>(c.owned)]->data(), 64);
  EXPECT_EQ(dense, (std::vector<float>{0, 0, 1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8, 0, 0}));
}

TEST(TfliteImporter, MalformedSparsityIsReportedNotRead) {
  // Column index 5 is outside the two block columns; a segment that runs past the indices.
  for (auto [seg, idx, expect] : std::vector<std::tuple<std::vector<int32_t>, std::vector<uint8_t>, const char*>>{
           {{0, 1, 2}, {5, 0}, "index 5 out of range 2"},
           {{0, 1, 9}, {1, 0}, "bad segment [1, 9)"},
           {{0, 2}, {1, 0}, "segment bounds, expected 3"}}) {
    Planned p;
    Plan(SparseModel(seg, idx), &p);
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.report.first_error.find("operator 0 (DENSIFY): sparse tensor 'sparse': "), std::string::npos)
        << p.report.first_error;
    EXPECT_NE(p.report.first_error.find(expect), std::string::npos) << p.report.first_error;
  }
}

}  // namespace
