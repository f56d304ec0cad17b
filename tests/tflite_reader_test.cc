// .tflite reader: hand-built flatbuffers, malformed input, and (when fetched) a real model.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <set>
#include <tuple>

#include "flatbuffer_view.h"
#include "flatbuffer_writer.h"
#include "tflite_builder.h"
#include "tflite_model.h"
#include "tflite_test_util.h"

using namespace nnapi_tflite;

namespace {

bool Parse(const std::vector<uint8_t>& bytes, Model* m, std::string* err) {
  return ParseModel(bytes.data(), bytes.size(), m, err) && ValidateModel(*m, err);
}

// Position of the first occurrence of `needle` (as raw bytes) in `hay`, or npos.
template <typename T>
size_t Find(const std::vector<uint8_t>& hay, const std::vector<T>& needle) {
  const size_t n = needle.size() * sizeof(T);
  for (size_t i = 0; i + n <= hay.size(); ++i) {
    if (std::memcmp(hay.data() + i, needle.data(), n) == 0) return i;
  }
  return std::string::npos;
}

TEST(TfliteReader, ParsesHandBuiltModel) {
  std::vector<float> w, bias;
  std::vector<uint8_t> bytes = tflite_test::TinyConvModel(&w, &bias);
  Model m;
  std::string err;
  ASSERT_TRUE(Parse(bytes, &m, &err)) << err;
  EXPECT_EQ(m.version, 3u);
  EXPECT_EQ(m.description, "built in memory");
  ASSERT_EQ(m.subgraphs.size(), 1u);
  const SubGraph& sg = m.subgraphs[0];
  EXPECT_EQ(sg.name, "main");
  ASSERT_EQ(sg.tensors.size(), 8u);
  EXPECT_EQ(sg.tensors[0].name, "input");
  EXPECT_EQ(sg.tensors[0].shape, (std::vector<int32_t>{1, 4, 4, 2}));
  EXPECT_EQ(sg.tensors[0].type, TensorType::kFloat32);
  EXPECT_EQ(sg.inputs, std::vector<int32_t>{0});
  EXPECT_EQ(sg.outputs, std::vector<int32_t>{7});

  ASSERT_EQ(sg.operators.size(), 4u);
  std::vector<std::string> names;
  for (const Operator& op : sg.operators) names.push_back(m.OpName(op));
  EXPECT_EQ(names, (std::vector<std::string>{"CONV_2D", "MAX_POOL_2D", "RESHAPE", "SOFTMAX"}));

  const OperatorOptions& conv = sg.operators[0].options;
  EXPECT_EQ(conv.type, opt::kConv2D);
  EXPECT_EQ(conv.padding, Padding::kSame);
  EXPECT_EQ(conv.stride_w, 1);
  EXPECT_EQ(conv.activation, Activation::kRelu);
  const OperatorOptions& pool = sg.operators[1].options;
  EXPECT_EQ(pool.padding, Padding::kValid);
  EXPECT_EQ(pool.filter_w, 2);
  EXPECT_EQ(pool.stride_h, 2);
  EXPECT_EQ(sg.operators[2].options.new_shape, (std::vector<int32_t>{1, 12}));
  EXPECT_FLOAT_EQ(sg.operators[3].options.beta, 1.f);

  // Constant data is referenced in place and holds what was written.
  const Tensor& wt = sg.tensors[1];
  ASSERT_NE(wt.buffer, 0u);
  const Buffer& buf = m.buffers[wt.buffer];
  ASSERT_EQ(buf.size, w.size() * sizeof(float));
  EXPECT_EQ(std::memcmp(m.BufferData(wt.buffer), w.data(), buf.size), 0);
  EXPECT_EQ(m.BufferData(wt.buffer), bytes.data() + buf.offset);
  EXPECT_EQ(m.BufferData(0), nullptr);
}

TEST(TfliteReader, QuantizationAndOptionalInputs) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 2, 2, 2}, "in");
  TfliteBuilder::TensorSpec q;
  q.shape = {3, 1, 1, 2};
  q.type = TensorType::kInt8;
  std::vector<int8_t> wq = {1, -2, 3, -4, 5, -6};
  q.buffer = b.AddBuffer(wq);
  q.scale = {0.5f, 0.25f, 0.125f};
  q.zero_point = {0, 0, 0};
  q.quantized_dimension = 0;
  q.name = "wq";
  q.shape_signature = {3, 1, 1, 2};
  int32_t wt = b.AddTensor(q);
  int32_t out = b.AddFloatTensor({1, 2, 2, 3}, "out");
  b.AddOperator(op::kConv2D, {in, wt, -1}, {out}, opt::kConv2D,
                TfliteBuilder::Conv2DOptions(Padding::kValid, 1, 1, Activation::kNone));
  b.SetInputs({in});
  b.SetOutputs({out});
  Model m;
  std::string err;
  ASSERT_TRUE(Parse(b.Finish(), &m, &err)) << err;
  const Tensor& t = m.subgraphs[0].tensors[1];
  ASSERT_TRUE(t.has_quantization);
  EXPECT_EQ(t.quantization.scale, (std::vector<float>{0.5f, 0.25f, 0.125f}));
  EXPECT_EQ(t.quantization.zero_point, (std::vector<int64_t>{0, 0, 0}));
  EXPECT_TRUE(t.quantization.per_channel());
  EXPECT_TRUE(t.has_shape_signature);
  EXPECT_EQ(m.subgraphs[0].operators[0].inputs, (std::vector<int32_t>{0, 1, -1}));
}

