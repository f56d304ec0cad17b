// RESIZE_NEAREST_NEIGHBOR, ROI_ALIGN, ROI_POOLING, AXIS_ALIGNED_BBOX_TRANSFORM,
// BOX_WITH_NMS_LIMIT, GENERATE_PROPOSALS, DETECTION_POSTPROCESSING, HEATMAP_MAX_KEYPOINT and
// INSTANCE_NORMALIZATION through the public C API: small hand-computed cases, data-dependent
// output sizes (including zero boxes feeding ROI_ALIGN), invalid signatures and invalid data,
// and the default device against the reference device for the threaded resize kernel.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::valuesOf;

constexpr int kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int kQ16A = ANEURALNETWORKS_TENSOR_QUANT16_ASYMM;

void expectNear(const std::vector<float>& actual, const std::vector<float>& expected,
                float tol = 1e-5f) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tol) << "element " << i;
}

using Dims = std::vector<uint32_t>;

// ---- RESIZE_NEAREST_NEIGHBOR ----------------------------------------------------------

struct NearestCase {
  int type = kF32;
  Dims in;
  bool byScale = false;
  int32_t width = 0, height = 0;
  float wScale = 0, hScale = 0;
  bool nchw = false;
  int alignCorners = -1, halfPixel = -1;  // -1: input omitted entirely
};

int buildNearest(ModelBuilder& m, const NearestCase& c, float scale = 0.f) {
  const uint32_t in = m.addOperand(c.type, c.in, scale);
  std::vector<uint32_t> inputs{in};
  if (c.byScale) {
    inputs.push_back(m.addFloat32(c.wScale));
    inputs.push_back(m.addFloat32(c.hScale));
  } else {
    inputs.push_back(m.addInt32(c.width));
    inputs.push_back(m.addInt32(c.height));
  }
  inputs.push_back(m.addBool(c.nchw));
  if (c.alignCorners >= 0) inputs.push_back(m.addBool(c.alignCorners != 0));
  if (c.halfPixel >= 0) inputs.push_back(m.addBool(c.halfPixel != 0));
  const uint32_t out = m.addOperand(c.type, Dims(4, 0), scale);
  m.addOperation(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, inputs, {out});
  return m.finish({in}, {out});
}

template <typename T>
std::vector<T> runNearest(const NearestCase& c, const std::vector<T>& input, size_t outCount,
                          Dims* dims = nullptr, const char* device = nullptr) {
  ModelBuilder m;
  EXPECT_EQ(buildNearest(m, c, std::is_same<T, float>::value ? 0.f : 1.f),
            ANEURALNETWORKS_NO_ERROR);
  auto r = nntest::runModel(m, {bytesOf(input)}, {outCount * sizeof(T)}, device);
  EXPECT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return {};
  if (dims) *dims = r.outputDims[0];
  return valuesOf<T>(r.outputs[0]);
}

TEST(ResizeNearestTest, UpscaleByShapeRepeatsPixels) {
  NearestCase c;
  c.in = {1, 2, 2, 1};
  c.width = 4;
  c.height = 4;
  Dims dims;
  auto out = runNearest<float>(c, {1, 2, 3, 4}, 16, &dims);
  EXPECT_EQ(dims, (Dims{1, 4, 4, 1}));
  expectNear(out, {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4});
}

TEST(ResizeNearestTest, DownscaleFloorsAndHalfPixelShifts) {
  NearestCase c;
  c.in = {1, 1, 4, 1};
  c.width = 3;
  c.height = 1;
  // Source x = floor(x * 4/3): 0, 1, 2.
  expectNear(runNearest<float>(c, {1, 2, 3, 4}, 3), {1, 2, 3});
  // With pixel centres: floor((x + 0.5) * 4/3): 0, 2, 3.
  c.alignCorners = 0;
  c.halfPixel = 1;
  expectNear(runNearest<float>(c, {1, 2, 3, 4}, 3), {1, 3, 4});
}

TEST(ResizeNearestTest, AlignCornersRounds) {
  NearestCase c;
  c.in = {1, 1, 3, 1};
  c.width = 2;
  c.height = 1;
  c.alignCorners = 1;
  c.halfPixel = 0;
  // Scale (3-1)/(2-1) = 2: x = 0 -> 0, x = 1 -> 2; the corners are preserved.
  expectNear(runNearest<float>(c, {1, 2, 3}, 2), {1, 3});
}

TEST(ResizeNearestTest, NchwByScaleQuant8) {
  NearestCase c;
  c.type = kQ8;
  c.in = {1, 2, 1, 2};  // two channels, one row of two pixels
  c.byScale = true;
  c.wScale = 2.f;
  c.hScale = 1.f;
  c.nchw = true;
  Dims dims;
  auto out = runNearest<uint8_t>(c, {1, 2, 10, 20}, 8, &dims);
  EXPECT_EQ(dims, (Dims{1, 2, 1, 4}));
  EXPECT_EQ(out, (std::vector<uint8_t>{1, 1, 2, 2, 10, 10, 20, 20}));
}

