// Data-movement operations: RESHAPE, SQUEEZE, CONCATENATION, TRANSPOSE, PAD, STRIDED_SLICE,
// MEAN, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, DEPTH_TO_SPACE, SPACE_TO_DEPTH,
// EMBEDDING_LOOKUP, HASHTABLE_LOOKUP, RESIZE_BILINEAR. Expected values are worked out by hand
// in the comments next to each case.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "test_util.h"

namespace {

using nntest::bytesOf;
using nntest::ModelBuilder;
using nntest::RunResult;
using nntest::runModel;
using nntest::valuesOf;

constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;

std::vector<float> iota(size_t n, float start = 0.f) {
  std::vector<float> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

void expectFloats(const std::vector<float>& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], 1e-5f) << "element " << i;
}

// ---- RESHAPE ------------------------------------------------------------------------------

TEST(ShapeOps, ReshapeInfersWildcard) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t shape = m.addConstant<int32_t>(kI32, {2}, {3, -1});
  const uint32_t out = m.addOperand(kF32, {3, 2});
  m.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  const auto data = iota(6);
  RunResult r = runModel(m, {bytesOf(data)}, {6 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 2}));
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), data);
}

// The shape tensor is a model input: the output shape is only known at execution.
TEST(ShapeOps, ReshapeDeferredShapeFromInput) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 6});
  const uint32_t shape = m.addOperand(kI32, {3});
  const uint32_t out = m.addOperand(kF32, {0, 0, 0});
  m.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out});
  ASSERT_EQ(m.finish({in, shape}, {out}), ANEURALNETWORKS_NO_ERROR);
  const auto data = iota(12);
  RunResult r = runModel(m, {bytesOf(data), bytesOf(std::vector<int32_t>{-1, 2, 3})},
                         {12 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{2, 2, 3}));
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), data);

  // Same compiled shape rule, different request value: 12 elements into [5, -1] is invalid.
  RunResult bad = runModel(m, {bytesOf(data), bytesOf(std::vector<int32_t>{5, -1, 1})},
                           {12 * sizeof(float)});
  EXPECT_NE(bad.status, ANEURALNETWORKS_NO_ERROR);
}

TEST(ShapeOps, ReshapeRejectsTwoWildcards) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t shape = m.addConstant<int32_t>(kI32, {2}, {-1, -1});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(ShapeOps, ReshapeRejectsElementCountMismatch) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t shape = m.addConstant<int32_t>(kI32, {2}, {4, 2});
  const uint32_t out = m.addOperand(kF32, {4, 2});
  m.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out});
  const int finish = m.finish({in}, {out});
  if (finish != ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(finish, ANEURALNETWORKS_BAD_DATA);
    return;
  }
  RunResult r = runModel(m, {bytesOf(iota(6))}, {8 * sizeof(float)});
  EXPECT_EQ(r.status, ANEURALNETWORKS_BAD_DATA) << r.step;
}

TEST(ShapeOps, ReshapeRejectsDifferentQuantization) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kQ8, {2, 3}, 0.5f, 3);
  const uint32_t shape = m.addConstant<int32_t>(kI32, {1}, {6});
  const uint32_t out = m.addOperand(kQ8, {6}, 0.25f, 3);
  m.addOperation(ANEURALNETWORKS_RESHAPE, {in, shape}, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- SQUEEZE ------------------------------------------------------------------------------

TEST(ShapeOps, SqueezeAllOrSelected) {
  const auto data = iota(6);
  {
    ModelBuilder m;  // axes omitted: every size-1 dimension goes
    const uint32_t in = m.addOperand(kF32, {1, 3, 1, 2});
    const uint32_t axes = m.addNoValue(kI32, {0});
    const uint32_t out = m.addOperand(kF32, {3, 2});
    m.addOperation(ANEURALNETWORKS_SQUEEZE, {in, axes}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(data)}, {6 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs[0]), data);
  }
  {
    ModelBuilder m;  // axes [-2]: only dimension 2
    const uint32_t in = m.addOperand(kF32, {1, 3, 1, 2});
    const uint32_t axes = m.addConstant<int32_t>(kI32, {1}, {-2});
    const uint32_t out = m.addOperand(kF32, {0, 0, 0});
    m.addOperation(ANEURALNETWORKS_SQUEEZE, {in, axes}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(data)}, {6 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{1, 3, 2}));
  }
  {
    ModelBuilder m;  // axes arrive with the request: squeeze dimension 0 only
    const uint32_t in = m.addOperand(kF32, {1, 3, 1, 2});
    const uint32_t axes = m.addOperand(kI32, {1});
    const uint32_t out = m.addOperand(kF32, {0, 0, 0});
    m.addOperation(ANEURALNETWORKS_SQUEEZE, {in, axes}, {out});
    ASSERT_EQ(m.finish({in, axes}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(data), bytesOf(std::vector<int32_t>{0})},
                           {6 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{3, 1, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs[0]), data);
  }
}