TEST(TfliteReader, BuiltinCodeRule) {
  // Old writers fill only the byte field; new ones put PLACEHOLDER (127) there for big codes.
  for (auto [dep, ext, want] : std::vector<std::tuple<int8_t, int32_t, int32_t>>{
           {3, 0, 3}, {127, 150, 150}, {0, 117, 117}, {32, 32, 32}}) {
    FbRef code = FbNode::Table();
    code->Set<int8_t>(0, dep).Set<int32_t>(2, 1).Set<int32_t>(3, ext);
    FbRef sg = FbNode::Table();
    sg->SetRef(0, FbNode::Vector(std::vector<FbRef>{}));
    FbRef model = FbNode::Table();
    model->Set<uint32_t>(0, 3);
    model->SetRef(1, FbNode::Vector(std::vector<FbRef>{code}));
    model->SetRef(2, FbNode::Vector(std::vector<FbRef>{sg}));
    std::vector<uint8_t> bytes = FbNode::Finish(model, "TFL3");
    Model m;
    std::string err;
    ASSERT_TRUE(Parse(bytes, &m, &err)) << err;
    ASSERT_EQ(m.operator_codes.size(), 1u);
    EXPECT_EQ(m.operator_codes[0].builtin_code, want) << "deprecated=" << int(dep) << " builtin=" << ext;
  }
}

TEST(TfliteReader, EveryTruncationIsRejectedWithAMessage) {
  std::vector<uint8_t> bytes = tflite_test::TinyConvModel();
  // The builder pads the end to 16 bytes; anything shorter than the last object must fail.
  Model full;
  std::string err;
  ASSERT_TRUE(Parse(bytes, &full, &err)) << err;
  size_t accepted = 0;
  for (size_t len = 0; len < bytes.size(); ++len) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(len));
    Model m;
    err.clear();
    if (Parse(prefix, &m, &err)) {
      ++accepted;
    } else {
      EXPECT_FALSE(err.empty()) << "length " << len;
    }
  }
  EXPECT_LE(accepted, 16u);  // only the alignment padding at the very end may go
}

TEST(TfliteReader, RejectsWrongIdentifierAndTinyFiles) {
  std::vector<uint8_t> bytes = tflite_test::TinyConvModel();
  bytes[4] = 'X';
  Model m;
  std::string err;
  EXPECT_FALSE(Parse(bytes, &m, &err));
  EXPECT_NE(err.find("TFL3"), std::string::npos) << err;

  std::vector<uint8_t> tiny = {1, 2, 3};
  EXPECT_FALSE(Parse(tiny, &m, &err));
  EXPECT_NE(err.find("too small"), std::string::npos) << err;
}