TEST(ResizeNearestTest, InvalidSignaturesRejected) {
  {
    // The layout flag is required for nearest-neighbour resizing.
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 2, 2, 1});
    const uint32_t out = m.addOperand(kF32, {1, 4, 4, 1});
    m.addOperation(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, {in, m.addInt32(4), m.addInt32(4)},
                   {out});
    EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    NearestCase c;
    c.in = {1, 2, 2, 1};
    c.width = 0;  // output width must be positive
    c.height = 2;
    ModelBuilder m;
    EXPECT_EQ(buildNearest(m, c), ANEURALNETWORKS_BAD_DATA);
  }
  {
    NearestCase c;
    c.in = {1, 2, 2, 1};
    c.width = 2;
    c.height = 2;
    c.alignCorners = 1;
    c.halfPixel = 1;  // mutually exclusive
    ModelBuilder m;
    EXPECT_EQ(buildNearest(m, c), ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(ResizeNearestTest, DefaultMatchesReferenceOnLargeRandomInput) {
  NearestCase c;
  c.in = {2, 37, 41, 16};
  c.width = 97;
  c.height = 83;
  c.halfPixel = 1;
  c.alignCorners = 0;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-5.f, 5.f);
  std::vector<float> input(2 * 37 * 41 * 16);
  for (float& v : input) v = dist(rng);
  const size_t outCount = 2 * 83 * 97 * 16;
  auto fast = runNearest<float>(c, input, outCount);
  auto ref = runNearest<float>(c, input, outCount, nullptr, "nnapi-cpu-reference");
  ASSERT_EQ(fast.size(), outCount);
  EXPECT_EQ(fast, ref);
}

// ---- ROI_ALIGN / ROI_POOLING -----------------------------------------------------------

// Feature map 1x4x4x1 with value y*4 + x: bilinear sampling of it is exact.
std::vector<float> rampMap() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[i] = static_cast<float>(i);
  return v;
}

struct RoiCase {
  bool align = true;
  int type = kF32;
  float scale = 0.f;
  int32_t zeroPoint = 0;
  float outScale = 0.f;
  Dims map = {1, 4, 4, 1};
  uint32_t numRois = 1;
  int32_t outH = 2, outW = 2;
  float hStride = 1.f, wStride = 1.f;
  int32_t hRatio = 1, wRatio = 1;
  bool nchw = false;
};

int buildRoi(ModelBuilder& m, const RoiCase& c, uint32_t* ops) {
  const bool quant = c.type == kQ8;
  const uint32_t map = m.addOperand(c.type, c.map, c.scale, c.zeroPoint);
  const uint32_t rois = m.addOperand(quant ? kQ16A : c.type, {c.numRois, 4}, quant ? 0.125f : 0.f);
  const uint32_t batches = m.addOperand(kI32, {c.numRois});
  std::vector<uint32_t> inputs{map, rois, batches, m.addInt32(c.outH), m.addInt32(c.outW),
                               m.addFloat32(c.hStride), m.addFloat32(c.wStride)};
  if (c.align) {
    inputs.push_back(m.addInt32(c.hRatio));
    inputs.push_back(m.addInt32(c.wRatio));
  }
  inputs.push_back(m.addBool(c.nchw));
  const uint32_t out = m.addOperand(c.type, Dims(4, 0), quant ? c.outScale : 0.f, c.zeroPoint);
  m.addOperation(c.align ? ANEURALNETWORKS_ROI_ALIGN : ANEURALNETWORKS_ROI_POOLING, inputs, {out});
  ops[0] = map;
  ops[1] = rois;
  ops[2] = batches;
  return m.finish({map, rois, batches}, {out});
}

template <typename T, typename R>
nntest::RunResult runRoi(const RoiCase& c, const std::vector<T>& map, const std::vector<R>& rois,
                         const std::vector<int32_t>& batches, size_t outCount) {
  ModelBuilder m;
  uint32_t ops[3];
  EXPECT_EQ(buildRoi(m, c, ops), ANEURALNETWORKS_NO_ERROR);
  return nntest::runModel(m, {bytesOf(map), bytesOf(rois), bytesOf(batches)},
                          {outCount * sizeof(T)});
}

TEST(RoiAlignTest, FloatCentresOfBins) {
  RoiCase c;
  // Box covering the whole map: 2x2 bins of size 2, one sample at each bin centre.
  auto r = runRoi<float, float>(c, rampMap(), {0, 0, 4, 4}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1, 2, 2, 1}));
  // Centres (x, y) = (1, 1), (3, 1), (1, 3), (3, 3); the last column/row is clamped.
  expectNear(valuesOf<float>(r.outputs[0]), {5, 7, 13, 15});
}