TEST(ShapeOps, SqueezeRejectsNonUnitDimension) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {1, 3, 1, 2});
  const uint32_t axes = m.addConstant<int32_t>(kI32, {1}, {1});
  const uint32_t out = m.addOperand(kF32, {0, 0, 0});
  m.addOperation(ANEURALNETWORKS_SQUEEZE, {in, axes}, {out});
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- CONCATENATION ------------------------------------------------------------------------

TEST(ShapeOps, ConcatenationInnerAxis) {
  // [[1],[2]] ++ [[10,11],[20,21]] along axis -1 -> [[1,10,11],[2,20,21]]
  ModelBuilder m;
  const uint32_t a = m.addOperand(kF32, {2, 1});
  const uint32_t b = m.addOperand(kF32, {2, 2});
  const uint32_t axis = m.addInt32(-1);
  const uint32_t out = m.addOperand(kF32, {2, 3});
  m.addOperation(ANEURALNETWORKS_CONCATENATION, {a, b, axis}, {out});
  ASSERT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(std::vector<float>{1, 2}),
                             bytesOf(std::vector<float>{10, 11, 20, 21})},
                         {6 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{1, 10, 11, 2, 20, 21}));
}

TEST(ShapeOps, ConcatenationRequantizesQuant8) {
  // Input a shares the output quantization (scale 1, zp 0): copied as is.
  // Input b has scale 0.5, zp 10: q -> round((q - 10) * 0.5), halves away from zero:
  //   10 -> 0, 13 -> 1.5 -> 2, 17 -> 3.5 -> 4, 255 -> 122.5 -> 123.
  ModelBuilder m;
  const uint32_t a = m.addOperand(kQ8, {1, 2}, 1.f, 0);
  const uint32_t b = m.addOperand(kQ8, {1, 4}, 0.5f, 10);
  const uint32_t axis = m.addInt32(1);
  const uint32_t out = m.addOperand(kQ8, {1, 6}, 1.f, 0);
  m.addOperation(ANEURALNETWORKS_CONCATENATION, {a, b, axis}, {out});
  ASSERT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {std::vector<uint8_t>{7, 200}, std::vector<uint8_t>{10, 13, 17, 255}},
                         {6});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{7, 200, 0, 2, 4, 123}));
}

TEST(ShapeOps, ConcatenationRejectsMismatchedDims) {
  ModelBuilder m;
  const uint32_t a = m.addOperand(kF32, {2, 1});
  const uint32_t b = m.addOperand(kF32, {3, 2});
  const uint32_t axis = m.addInt32(1);
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_CONCATENATION, {a, b, axis}, {out});
  const int finish = m.finish({a, b}, {out});
  if (finish != ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(finish, ANEURALNETWORKS_BAD_DATA);
    return;
  }
  RunResult r = runModel(m, {bytesOf(iota(2)), bytesOf(iota(6))}, {8 * sizeof(float)});
  EXPECT_EQ(r.status, ANEURALNETWORKS_BAD_DATA) << r.step;
}