TEST(TfliteReader, RootOffsetOutsideFile) {
  std::vector<uint8_t> bytes = tflite_test::TinyConvModel();
  uint32_t bad = static_cast<uint32_t>(bytes.size() + 100);
  std::memcpy(bytes.data(), &bad, 4);
  Model m;
  std::string err;
  EXPECT_FALSE(Parse(bytes, &m, &err));
  EXPECT_NE(err.find("root table offset"), std::string::npos) << err;
}

TEST(TfliteReader, VectorLengthPastEndOfFile) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 77777, 3}, "in");
  int32_t out = b.AddFloatTensor({1, 77777, 3}, "out");
  b.AddOperator(op::kRelu, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  std::vector<uint8_t> bytes = b.Finish();
  size_t p = Find(bytes, std::vector<int32_t>{1, 77777, 3});
  ASSERT_NE(p, std::string::npos);
  uint32_t huge = 0x40000000u;
  std::memcpy(bytes.data() + p - 4, &huge, 4);  // the length prefix of the shape vector
  Model m;
  std::string err;
  EXPECT_FALSE(Parse(bytes, &m, &err));
  EXPECT_NE(err.find("Tensor.shape"), std::string::npos) << err;
  EXPECT_NE(err.find("past the end"), std::string::npos) << err;
  EXPECT_NE(err.find("tensor 0"), std::string::npos) << err;
}

TEST(TfliteReader, BadVtable) {
  std::vector<uint8_t> bytes = tflite_test::TinyConvModel();
  uint32_t root;
  std::memcpy(&root, bytes.data(), 4);
  int32_t soff = 0x7ffffff0;  // vtable far before the start of the file
  std::memcpy(bytes.data() + root, &soff, 4);
  Model m;
  std::string err;
  EXPECT_FALSE(Parse(bytes, &m, &err));
  EXPECT_NE(err.find("vtable"), std::string::npos) << err;
}

TEST(TfliteReader, SemanticErrorsNameTheCulprit) {
  struct Case {
    const char* what;
    std::function<void(TfliteBuilder&, int32_t in, int32_t out)> build;
    const char* expect;
  };
  std::vector<Case> cases = {
      {"buffer index",
       [](TfliteBuilder& b, int32_t in, int32_t out) {
         TfliteBuilder::TensorSpec s;
         s.shape = {2};
         s.buffer = 99;
         s.name = "bad";
         b.AddTensor(s);
         b.AddOperator(op::kRelu, {in}, {out});
       },
       "tensor 2: buffer index 99 out of range (1 buffers)"},
      {"operator input",
       [](TfliteBuilder& b, int32_t in, int32_t out) { b.AddOperator(op::kAdd, {in, 42}, {out}); },
       "operator 0: input 1: tensor index 42 out of range (2 tensors)"},
      {"buffer size",
       [](TfliteBuilder& b, int32_t in, int32_t out) {
         TfliteBuilder::TensorSpec s;
         s.shape = {4};
         s.buffer = b.AddBuffer(std::vector<float>{1, 2, 3});
         s.name = "short";
         b.AddTensor(s);
         b.AddOperator(op::kRelu, {in}, {out});
       },
       "buffer 1 holds 12 bytes, shape [4] of FLOAT32 needs 16"},
      {"per-channel scales",
       [](TfliteBuilder& b, int32_t in, int32_t out) {
         TfliteBuilder::TensorSpec s;
         s.shape = {3, 2};
         s.type = TensorType::kInt8;
         s.scale = {1.f, 2.f};
         s.zero_point = {0, 0};
         s.name = "q";
         b.AddTensor(s);
         b.AddOperator(op::kRelu, {in}, {out});
       },
       "2 per-channel scales but dimension 0 of shape [3, 2] has size 3"},
      {"negative dim",
       [](TfliteBuilder& b, int32_t in, int32_t out) {
         b.AddFloatTensor({2, -5}, "neg");
         b.AddOperator(op::kRelu, {in}, {out});
       },
       "negative dimension"},
  };
  for (const Case& c : cases) {
    TfliteBuilder b;
    int32_t in = b.AddFloatTensor({1, 4}, "in");
    int32_t out = b.AddFloatTensor({1, 4}, "out");
    c.build(b, in, out);
    b.SetInputs({in});
    b.SetOutputs({out});
    Model m;
    std::string err;
    EXPECT_FALSE(Parse(b.Finish(), &m, &err)) << c.what;
    EXPECT_NE(err.find(c.expect), std::string::npos) << c.what << ": " << err;
  }
}