TEST(RoiAlignTest, AdaptiveSamplingAveragesAndStrideScalesBoxes) {
  RoiCase c;
  c.hRatio = 0;  // ceil(bin height 1.5) = 2 samples
  c.wRatio = 0;
  c.hStride = 2.f;  // boxes are in a 2x larger image
  c.wStride = 2.f;
  // Feature-map box [0, 0, 3, 3]: bins of 1.5, samples at 0.375 and 1.125 (+1.5 for bin 1).
  auto r = runRoi<float, float>(c, rampMap(), {0, 0, 6, 6}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // The map is linear, so each bin averages to its centre: 0.75 and 2.25 along each axis.
  const float lo = 0.75f, hi = 2.25f;
  expectNear(valuesOf<float>(r.outputs[0]),
             {lo * 4 + lo, lo * 4 + hi, hi * 4 + lo, hi * 4 + hi});
}

TEST(RoiAlignTest, Quant8RequantizesToOutputScale) {
  RoiCase c;
  c.type = kQ8;
  c.scale = 1.f;
  c.outScale = 0.5f;  // doubles the stored values
  std::vector<uint8_t> map(16);
  for (int i = 0; i < 16; ++i) map[i] = static_cast<uint8_t>(i);
  // Box [0, 0, 4, 4] in units of 1/8.
  auto r = runRoi<uint8_t, uint16_t>(c, map, {0, 0, 32, 32}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{10, 14, 26, 30}));
}

TEST(RoiAlignTest, NchwTwoChannels) {
  RoiCase c;
  c.map = {1, 2, 4, 4};
  c.nchw = true;
  std::vector<float> map = rampMap();
  for (int i = 0; i < 16; ++i) map.push_back(100.f + i);
  auto r = runRoi<float, float>(c, map, {0, 0, 4, 4}, {0}, 8);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1, 2, 2, 2}));
  expectNear(valuesOf<float>(r.outputs[0]), {5, 7, 13, 15, 105, 107, 113, 115});
}

TEST(RoiAlignTest, BadBoxesFailAtExecution) {
  RoiCase c;
  // Outside the 4x4 map.
  EXPECT_EQ((runRoi<float, float>(c, rampMap(), {0, 0, 5, 4}, {0}, 4).status),
            ANEURALNETWORKS_OP_FAILED);
  // x2 < x1.
  EXPECT_EQ((runRoi<float, float>(c, rampMap(), {3, 0, 1, 4}, {0}, 4).status),
            ANEURALNETWORKS_OP_FAILED);
  // Batch index out of range.
  EXPECT_EQ((runRoi<float, float>(c, rampMap(), {0, 0, 4, 4}, {1}, 4).status),
            ANEURALNETWORKS_OP_FAILED);
}

TEST(RoiAlignTest, InvalidSignaturesRejected) {
  {
    // Quantized maps need QUANT16_ASYMM boxes.
    ModelBuilder m;
    const uint32_t map = m.addOperand(kQ8, {1, 4, 4, 1}, 1.f);
    const uint32_t rois = m.addOperand(kF32, {1, 4});
    const uint32_t batches = m.addOperand(kI32, {1});
    const uint32_t out = m.addOperand(kQ8, {1, 2, 2, 1}, 1.f);
    m.addOperation(ANEURALNETWORKS_ROI_ALIGN,
                   {map, rois, batches, m.addInt32(2), m.addInt32(2), m.addFloat32(1),
                    m.addFloat32(1), m.addInt32(1), m.addInt32(1), m.addBool(false)},
                   {out});
    EXPECT_EQ(m.finish({map, rois, batches}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    RoiCase c;
    c.outH = 0;
    ModelBuilder m;
    uint32_t ops[3];
    EXPECT_EQ(buildRoi(m, c, ops), ANEURALNETWORKS_BAD_DATA);
  }
  {
    RoiCase c;
    c.wRatio = -1;
    ModelBuilder m;
    uint32_t ops[3];
    EXPECT_EQ(buildRoi(m, c, ops), ANEURALNETWORKS_BAD_DATA);
  }
}

TEST(RoiPoolingTest, MaxOverRoundedBins) {
  RoiCase c;
  c.align = false;
  // Box [0, 0, 3, 3] rounds to 4x4 pixels: bins [0, 2) x [0, 2) etc.
  auto r = runRoi<float, float>(c, rampMap(), {0, 0, 3, 3}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  expectNear(valuesOf<float>(r.outputs[0]), {5, 7, 13, 15});
  // A single-pixel box repeats that pixel into every bin.
  r = runRoi<float, float>(c, rampMap(), {2, 1, 2, 1}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  expectNear(valuesOf<float>(r.outputs[0]), {6, 6, 6, 6});
}

TEST(RoiPoolingTest, Quant8KeepsStoredValues) {
  RoiCase c;
  c.align = false;
  c.type = kQ8;
  c.scale = 0.5f;
  c.zeroPoint = 3;
  c.outScale = 0.5f;
  std::vector<uint8_t> map(16);
  for (int i = 0; i < 16; ++i) map[i] = static_cast<uint8_t>(200 - i);
  auto r = runRoi<uint8_t, uint16_t>(c, map, {0, 0, 24, 24}, {0}, 4);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // The maximum of each bin is its top-left pixel.
  EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{200, 198, 192, 190}));
}

TEST(RoiPoolingTest, QuantOutputMustMatchInputQuantization) {
  RoiCase c;
  c.align = false;
  c.type = kQ8;
  c.scale = 0.5f;
  c.outScale = 0.25f;
  ModelBuilder m;
  uint32_t ops[3];
  EXPECT_EQ(buildRoi(m, c, ops), ANEURALNETWORKS_BAD_DATA);
}

// ---- AXIS_ALIGNED_BBOX_TRANSFORM -------------------------------------------------------

TEST(BboxTransformTest, AppliesDeltasAndClips) {
  ModelBuilder m;
  const uint32_t rois = m.addOperand(kF32, {1, 4});
  const uint32_t deltas = m.addOperand(kF32, {1, 8});
  const uint32_t batches = m.addOperand(kI32, {1});
  const uint32_t info = m.addOperand(kF32, {1, 2});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, {rois, deltas, batches, info}, {out});
  ASSERT_EQ(m.finish({rois, deltas, batches, info}, {out}), ANEURALNETWORKS_NO_ERROR);
  // Box 10x10 centred at (5, 5). Class 0: centre moves by (0.1 * 10, 0.2 * 10), height doubles.
  // Class 1: no change.
  const float ln2 = std::log(2.f);
  auto r = nntest::runModel(m,
                            {bytesOf<float>({0, 0, 10, 10}),
                             bytesOf<float>({0.1f, 0.2f, 0, ln2, 0, 0, 0, 0}),
                             bytesOf<int32_t>({0}), bytesOf<float>({15, 20})},
                            {8 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1, 8}));
  // New box [1, -3, 11, 17] clipped to the 20 wide, 15 high image.
  expectNear(valuesOf<float>(r.outputs[0]), {1, 0, 11, 15, 0, 0, 10, 10});
}