TEST(ShapeOps, ConcatenationRejectsAxisOutOfRange) {
  ModelBuilder m;
  const uint32_t a = m.addOperand(kF32, {2, 1});
  const uint32_t b = m.addOperand(kF32, {2, 1});
  const uint32_t axis = m.addInt32(2);
  const uint32_t out = m.addOperand(kF32, {2, 2});
  m.addOperation(ANEURALNETWORKS_CONCATENATION, {a, b, axis}, {out});
  EXPECT_EQ(m.finish({a, b}, {out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- TRANSPOSE ----------------------------------------------------------------------------

TEST(ShapeOps, TransposeDefaultPermutation) {
  // [[1,2,3],[4,5,6]]^T = [[1,4],[2,5],[3,6]]
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t perm = m.addNoValue(kI32, {0});
  const uint32_t out = m.addOperand(kF32, {3, 2});
  m.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, perm}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(iota(6, 1))}, {6 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(ShapeOps, TransposeRejectsNonPermutation) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t perm = m.addConstant<int32_t>(kI32, {2}, {0, 0});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, perm}, {out});
  const int finish = m.finish({in}, {out});
  if (finish != ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(finish, ANEURALNETWORKS_BAD_DATA);
    return;
  }
  RunResult r = runModel(m, {bytesOf(iota(6))}, {6 * sizeof(float)});
  EXPECT_EQ(r.status, ANEURALNETWORKS_BAD_DATA) << r.step;
}

// The tiled fast path against the per-element reference device, every 4-D permutation,
// for 1-byte and 4-byte elements.
TEST(ShapeOps, TransposeFastMatchesReference) {
  std::mt19937 rng(1234);
  const std::vector<uint32_t> dims = {3, 37, 5, 41};
  const size_t count = 3 * 37 * 5 * 41;
  std::vector<int32_t> perm = {0, 1, 2, 3};
  std::vector<uint8_t> q(count);
  std::vector<float> f(count);
  for (size_t i = 0; i < count; ++i) {
    q[i] = static_cast<uint8_t>(rng());
    f[i] = static_cast<float>(rng() % 100000) / 7.f;
  }
  do {
    for (int32_t type : {kQ8, kF32}) {
      ModelBuilder m;
      const float scale = type == kQ8 ? 0.5f : 0.f;
      const uint32_t in = m.addOperand(type, dims, scale, 0);
      const uint32_t p = m.addConstant<int32_t>(kI32, {4}, perm);
      const uint32_t out = m.addOperand(type, {0, 0, 0, 0}, scale, 0);
      m.addOperation(ANEURALNETWORKS_TRANSPOSE, {in, p}, {out});
      ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
      const std::vector<uint8_t> input = type == kQ8 ? q : bytesOf(f);
      RunResult fast = runModel(m, {input}, {input.size()});
      RunResult ref = runModel(m, {input}, {input.size()}, "nnapi-cpu-reference");
      ASSERT_EQ(fast.status, ANEURALNETWORKS_NO_ERROR) << fast.step;
      ASSERT_EQ(ref.status, ANEURALNETWORKS_NO_ERROR) << ref.step;
      const std::vector<uint32_t> expectDims = {dims[perm[0]], dims[perm[1]], dims[perm[2]],
                                                dims[perm[3]]};
      EXPECT_EQ(fast.outputDims[0], expectDims);
      EXPECT_EQ(fast.outputs[0], ref.outputs[0])
          << "perm " << perm[0] << perm[1] << perm[2] << perm[3];
      // Spot-check one element against the definition out[i] = in[perm-mapped index].
      const uint32_t oi[4] = {1, 2, 3, 4};
      uint32_t ii[4];
      for (int k = 0; k < 4; ++k) ii[perm[k]] = oi[k] % expectDims[k];
      const size_t src = ((size_t(ii[0]) * dims[1] + ii[1]) * dims[2] + ii[2]) * dims[3] + ii[3];
      const size_t dst = ((size_t(oi[0] % expectDims[0]) * expectDims[1] + oi[1] % expectDims[1]) *
                              expectDims[2] + oi[2] % expectDims[2]) * expectDims[3] +
                         oi[3] % expectDims[3];
      const size_t es = type == kQ8 ? 1 : 4;
      EXPECT_EQ(0, memcmp(&fast.outputs[0][dst * es], &input[src * es], es));
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
}

// ---- PAD ----------------------------------------------------------------------------------

TEST(ShapeOps, PadFloatAndQuantZeroPoint) {
  // [[1,2],[3,4]] padded with rows (1 before, 0 after) and columns (0 before, 2 after):
  //   [[0,0,0,0],[1,2,0,0],[3,4,0,0]]; for quant8 the padding value is the zero point.
  for (int32_t type : {kF32, kQ8}) {
    ModelBuilder m;
    const float scale = type == kQ8 ? 0.5f : 0.f;
    const int32_t zp = type == kQ8 ? 7 : 0;
    const uint32_t in = m.addOperand(type, {2, 2}, scale, zp);
    const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {1, 0, 0, 2});
    const uint32_t out = m.addOperand(type, {3, 4}, scale, zp);
    m.addOperation(ANEURALNETWORKS_PAD, {in, pads}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    if (type == kF32) {
      RunResult r = runModel(m, {bytesOf(std::vector<float>{1, 2, 3, 4})}, {12 * sizeof(float)});
      ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
      EXPECT_EQ(valuesOf<float>(r.outputs[0]),
                (std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0}));
    } else {
      RunResult r = runModel(m, {std::vector<uint8_t>{1, 2, 3, 4}}, {12});
      ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
      EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{7, 7, 7, 7, 1, 2, 7, 7, 3, 4, 7, 7}));
    }
  }
}