TEST(TfliteReader, OpcodeIndexOutOfRange) {
  TfliteBuilder b;
  int32_t in = b.AddFloatTensor({1, 4}, "in");
  int32_t out = b.AddFloatTensor({1, 4}, "out");
  b.AddOperator(op::kRelu, {in}, {out});
  b.SetInputs({in});
  b.SetOutputs({out});
  std::vector<uint8_t> bytes = b.Finish();
  Model m;
  std::string err;
  ASSERT_TRUE(ParseModel(bytes.data(), bytes.size(), &m, &err)) << err;
  m.subgraphs[0].operators[0].opcode_index = 5;
  EXPECT_FALSE(ValidateModel(m, &err));
  EXPECT_NE(err.find("opcode index 5 out of range (1 operator codes)"), std::string::npos) << err;
}

TEST(TfliteReader, ExternalBufferRange) {
  // Large-model layout: Buffer.offset/size point past the flatbuffer into the file.
  auto build = [](uint64_t offset, uint64_t size) {
    FbRef code = FbNode::Table();
    code->Set<int32_t>(3, op::kRelu);
    FbRef t = FbNode::Table();
    t->SetRef(0, FbNode::Vector(std::vector<int32_t>{2}));
    t->Set<uint32_t>(2, 1);
    FbRef sg = FbNode::Table();
    sg->SetRef(0, FbNode::Vector(std::vector<FbRef>{t}));
    FbRef empty = FbNode::Table();
    FbRef ext = FbNode::Table();
    ext->Set<uint64_t>(1, offset).Set<uint64_t>(2, size);
    FbRef model = FbNode::Table();
    model->Set<uint32_t>(0, 3);
    model->SetRef(1, FbNode::Vector(std::vector<FbRef>{code}));
    model->SetRef(2, FbNode::Vector(std::vector<FbRef>{sg}));
    model->SetRef(4, FbNode::Vector(std::vector<FbRef>{empty, ext}));
    return FbNode::Finish(model, "TFL3");
  };
  std::vector<uint8_t> bytes = build(0, 0);
  const uint64_t data_at = bytes.size();
  bytes = build(data_at, 8);
  ASSERT_EQ(bytes.size(), data_at);  // same layout, only values changed
  float vals[2] = {1.5f, -2.5f};
  bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(vals), reinterpret_cast<uint8_t*>(vals) + 8);
  Model m;
  std::string err;
  ASSERT_TRUE(Parse(bytes, &m, &err)) << err;
  ASSERT_EQ(m.buffers.size(), 2u);
  EXPECT_TRUE(m.buffers[1].external);
  EXPECT_EQ(m.buffers[1].offset, data_at);
  EXPECT_EQ(std::memcmp(m.BufferData(1), vals, 8), 0);

  bytes.resize(bytes.size() - 4);  // the external data no longer fits
  EXPECT_FALSE(Parse(bytes, &m, &err));
  EXPECT_NE(err.find("buffer 1: external data"), std::string::npos) << err;
}