TEST(BboxTransformTest, QuantDeltasNeedQuant16Boxes) {
  ModelBuilder m;
  const uint32_t rois = m.addOperand(kQ16A, {1, 4}, 0.25f);  // scale must be 0.125
  const uint32_t deltas = m.addOperand(kQ8, {1, 4}, 0.1f, 128);
  const uint32_t batches = m.addOperand(kI32, {1});
  const uint32_t info = m.addOperand(kQ16A, {1, 2}, 0.125f);
  const uint32_t out = m.addOperand(kQ16A, {1, 4}, 0.125f);
  m.addOperation(ANEURALNETWORKS_AXIS_ALIGNED_BBOX_TRANSFORM, {rois, deltas, batches, info}, {out});
  EXPECT_EQ(m.finish({rois, deltas, batches, info}, {out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- BOX_WITH_NMS_LIMIT ----------------------------------------------------------------

struct NmsResult {
  int status = 0;
  std::vector<float> scores, boxes;
  std::vector<int32_t> classes, batches;
  Dims scoreDims;
};

// Three boxes, two classes (class 0 is background). Class-1 boxes: A [0,0,10,10],
// B [1,1,11,11] (IoU with A = 81/119) and C [20,20,30,30].
NmsResult runNms(int32_t kernel, float iouThreshold, float sigma, int32_t maxDetections,
                 std::vector<float> class1Scores = {0.9f, 0.8f, 0.7f}) {
  ModelBuilder m;
  const uint32_t scores = m.addOperand(kF32, {3, 2});
  const uint32_t rois = m.addOperand(kF32, {3, 8});
  const uint32_t batches = m.addOperand(kI32, {3});
  std::vector<uint32_t> outs{m.addOperand(kF32, {0}), m.addOperand(kF32, {0, 0}),
                             m.addOperand(kI32, {0}), m.addOperand(kI32, {0})};
  m.addOperation(ANEURALNETWORKS_BOX_WITH_NMS_LIMIT,
                 {scores, rois, batches, m.addFloat32(0.3f), m.addInt32(maxDetections),
                  m.addInt32(kernel), m.addFloat32(iouThreshold), m.addFloat32(sigma),
                  m.addFloat32(0.1f)},
                 outs);
  NmsResult res;
  res.status = m.finish({scores, rois, batches}, outs);
  if (res.status != ANEURALNETWORKS_NO_ERROR) return res;
  const std::vector<float> s{0.1f, class1Scores[0], 0.2f, class1Scores[1], 0.1f, class1Scores[2]};
  const std::vector<float> boxes{0, 0, 10, 10, 0, 0, 10, 10, 1, 1, 11, 11, 1, 1, 11, 11,
                                 20, 20, 30, 30, 20, 20, 30, 30};
  auto r = nntest::runModel(m, {bytesOf(s), bytesOf(boxes), bytesOf<int32_t>({0, 0, 0})},
                            {3 * 4, 3 * 16, 3 * 4, 3 * 4});
  res.status = r.status;
  if (r.status != ANEURALNETWORKS_NO_ERROR) return res;
  const uint32_t n = r.outputDims[0].empty() ? 0 : r.outputDims[0][0];
  res.scoreDims = r.outputDims[0];
  res.scores = valuesOf<float>(r.outputs[0]);
  res.scores.resize(n);
  res.boxes = valuesOf<float>(r.outputs[1]);
  res.boxes.resize(n * 4);
  res.classes = valuesOf<int32_t>(r.outputs[2]);
  res.classes.resize(n);
  res.batches = valuesOf<int32_t>(r.outputs[3]);
  res.batches.resize(n);
  EXPECT_EQ(r.outputDims[1], (Dims{n, 4}));
  return res;
}

TEST(BoxWithNmsLimitTest, HardSuppressesOverlap) {
  NmsResult r = runNms(0, 0.5f, 1.f, -1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(r.scoreDims, (Dims{2}));
  expectNear(r.scores, {0.9f, 0.7f});
  expectNear(r.boxes, {0, 0, 10, 10, 20, 20, 30, 30});
  EXPECT_EQ(r.classes, (std::vector<int32_t>{1, 1}));
  EXPECT_EQ(r.batches, (std::vector<int32_t>{0, 0}));
}

TEST(BoxWithNmsLimitTest, LinearAndGaussianDecayScores) {
  const float iou = 81.f / 119.f;
  NmsResult linear = runNms(1, 0.5f, 1.f, -1);
  ASSERT_EQ(linear.status, ANEURALNETWORKS_NO_ERROR);
  expectNear(linear.scores, {0.9f, 0.7f, 0.8f * (1 - iou)});
  expectNear(linear.boxes, {0, 0, 10, 10, 20, 20, 30, 30, 1, 1, 11, 11});
  NmsResult gaussian = runNms(2, 0.5f, 0.5f, -1);
  ASSERT_EQ(gaussian.status, ANEURALNETWORKS_NO_ERROR);
  expectNear(gaussian.scores, {0.9f, 0.7f, 0.8f * std::exp(-iou * iou / 0.5f)});
}

TEST(BoxWithNmsLimitTest, MaxDetectionsAndZeroResults) {
  NmsResult r = runNms(0, 0.5f, 1.f, 1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  expectNear(r.scores, {0.9f});
  // Every score below the 0.3 threshold: no boxes, zero-sized outputs.
  r = runNms(0, 0.5f, 1.f, -1, {0.1f, 0.2f, 0.25f});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(r.scoreDims, (Dims{0}));
}

TEST(BoxWithNmsLimitTest, InvalidKernelAndSingleClassRejected) {
  EXPECT_EQ(runNms(3, 0.5f, 1.f, -1).status, ANEURALNETWORKS_BAD_DATA);
  ModelBuilder m;
  const uint32_t scores = m.addOperand(kF32, {3, 1});  // background only
  const uint32_t rois = m.addOperand(kF32, {3, 4});
  const uint32_t batches = m.addOperand(kI32, {3});
  std::vector<uint32_t> outs{m.addOperand(kF32, {0}), m.addOperand(kF32, {0, 0}),
                             m.addOperand(kI32, {0}), m.addOperand(kI32, {0})};
  m.addOperation(ANEURALNETWORKS_BOX_WITH_NMS_LIMIT,
                 {scores, rois, batches, m.addFloat32(0.3f), m.addInt32(-1), m.addInt32(0),
                  m.addFloat32(0.5f), m.addFloat32(1.f), m.addFloat32(0.1f)},
                 outs);
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(m.finish({scores, rois, batches}, outs), ANEURALNETWORKS_BAD_DATA);
}

// BOX_WITH_NMS_LIMIT feeding ROI_ALIGN: the number of boxes is only known at execution and
// may be zero; one compilation runs with two different inputs.
TEST(BoxWithNmsLimitTest, FeedsRoiAlignWithDataDependentCounts) {
  ModelBuilder m;
  const uint32_t scores = m.addOperand(kF32, {2, 2});
  const uint32_t rois = m.addOperand(kF32, {2, 8});
  const uint32_t batches = m.addOperand(kI32, {2});
  const uint32_t map = m.addOperand(kF32, {1, 4, 4, 1});
  const uint32_t outScores = m.addOperand(kF32, {0});
  const uint32_t outRois = m.addOperand(kF32, {0, 0});
  const uint32_t outClasses = m.addOperand(kI32, {0});
  const uint32_t outBatches = m.addOperand(kI32, {0});
  m.addOperation(ANEURALNETWORKS_BOX_WITH_NMS_LIMIT,
                 {scores, rois, batches, m.addFloat32(0.3f), m.addInt32(-1), m.addInt32(0),
                  m.addFloat32(0.5f), m.addFloat32(1.f), m.addFloat32(0.1f)},
                 {outScores, outRois, outClasses, outBatches});
  const uint32_t aligned = m.addOperand(kF32, {0, 2, 2, 1});
  m.addOperation(ANEURALNETWORKS_ROI_ALIGN,
                 {map, outRois, outBatches, m.addInt32(2), m.addInt32(2), m.addFloat32(1),
                  m.addFloat32(1), m.addInt32(1), m.addInt32(1), m.addBool(false)},
                 {aligned});
  ASSERT_EQ(m.finish({scores, rois, batches, map}, {outScores, aligned}), ANEURALNETWORKS_NO_ERROR);
  ANeuralNetworksCompilation* comp = nullptr;
  ASSERT_EQ(ANeuralNetworksCompilation_create(m.get(), &comp), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(ANeuralNetworksCompilation_finish(comp), ANEURALNETWORKS_NO_ERROR);
  const std::vector<float> boxes{0, 0, 4, 4, 0, 0, 4, 4, 0, 0, 2, 2, 0, 0, 2, 2};
  const std::vector<int32_t> batchIds{0, 0};
  const std::vector<float> mapValues = rampMap();
  auto run = [&](const std::vector<float>& s, uint32_t expectBoxes, std::vector<float> expect) {
    ANeuralNetworksExecution* exec = nullptr;
    ASSERT_EQ(ANeuralNetworksExecution_create(comp, &exec), ANEURALNETWORKS_NO_ERROR);
    ANeuralNetworksExecution_setInput(exec, 0, nullptr, s.data(), s.size() * 4);
    ANeuralNetworksExecution_setInput(exec, 1, nullptr, boxes.data(), boxes.size() * 4);
    ANeuralNetworksExecution_setInput(exec, 2, nullptr, batchIds.data(), batchIds.size() * 4);
    ANeuralNetworksExecution_setInput(exec, 3, nullptr, mapValues.data(), mapValues.size() * 4);
    std::vector<float> o0(4), o1(16);
    ANeuralNetworksExecution_setOutput(exec, 0, nullptr, o0.data(), o0.size() * 4);
    ANeuralNetworksExecution_setOutput(exec, 1, nullptr, o1.data(), o1.size() * 4);
    ASSERT_EQ(ANeuralNetworksExecution_compute(exec), ANEURALNETWORKS_NO_ERROR);
    uint32_t dims[4] = {};
    ASSERT_EQ(ANeuralNetworksExecution_getOutputOperandDimensions(exec, 1, dims),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(dims[0], expectBoxes);
    o1.resize(expectBoxes * 4);
    expectNear(o1, expect);
    ANeuralNetworksExecution_free(exec);
  };
  // Both boxes survive (IoU 0.25 < 0.5): sorted by score, the small box first.
  run({0, 0.6f, 0, 0.9f}, 2, {2.5f, 3.5f, 6.5f, 7.5f, 5, 7, 13, 15});
  // Nothing passes the score threshold: ROI_ALIGN gets zero boxes.
  run({0, 0.1f, 0, 0.2f}, 0, {});
  ANeuralNetworksCompilation_free(comp);
}

// ---- GENERATE_PROPOSALS ----------------------------------------------------------------

// A 1x1 feature map with two anchors; zero deltas keep the anchors as they are.
nntest::RunResult runProposals(const std::vector<float>& anchors, const std::vector<float>& scores,
                               float minSize, int32_t postNms) {
  ModelBuilder m;
  const uint32_t s = m.addOperand(kF32, {1, 1, 1, 2});
  const uint32_t d = m.addOperand(kF32, {1, 1, 1, 8});
  const uint32_t a = m.addOperand(kF32, {2, 4});
  const uint32_t info = m.addOperand(kF32, {1, 2});
  std::vector<uint32_t> outs{m.addOperand(kF32, {0}), m.addOperand(kF32, {0, 0}),
                             m.addOperand(kI32, {0})};
  m.addOperation(ANEURALNETWORKS_GENERATE_PROPOSALS,
                 {s, d, a, info, m.addFloat32(1), m.addFloat32(1), m.addInt32(-1),
                  m.addInt32(postNms), m.addFloat32(0.5f), m.addFloat32(minSize),
                  m.addBool(false)},
                 outs);
  EXPECT_EQ(m.finish({s, d, a, info}, outs), ANEURALNETWORKS_NO_ERROR);
  return nntest::runModel(m,
                          {bytesOf(scores), bytesOf(std::vector<float>(8, 0.f)), bytesOf(anchors),
                           bytesOf<float>({100, 100})},
                          {8, 32, 8});
}

TEST(GenerateProposalsTest, NmsAndMinSize) {
  // Overlapping anchors (IoU 81/119): the lower-scoring one is suppressed.
  auto r = runProposals({0, 0, 10, 10, 1, 1, 11, 11}, {0.4f, 0.8f}, 1.f, -1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1}));
  expectNear({valuesOf<float>(r.outputs[0])[0]}, {0.8f});
  auto box = valuesOf<float>(r.outputs[1]);
  box.resize(4);
  expectNear(box, {1, 1, 11, 11});
  // Disjoint anchors: both kept, highest score first; a 2x2 box falls under min_size 5.
  r = runProposals({0, 0, 10, 10, 50, 50, 52, 52}, {0.4f, 0.8f}, 5.f, -1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1}));
  r = runProposals({0, 0, 10, 10, 50, 50, 60, 60}, {0.4f, 0.8f}, 1.f, -1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{2}));
  expectNear(valuesOf<float>(r.outputs[0]), {0.8f, 0.4f});
  EXPECT_EQ(valuesOf<int32_t>(r.outputs[2]), (std::vector<int32_t>{0, 0}));
  // post_nms_top 1 keeps only the best.
  r = runProposals({0, 0, 10, 10, 50, 50, 60, 60}, {0.4f, 0.8f}, 1.f, 1);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1}));
}