// Channel padding of float32 NHWC data (BlazeFace's residual branches) takes a 16-lane masked
// copy on AVX-512: padding before and after the channels, output rows over one and several
// 16-element chunks, with and without H padding, a rank-2 tensor.
TEST(ShapeOps, PadFloatChannels) {
  struct Case {
    std::vector<uint32_t> dims;
    std::vector<int32_t> pads;
  };
  const Case cases[] = {{{1, 4, 5, 24}, {0, 0, 0, 0, 0, 0, 0, 4}},
                        {{2, 3, 3, 13}, {0, 0, 1, 2, 0, 0, 3, 1}},
                        {{1, 2, 7, 40}, {0, 0, 0, 0, 0, 0, 17, 20}},
                        {{3, 40}, {0, 0, 5, 20}},
                        {{1, 2, 2, 3}, {0, 0, 0, 0, 0, 0, 16, 0}}};
  for (const Case& k : cases) {
    const size_t rank = k.dims.size();
    std::vector<uint32_t> outDims(rank);
    size_t inCount = 1, outCount = 1;
    for (size_t i = 0; i < rank; ++i) {
      outDims[i] = k.dims[i] + k.pads[2 * i] + k.pads[2 * i + 1];
      inCount *= k.dims[i];
      outCount *= outDims[i];
    }
    std::vector<float> in(inCount);
    for (size_t i = 0; i < inCount; ++i) in[i] = i % 7 == 3 ? -0.0f : static_cast<float>(i) + 0.5f;
    // Expected: walk the output, map each index back to the input.
    std::vector<float> want(outCount, 0.f);
    for (size_t o = 0; o < outCount; ++o) {
      size_t rest = o, src = 0, stride = 1;
      bool inside = true;
      std::vector<size_t> idx(rank);
      for (size_t i = rank; i-- > 0;) {
        idx[i] = rest % outDims[i];
        rest /= outDims[i];
      }
      for (size_t i = rank; i-- > 0;) {
        const int64_t j = static_cast<int64_t>(idx[i]) - k.pads[2 * i];
        if (j < 0 || j >= static_cast<int64_t>(k.dims[i])) inside = false;
        src += static_cast<size_t>(j) * stride;
        stride *= k.dims[i];
      }
      if (inside) want[o] = in[src];
    }
    ModelBuilder m;
    const uint32_t inOp = m.addOperand(kF32, k.dims);
    const uint32_t pads = m.addConstant<int32_t>(kI32, {static_cast<uint32_t>(rank), 2}, k.pads);
    const uint32_t out = m.addOperand(kF32, outDims);
    m.addOperation(ANEURALNETWORKS_PAD, {inOp, pads}, {out});
    ASSERT_EQ(m.finish({inOp}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(in)}, {outCount * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    const auto got = valuesOf<float>(r.outputs[0]);
    ASSERT_EQ(got.size(), outCount);
    for (size_t o = 0; o < outCount; ++o) {
      ASSERT_EQ(got[o], want[o]) << "element " << o;
      ASSERT_EQ(std::signbit(got[o]), std::signbit(want[o])) << "element " << o;
    }
  }
}

TEST(ShapeOps, PadRejectsNegativePadding) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 2});
  const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {0, -1, 0, 0});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_PAD, {in, pads}, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(ShapeOps, PadRejectsWrongPaddingsShapeAtExecution) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 2});
  const uint32_t pads = m.addOperand(kI32, {3, 2});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  m.addOperation(ANEURALNETWORKS_PAD, {in, pads}, {out});
  ASSERT_EQ(m.finish({in, pads}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(iota(4)), bytesOf(std::vector<int32_t>(6, 0))},
                         {64 * sizeof(float)});
  EXPECT_NE(r.status, ANEURALNETWORKS_NO_ERROR);
}

// ---- STRIDED_SLICE ------------------------------------------------------------------------

struct SliceCase {
  std::vector<int32_t> begin, end, strides;
  int32_t beginMask, endMask, shrinkMask;
};

RunResult runSlice(const SliceCase& s, const std::vector<uint32_t>& outDims, int* finishStatus) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {3, 4});
  const uint32_t b = m.addConstant<int32_t>(kI32, {2}, s.begin);
  const uint32_t e = m.addConstant<int32_t>(kI32, {2}, s.end);
  const uint32_t st = m.addConstant<int32_t>(kI32, {2}, s.strides);
  const uint32_t bm = m.addInt32(s.beginMask);
  const uint32_t em = m.addInt32(s.endMask);
  const uint32_t sm = m.addInt32(s.shrinkMask);
  const uint32_t out = m.addOperand(kF32, outDims);
  m.addOperation(ANEURALNETWORKS_STRIDED_SLICE, {in, b, e, st, bm, em, sm}, {out});
  *finishStatus = m.finish({in}, {out});
  if (*finishStatus != ANEURALNETWORKS_NO_ERROR) return RunResult{};
  return runModel(m, {bytesOf(iota(12))}, {12 * sizeof(float)});
}