TEST(TfliteReader, SharedVectorAmplificationIsBounded) {
  // Many tensors sharing one long shape vector must not make the reader allocate without bound.
  // Patch every tensor's shape offset to point at the first tensor's (large) shape vector.
  // uoffsets only point forward, so the shared vector belongs to the last tensor.
  TfliteBuilder b;
  for (int i = 0; i < 2000; ++i) b.AddFloatTensor({7, 7, 7, 7}, "t");
  std::vector<int32_t> big(20000, 1);
  int32_t last = b.AddFloatTensor(big, "big");
  b.AddOperator(op::kRelu, {0}, {1});
  b.SetInputs({0});
  b.SetOutputs({1});
  (void)last;
  std::vector<uint8_t> bytes = b.Finish();
  size_t target = Find(bytes, std::vector<int32_t>(16, 1)) - 4;  // length prefix of `big`
  size_t patched = 0;
  for (size_t p = 0; p + 20 <= bytes.size(); p += 4) {
    int32_t v[4];
    std::memcpy(v, bytes.data() + p + 4, 16);
    if (v[0] == 7 && v[1] == 7 && v[2] == 7 && v[3] == 7) {
      uint32_t len;
      std::memcpy(&len, bytes.data() + p, 4);
      if (len != 4) continue;
      // Find the uoffset that points at this vector and redirect it to `big`.
      for (size_t q = 0; q + 4 <= p; q += 4) {
        uint32_t off;
        std::memcpy(&off, bytes.data() + q, 4);
        if (q + off == p && target > q) {
          uint32_t no = static_cast<uint32_t>(target - q);
          std::memcpy(bytes.data() + q, &no, 4);
          ++patched;
          break;
        }
      }
    }
  }
  ASSERT_GT(patched, 100u);
  Model m;
  std::string err;
  // 2000 x 20000 dims would be 160 MB from a ~0.3 MB file: the allocation budget must trip.
  EXPECT_FALSE(ParseModel(bytes.data(), bytes.size(), &m, &err));
  EXPECT_NE(err.find("more memory than its size allows"), std::string::npos) << err;
}

TEST(TfliteReader, FaceDetectionShortRange) {
  std::string path = tflite_test::ModelPath("face_detection_short_range.tflite");
  if (path.empty()) GTEST_SKIP() << "models/face_detection_short_range.tflite not fetched (scripts/fetch_models.sh)";
  ModelFile f;
  std::string err;
  ASSERT_TRUE(f.Open(path, &err)) << err;
  const Model& m = f.model();
  ASSERT_EQ(m.subgraphs.size(), 1u);
  const SubGraph& sg = m.subgraphs[0];
  std::set<std::string> ops;
  int dequantize = 0;
  for (const Operator& op : sg.operators) {
    ops.insert(m.OpName(op));
    dequantize += m.OpName(op) == "DEQUANTIZE";
  }
  EXPECT_EQ(ops, (std::set<std::string>{"ADD", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D", "DEQUANTIZE",
                                        "MAX_POOL_2D", "PAD", "RELU", "RESHAPE"}));
  ASSERT_EQ(sg.inputs.size(), 1u);
  EXPECT_EQ(sg.tensors[static_cast<size_t>(sg.inputs[0])].shape, (std::vector<int32_t>{1, 128, 128, 3}));
  ASSERT_EQ(sg.outputs.size(), 2u);
  // Every DEQUANTIZE reads a constant float16 tensor (the fp16-weights export).
  int fp16_consts = 0;
  for (const Operator& op : sg.operators) {
    if (m.OpName(op) != "DEQUANTIZE") continue;
    const Tensor& t = sg.tensors[static_cast<size_t>(op.inputs[0])];
    fp16_consts += t.type == TensorType::kFloat16 && m.BufferData(t.buffer) != nullptr;
  }
  EXPECT_GT(dequantize, 0);
  EXPECT_EQ(fp16_consts, dequantize);
}

TEST(TfliteReader, AllFetchedModelsParse) {
  std::string dir = tflite_test::ModelsDir();
  int seen = 0;
  for (const char* name : {"face_detection_short_range.tflite", "face_detection_full_range.tflite",
                           "hand_landmark_lite.tflite", "hand_landmark_full.tflite", "pose_landmark_lite.tflite",
                           "pose_landmark_full.tflite", "pose_landmark_heavy.tflite", "selfie_segmentation.tflite",
                           "selfie_segmentation_landscape.tflite"}) {
    std::string path = tflite_test::ModelPath(name);
    if (path.empty()) continue;
    ++seen;
    ModelFile f;
    std::string err;
    EXPECT_TRUE(f.Open(path, &err)) << name << ": " << err;
  }
  if (seen == 0) GTEST_SKIP() << "no models fetched";
}

}  // namespace