TEST(GenerateProposalsTest, InvalidAnchorFailsAtExecution) {
  auto r = runProposals({10, 0, 0, 10, 50, 50, 60, 60}, {0.4f, 0.8f}, 1.f, -1);
  EXPECT_EQ(r.status, ANEURALNETWORKS_OP_FAILED);
}

// ---- DETECTION_POSTPROCESSING ----------------------------------------------------------

nntest::RunResult runPostprocess(bool regular, int32_t maxDetections, bool bgInLabel,
                                 int* buildStatus = nullptr) {
  ModelBuilder m;
  const uint32_t scores = m.addOperand(kF32, {1, 2, 3});
  const uint32_t deltas = m.addOperand(kF32, {1, 2, 4});
  const uint32_t anchors = m.addOperand(kF32, {2, 4});
  std::vector<uint32_t> outs{m.addOperand(kF32, {0, 0}), m.addOperand(kF32, {0, 0, 0}),
                             m.addOperand(kI32, {0, 0}), m.addOperand(kI32, {0})};
  m.addOperation(ANEURALNETWORKS_DETECTION_POSTPROCESSING,
                 {scores, deltas, anchors, m.addFloat32(10), m.addFloat32(10), m.addFloat32(5),
                  m.addFloat32(5), m.addBool(regular), m.addInt32(maxDetections), m.addInt32(2),
                  m.addInt32(1), m.addFloat32(0.3f), m.addFloat32(0.5f), m.addBool(bgInLabel)},
                 outs);
  const int st = m.finish({scores, deltas, anchors}, outs);
  if (buildStatus) *buildStatus = st;
  if (st != ANEURALNETWORKS_NO_ERROR) {
    nntest::RunResult r;
    r.status = st;
    return r;
  }
  // Anchor 0: class 1 0.9, class 2 0.4. Anchor 1: class 1 0.2, class 2 0.8.
  return nntest::runModel(
      m,
      {bytesOf<float>({0.0f, 0.9f, 0.4f, 0.0f, 0.2f, 0.8f}),
       bytesOf<float>({0, 0, 0, 0, 10, 0, 0, 0}),  // anchor 1 moves down by one height
       bytesOf<float>({5, 5, 10, 10, 50, 50, 10, 10})},
      {4 * 4, 4 * 16, 4 * 4, 4});
}