TEST(ShapeOps, StridedSliceSemantics) {
  // Input 3x4 holds 0..11 (row r, column c -> 4r + c).
  int fin;
  // Rows 1..2, columns from -1 (=3) down to 0 exclusive with stride -2: columns 3, 1.
  RunResult r = runSlice({{1, -1}, {3, 0}, {1, -2}, 0, 0, 0}, {0, 0}, &fin);
  ASSERT_EQ(fin, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{2, 2}));
  r.outputs[0].resize(4 * sizeof(float));
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{7, 5, 11, 9}));

  // shrink_axis on dimension 0 picks row 2: output [4] = 8..11.
  r = runSlice({{2, 0}, {3, 4}, {1, 1}, 0, 0, 1}, {0}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{4}));
  r.outputs[0].resize(4 * sizeof(float));
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{8, 9, 10, 11}));

  // begin_mask bit 0 ignores begin[0]=2; end_mask bit 1 ignores end[1]=1; out-of-range
  // begin -9 on dim 1 clamps to 0 but is masked anyway. Stride 2 on rows: rows 0, 2.
  r = runSlice({{2, -9}, {3, 1}, {2, 3}, 1, 2, 0}, {0, 0}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{2, 2}));
  r.outputs[0].resize(4 * sizeof(float));
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{0, 3, 8, 11}));

  // Reverse everything: begin/end masks with stride -1 on both dims.
  r = runSlice({{0, 0}, {0, 0}, {-1, -1}, 3, 3, 0}, {3, 4}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]),
            (std::vector<float>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(ShapeOps, StridedSliceRejectsBadValues) {
  int fin;
  // Shrinking a dimension whose slice holds 2 elements.
  RunResult r = runSlice({{0, 0}, {2, 4}, {1, 1}, 0, 0, 1}, {0}, &fin);
  if (fin == ANEURALNETWORKS_NO_ERROR) EXPECT_EQ(r.status, ANEURALNETWORKS_BAD_DATA) << r.step;
  else EXPECT_EQ(fin, ANEURALNETWORKS_BAD_DATA);
  // A zero stride is rejected when the model is finished.
  runSlice({{0, 0}, {2, 4}, {1, 0}, 0, 0, 0}, {0, 0}, &fin);
  EXPECT_EQ(fin, ANEURALNETWORKS_BAD_DATA);
}

// ---- MEAN ---------------------------------------------------------------------------------

TEST(ShapeOps, MeanFloatAxesAndKeepDims) {
  // [[1,2,3],[4,5,9]]; axes {1, -1} (a duplicate) -> row means [2, 6].
  for (int keep : {0, 1}) {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {2, 3});
    const uint32_t axes = m.addConstant<int32_t>(kI32, {2}, {1, -1});
    const uint32_t kd = m.addInt32(keep);
    const uint32_t out = m.addOperand(kF32, keep ? std::vector<uint32_t>{2, 1}
                                                 : std::vector<uint32_t>{2});
    m.addOperation(ANEURALNETWORKS_MEAN, {in, axes, kd}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(std::vector<float>{1, 2, 3, 4, 5, 9})}, {2 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    expectFloats(valuesOf<float>(r.outputs[0]), {2, 6});
  }
  {
    ModelBuilder m;  // reduce everything: output shape [1]
    const uint32_t in = m.addOperand(kF32, {2, 3});
    const uint32_t axes = m.addConstant<int32_t>(kI32, {2}, {0, 1});
    const uint32_t kd = m.addInt32(0);
    const uint32_t out = m.addOperand(kF32, {0});
    m.addOperation(ANEURALNETWORKS_MEAN, {in, axes, kd}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(std::vector<float>{1, 2, 3, 4, 5, 9})}, {sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{1}));
    expectFloats(valuesOf<float>(r.outputs[0]), {4});
  }
}

TEST(ShapeOps, MeanQuant8TruncatesRawMean) {
  // Column means over axis 0 of [[1,2,255],[2,2,254]]: sums 3, 4, 509 over 2 rows ->
  // integer division gives 1, 2, 254 (quantization shared by input and output).
  ModelBuilder m;
  const uint32_t in = m.addOperand(kQ8, {2, 3}, 0.5f, 10);
  const uint32_t axes = m.addConstant<int32_t>(kI32, {1}, {0});
  const uint32_t kd = m.addInt32(0);
  const uint32_t out = m.addOperand(kQ8, {3}, 0.5f, 10);
  m.addOperation(ANEURALNETWORKS_MEAN, {in, axes, kd}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {std::vector<uint8_t>{1, 2, 255, 2, 2, 254}}, {3});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{1, 2, 254}));
}

TEST(ShapeOps, MeanQuant8SignedRoundsDown) {
  // Means of {-3,-2} = -2.5 and {3,2} = 2.5 round down to -3 and 2 (the uint8 result for
  // the same values shifted by +128, shifted back).
  ModelBuilder m;
  const uint32_t in = m.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, {2, 2}, 0.5f, -1);
  const uint32_t axes = m.addConstant<int32_t>(kI32, {1}, {1});
  const uint32_t kd = m.addInt32(0);
  const uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, {2}, 0.5f, -1);
  m.addOperation(ANEURALNETWORKS_MEAN, {in, axes, kd}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(std::vector<int8_t>{-3, -2, 3, 2})}, {2});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<int8_t>(r.outputs[0]), (std::vector<int8_t>{-3, 2}));
}

TEST(ShapeOps, MeanRejectsAxisOutOfRange) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {2, 3});
  const uint32_t axes = m.addConstant<int32_t>(kI32, {1}, {2});
  const uint32_t kd = m.addInt32(0);
  const uint32_t out = m.addOperand(kF32, {0});
  m.addOperation(ANEURALNETWORKS_MEAN, {in, axes, kd}, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

// ---- BATCH_TO_SPACE_ND / SPACE_TO_BATCH_ND ------------------------------------------------

// Batch b (0..3) of a [4,1,2,1] tensor holds {2b, 2b+1}. With block [2,2], batch
// (oy*2 + ox) fills output pixels (oy, 2x + ox):
//   row 0: b0x0=0, b1x0=2, b0x1=1, b1x1=3; row 1: b2x0=4, b3x0=6, b2x1=5, b3x1=7.
const std::vector<float> kBatched = iota(8);
const std::vector<float> kSpatial = {0, 2, 1, 3, 4, 6, 5, 7};

TEST(ShapeOps, BatchToSpace) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {4, 1, 2, 1});
  const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
  const uint32_t out = m.addOperand(kF32, {1, 2, 4, 1});
  m.addOperation(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {in, block}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(kBatched)}, {8 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), kSpatial);
}