TEST(DetectionPostprocessTest, RegularNmsPerClass) {
  auto r = runPostprocess(true, 3, false);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (Dims{1, 3}));
  // The buffers have room for 4 detections; the output holds 3.
  auto scores = valuesOf<float>(r.outputs[0]);
  auto boxes = valuesOf<float>(r.outputs[1]);
  auto classes = valuesOf<int32_t>(r.outputs[2]);
  scores.resize(3);
  boxes.resize(12);
  classes.resize(3);
  // Candidates above 0.3: (anchor 0, class 1) 0.9, (anchor 1, class 2) 0.8 and
  // (anchor 0, class 2) 0.4; one detection per class drops the last. Unused slots stay 0.
  expectNear(scores, {0.9f, 0.8f, 0});
  EXPECT_EQ(classes, (std::vector<int32_t>{0, 1, 0}));
  // Boxes as [y1, x1, y2, x2]; anchor 1's centre moves by 10 * 10 / 10 = 10 in y.
  expectNear(boxes, {0, 0, 10, 10, 55, 45, 65, 55, 0, 0, 0, 0});
  EXPECT_EQ(valuesOf<int32_t>(r.outputs[3]), (std::vector<int32_t>{2}));
}

TEST(DetectionPostprocessTest, FastNmsUsesBestClassPerAnchor) {
  auto r = runPostprocess(false, 2, true);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  // max_classes_per_detection 2: two entries per kept anchor.
  EXPECT_EQ(r.outputDims[0], (Dims{1, 4}));
  expectNear(valuesOf<float>(r.outputs[0]), {0.9f, 0.4f, 0.8f, 0.2f});
  EXPECT_EQ(valuesOf<int32_t>(r.outputs[2]), (std::vector<int32_t>{1, 2, 2, 1}));
  EXPECT_EQ(valuesOf<int32_t>(r.outputs[3]), (std::vector<int32_t>{4}));
}

TEST(DetectionPostprocessTest, NonPositiveMaxDetectionsRejected) {
  int st = 0;
  auto r = runPostprocess(true, 0, false, &st);
  EXPECT_EQ(r.status, ANEURALNETWORKS_BAD_DATA);
}

// ---- HEATMAP_MAX_KEYPOINT --------------------------------------------------------------

nntest::RunResult runHeatmap(const std::vector<float>& heat, uint32_t size,
                             const std::vector<float>& box) {
  ModelBuilder m;
  const uint32_t h = m.addOperand(kF32, {1, size, size, 1});
  const uint32_t b = m.addOperand(kF32, {1, 4});
  const uint32_t s = m.addOperand(kF32, {0, 0});
  const uint32_t k = m.addOperand(kF32, {0, 0, 0});
  m.addOperation(ANEURALNETWORKS_HEATMAP_MAX_KEYPOINT, {h, b, m.addBool(false)}, {s, k});
  const int st = m.finish({h, b}, {s, k});
  if (st != ANEURALNETWORKS_NO_ERROR) {
    nntest::RunResult r;
    r.status = st;
    return r;
  }
  return nntest::runModel(m, {bytesOf(heat), bytesOf(box)}, {4, 8});
}

TEST(HeatmapMaxKeypointTest, SymmetricPeakStaysCentred) {
  auto r = runHeatmap({0, 1, 0, 1, 4, 1, 0, 1, 0}, 3, {0, 0, 30, 60});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[1], (Dims{1, 1, 2}));
  expectNear(valuesOf<float>(r.outputs[0]), {4});
  // Cell centre (1.5 / 3) of the box: x = 15, y = 30.
  expectNear(valuesOf<float>(r.outputs[1]), {15, 30});
}