TEST(ShapeOps, BatchToSpaceRejectsIndivisibleBatch) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {3, 1, 2, 1});
  const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
  const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
  m.addOperation(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {in, block}, {out});
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(ShapeOps, BatchToSpaceRejectsZeroBlock) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {4, 1, 2, 1});
  const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {0, 2});
  const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
  m.addOperation(ANEURALNETWORKS_BATCH_TO_SPACE_ND, {in, block}, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(ShapeOps, SpaceToBatchInverseAndPadding) {
  {
    ModelBuilder m;  // the inverse of the BatchToSpace case
    const uint32_t in = m.addOperand(kF32, {1, 2, 4, 1});
    const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
    const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {0, 0, 0, 0});
    const uint32_t out = m.addOperand(kF32, {4, 1, 2, 1});
    m.addOperation(ANEURALNETWORKS_SPACE_TO_BATCH_ND, {in, block, pads}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(kSpatial)}, {8 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(valuesOf<float>(r.outputs[0]), kBatched);
  }
  {
    // One pixel (value 5), padded top 1 and right 1 to 2x2: [[p, p], [5, p]]. Batch
    // (oy*2 + ox) takes pixel (oy, ox): p, p, 5, p with p = zero point 3.
    ModelBuilder m;
    const uint32_t in = m.addOperand(kQ8, {1, 1, 1, 1}, 1.f, 3);
    const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
    const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {1, 0, 0, 1});
    const uint32_t out = m.addOperand(kQ8, {4, 1, 1, 1}, 1.f, 3);
    m.addOperation(ANEURALNETWORKS_SPACE_TO_BATCH_ND, {in, block, pads}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {std::vector<uint8_t>{5}}, {4});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{3, 3, 5, 3}));
  }
}

TEST(ShapeOps, SpaceToBatchRejectsBadPaddings) {
  {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 2, 4, 1});
    const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
    const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {0, -2, 0, 0});
    const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
    m.addOperation(ANEURALNETWORKS_SPACE_TO_BATCH_ND, {in, block, pads}, {out});
    EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    ModelBuilder m;  // padded height 3 is not a multiple of 2
    const uint32_t in = m.addOperand(kF32, {1, 2, 4, 1});
    const uint32_t block = m.addConstant<int32_t>(kI32, {2}, {2, 2});
    const uint32_t pads = m.addConstant<int32_t>(kI32, {2, 2}, {1, 0, 0, 0});
    const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
    m.addOperation(ANEURALNETWORKS_SPACE_TO_BATCH_ND, {in, block, pads}, {out});
    // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
}

// ---- DEPTH_TO_SPACE / SPACE_TO_DEPTH ------------------------------------------------------

// NHWC [1,1,2,4] holding 0..7 (pixel p, channel c -> 4p + c), block 2 -> [1,2,4,1]:
// output (y, x) takes channel (y%2)*2 + x%2 of pixel x/2:
//   row 0: p0c0=0, p0c1=1, p1c0=4, p1c1=5; row 1: p0c2=2, p0c3=3, p1c2=6, p1c3=7.
const std::vector<float> kDepth = iota(8);
const std::vector<float> kSpace = {0, 1, 4, 5, 2, 3, 6, 7};

TEST(ShapeOps, DepthToSpaceAndBack) {
  {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 1, 2, 4});
    const uint32_t bs = m.addInt32(2);
    const uint32_t out = m.addOperand(kF32, {1, 2, 4, 1});
    m.addOperation(ANEURALNETWORKS_DEPTH_TO_SPACE, {in, bs}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(kDepth)}, {8 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(valuesOf<float>(r.outputs[0]), kSpace);
  }
  {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 2, 4, 1});
    const uint32_t bs = m.addInt32(2);
    const uint32_t out = m.addOperand(kF32, {1, 1, 2, 4});
    m.addOperation(ANEURALNETWORKS_SPACE_TO_DEPTH, {in, bs}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {bytesOf(kSpace)}, {8 * sizeof(float)});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(valuesOf<float>(r.outputs[0]), kDepth);
  }
}

TEST(ShapeOps, DepthToSpaceNchw) {
  // The same logical tensor stored NCHW: input [1,4,1,2] holds channel c's row {c, 4+c},
  // i.e. 0,4,1,5,2,6,3,7; output [1,1,2,4] in NCHW is the single-channel image above.
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {1, 4, 1, 2});
  const uint32_t bs = m.addInt32(2);
  const uint32_t nchw = m.addBool(true);
  const uint32_t out = m.addOperand(kF32, {1, 1, 2, 4});
  m.addOperation(ANEURALNETWORKS_DEPTH_TO_SPACE, {in, bs, nchw}, {out});
  ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(std::vector<float>{0, 4, 1, 5, 2, 6, 3, 7})},
                         {8 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), kSpace);
}

TEST(ShapeOps, DepthSpaceRejectBadBlocks) {
  {
    ModelBuilder m;
    const uint32_t in = m.addOperand(kF32, {1, 1, 2, 4});
    const uint32_t bs = m.addInt32(0);
    const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
    m.addOperation(ANEURALNETWORKS_DEPTH_TO_SPACE, {in, bs}, {out});
    EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    ModelBuilder m;  // depth 4 is not divisible by 3*3
    const uint32_t in = m.addOperand(kF32, {1, 1, 2, 4});
    const uint32_t bs = m.addInt32(3);
    const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
    m.addOperation(ANEURALNETWORKS_DEPTH_TO_SPACE, {in, bs}, {out});
    // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
  }
  {
    ModelBuilder m;  // width 4 is not divisible by 3
    const uint32_t in = m.addOperand(kF32, {1, 2, 4, 1});
    const uint32_t bs = m.addInt32(3);
    const uint32_t out = m.addOperand(kF32, {0, 0, 0, 0});
    m.addOperation(ANEURALNETWORKS_SPACE_TO_DEPTH, {in, bs}, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);  // issue 9: checked at finish
  }
}

// ---- EMBEDDING_LOOKUP / HASHTABLE_LOOKUP --------------------------------------------------

TEST(ShapeOps, EmbeddingLookup) {
  ModelBuilder m;
  const uint32_t lookups = m.addOperand(kI32, {2});
  const uint32_t values = m.addConstant<float>(kF32, {3, 2}, {0, 1, 10, 11, 20, 21});
  const uint32_t out = m.addOperand(kF32, {2, 2});
  m.addOperation(ANEURALNETWORKS_EMBEDDING_LOOKUP, {lookups, values}, {out});
  ASSERT_EQ(m.finish({lookups}, {out}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(std::vector<int32_t>{2, 0})}, {4 * sizeof(float)});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<float>(r.outputs[0]), (std::vector<float>{20, 21, 0, 1}));
  // An index outside [0, 3) must fail the execution.
  RunResult bad = runModel(m, {bytesOf(std::vector<int32_t>{1, 3})}, {4 * sizeof(float)});
  EXPECT_NE(bad.status, ANEURALNETWORKS_NO_ERROR);
}

TEST(ShapeOps, HashtableLookupWithHits) {
  // keys {-3, 5, 9} map to rows {0,1}, {10,11}, {20,21}; lookups 9, 4 (miss), -3.
  ModelBuilder m;
  const uint32_t lookups = m.addOperand(kI32, {3});
  const uint32_t keys = m.addConstant<int32_t>(kI32, {3}, {-3, 5, 9});
  const uint32_t values = m.addConstant<int32_t>(kI32, {3, 2}, {0, 1, 10, 11, 20, 21});
  const uint32_t out = m.addOperand(kI32, {3, 2});
  const uint32_t hits = m.addOperand(kQ8, {3}, 1.f, 0);
  m.addOperation(ANEURALNETWORKS_HASHTABLE_LOOKUP, {lookups, keys, values}, {out, hits});
  ASSERT_EQ(m.finish({lookups}, {out, hits}), ANEURALNETWORKS_NO_ERROR);
  RunResult r = runModel(m, {bytesOf(std::vector<int32_t>{9, 4, -3})}, {6 * sizeof(int32_t), 3});
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(valuesOf<int32_t>(r.outputs[0]), (std::vector<int32_t>{20, 21, 0, 0, 0, 1}));
  EXPECT_EQ(r.outputs[1], (std::vector<uint8_t>{1, 0, 1}));
}

TEST(ShapeOps, HashtableLookupRejectsKeyValueMismatch) {
  ModelBuilder m;
  const uint32_t lookups = m.addOperand(kI32, {1});
  const uint32_t keys = m.addConstant<int32_t>(kI32, {2}, {1, 2});
  const uint32_t values = m.addConstant<float>(kF32, {3, 1}, {0, 1, 2});
  const uint32_t out = m.addOperand(kF32, {0, 0});
  const uint32_t hits = m.addOperand(kQ8, {0}, 1.f, 0);
  m.addOperation(ANEURALNETWORKS_HASHTABLE_LOOKUP, {lookups, keys, values}, {out, hits});
  // Constants and fully specified inputs decide the shape rule: finish rejects it (issue 9).
  ASSERT_EQ(m.finish({lookups}, {out, hits}), ANEURALNETWORKS_BAD_DATA);
}

// ---- RESIZE_BILINEAR ----------------------------------------------------------------------

// Input [1,2,2,1] = [[0,4],[8,12]] is the plane f(r, c) = 8r + 4c, so bilinear samples are
// f at the mapped source coordinates.
RunResult runResize(bool byScale, float sw, float sh,
                    int32_t w, int32_t h, int align, int half, std::vector<uint32_t> outDims,
                    int* fin) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {1, 2, 2, 1});
  std::vector<uint32_t> ins = {in};
  if (byScale) {
    ins.push_back(m.addFloat32(sw));
    ins.push_back(m.addFloat32(sh));
  } else {
    ins.push_back(m.addInt32(w));
    ins.push_back(m.addInt32(h));
  }
  if (align >= 0 || half >= 0) {
    ins.push_back(m.addBool(false));  // NHWC
    ins.push_back(m.addBool(align > 0));
    ins.push_back(m.addBool(half > 0));
  }
  const uint32_t out = m.addOperand(kF32, outDims);
  m.addOperation(ANEURALNETWORKS_RESIZE_BILINEAR, ins, {out});
  *fin = m.finish({in}, {out});
  if (*fin != ANEURALNETWORKS_NO_ERROR) return RunResult{};
  // Exact buffer size when the output shape is fully specified (NNAPI requires it).
  size_t count = 1;
  for (uint32_t d : outDims) count *= d;
  return runModel(m, {bytesOf(std::vector<float>{0, 4, 8, 12})},
                  {(count ? count : 64) * sizeof(float)});
}