TEST(HeatmapMaxKeypointTest, QuadraticFitShiftsTowardsLargerNeighbour) {
  // Middle row 1, 4, 3: gradient b = (-1, 0), Hessian diag(-4, -8) -> offset x = 0.25 and
  // score 4 + 0.25 - 0.125.
  auto r = runHeatmap({0, 0, 0, 1, 4, 3, 0, 0, 0}, 3, {0, 0, 30, 30});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  expectNear(valuesOf<float>(r.outputs[0]), {4.125f});
  expectNear(valuesOf<float>(r.outputs[1]), {17.5f, 15});
}

TEST(HeatmapMaxKeypointTest, TooSmallHeatmapRejected) {
  EXPECT_EQ(runHeatmap({1}, 1, {0, 0, 1, 1}).status, ANEURALNETWORKS_BAD_DATA);
}

// ---- INSTANCE_NORMALIZATION ------------------------------------------------------------

nntest::RunResult runInstanceNorm(const Dims& dims, const std::vector<float>& in, float gamma,
                                  float beta, bool nchw) {
  ModelBuilder m;
  const uint32_t x = m.addOperand(kF32, dims);
  const uint32_t out = m.addOperand(kF32, dims);
  m.addOperation(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
                 {x, m.addFloat32(gamma), m.addFloat32(beta), m.addFloat32(0.f), m.addBool(nchw)},
                 {out});
  const int st = m.finish({x}, {out});
  if (st != ANEURALNETWORKS_NO_ERROR) {
    nntest::RunResult r;
    r.status = st;
    return r;
  }
  return nntest::runModel(m, {bytesOf(in)}, {in.size() * sizeof(float)});
}

TEST(InstanceNormTest, NormalizesEachPlane) {
  // Mean 2.5, variance 1.25.
  const float s = 1.f / std::sqrt(1.25f);
  auto r = runInstanceNorm({1, 2, 2, 1}, {1, 2, 3, 4}, 2.f, 1.f, false);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  expectNear(valuesOf<float>(r.outputs[0]),
             {1 - 3 * s, 1 - s, 1 + s, 1 + 3 * s});
}

TEST(InstanceNormTest, ChannelsAreIndependentInBothLayouts) {
  // Channel 0 holds {1, 3}, channel 1 {10, 20}: each normalizes to {-1, 1}.
  auto nchw = runInstanceNorm({1, 2, 1, 2}, {1, 3, 10, 20}, 1.f, 0.f, true);
  ASSERT_EQ(nchw.status, ANEURALNETWORKS_NO_ERROR) << nchw.step;
  expectNear(valuesOf<float>(nchw.outputs[0]), {-1, 1, -1, 1});
  auto nhwc = runInstanceNorm({1, 1, 2, 2}, {1, 10, 3, 20}, 1.f, 0.f, false);
  ASSERT_EQ(nhwc.status, ANEURALNETWORKS_NO_ERROR) << nhwc.step;
  expectNear(valuesOf<float>(nhwc.outputs[0]), {-1, -1, 1, 1});
}

TEST(InstanceNormTest, Rank3Rejected) {
  EXPECT_EQ(runInstanceNorm({2, 2, 1}, {1, 2, 3, 4}, 1.f, 0.f, false).status,
            ANEURALNETWORKS_BAD_DATA);
}

}  // namespace