std::vector<float> plane(const std::vector<float>& rows, const std::vector<float>& cols) {
  std::vector<float> v;
  for (float r : rows)
    for (float c : cols) v.push_back(8 * r + 4 * c);
  return v;
}

TEST(ShapeOps, ResizeBilinearModes) {
  int fin;
  const float t = 2.f / 3.f;
  // 2 -> 3 by size: source coordinate i * 2/3, clamped to the last pixel: {0, 2/3, 1}.
  RunResult r = runResize(false, 0, 0, 3, 3, -1, -1, {1, 3, 3, 1}, &fin);
  ASSERT_EQ(fin, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  r.outputs[0].resize(9 * sizeof(float));
  expectFloats(valuesOf<float>(r.outputs[0]), plane({0, t, 1}, {0, t, 1}));

  // Scale 1.5 gives the same 3x3 output.
  r = runResize(true, 1.5f, 1.5f, 0, 0, -1, -1, {0, 0, 0, 0}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  EXPECT_EQ(r.outputDims[0], (std::vector<uint32_t>{1, 3, 3, 1}));
  r.outputs[0].resize(9 * sizeof(float));
  expectFloats(valuesOf<float>(r.outputs[0]), plane({0, t, 1}, {0, t, 1}));

  // align_corners: scale (2-1)/(3-1) = 0.5 -> {0, 0.5, 1}.
  r = runResize(false, 0, 0, 3, 3, 1, 0, {1, 3, 3, 1}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  r.outputs[0].resize(9 * sizeof(float));
  expectFloats(valuesOf<float>(r.outputs[0]), plane({0, 0.5f, 1}, {0, 0.5f, 1}));

  // half_pixel_centers, 2 -> 4: (i + 0.5) * 0.5 - 0.5 = {-0.25, 0.25, 0.75, 1.25}, clamped
  // to the image: {0, 0.25, 0.75, 1}.
  r = runResize(false, 0, 0, 4, 4, 0, 1, {1, 4, 4, 1}, &fin);
  ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
  r.outputs[0].resize(16 * sizeof(float));
  expectFloats(valuesOf<float>(r.outputs[0]), plane({0, .25f, .75f, 1}, {0, .25f, .75f, 1}));
}

TEST(ShapeOps, ResizeBilinearQuant8RoundsAndNchw) {
  // Row [0, 10] resized to width 3: sources {0, 2/3, 4/3 -> clamped 1} give 0, 6.67, 10;
  // the 8-bit result rounds to 7. One channel stored NCHW ([1,1,1,2]) holds the same bytes.
  for (bool nchw : {false, true}) {
    ModelBuilder m;
    const auto dims = [nchw](uint32_t w) {
      return nchw ? std::vector<uint32_t>{1, 1, 1, w} : std::vector<uint32_t>{1, 1, w, 1};
    };
    const uint32_t in = m.addOperand(kQ8, dims(2), 0.5f, 0);
    std::vector<uint32_t> ins = {in, m.addInt32(3), m.addInt32(1)};
    if (nchw) ins.push_back(m.addBool(true));
    const uint32_t out = m.addOperand(kQ8, dims(3), 0.5f, 0);
    m.addOperation(ANEURALNETWORKS_RESIZE_BILINEAR, ins, {out});
    ASSERT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_NO_ERROR);
    RunResult r = runModel(m, {std::vector<uint8_t>{0, 10}}, {3});
    ASSERT_EQ(r.status, ANEURALNETWORKS_NO_ERROR) << r.step;
    EXPECT_EQ(r.outputs[0], (std::vector<uint8_t>{0, 7, 10})) << (nchw ? "NCHW" : "NHWC");
  }
}

TEST(ShapeOps, ResizeBilinearRejectsBadParameters) {
  int fin;
  runResize(false, 0, 0, 0, 3, -1, -1, {0, 0, 0, 0}, &fin);
  EXPECT_EQ(fin, ANEURALNETWORKS_BAD_DATA);
  runResize(false, 0, 0, 3, 3, 1, 1, {0, 0, 0, 0}, &fin);
  EXPECT_EQ(fin, ANEURALNETWORKS_BAD_DATA);
  runResize(true, -1.f, 1.f, 0, 0, -1, -1, {0, 0, 0, 0}, &fin);
  EXPECT_EQ(fin, ANEURALNETWORKS_BAD_DATA);
}

}  // namespace
