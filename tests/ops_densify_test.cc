// DENSIFY (experimental): hand-worked sparse tensors expanded to dense ones, with the sparsity
// metadata given both as constants and as model inputs, and malformed metadata rejected with
// BAD_DATA (at compilation for constants, at execution for model inputs).
#include <android/NeuralNetworksExperimentalFeatures.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
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
constexpr int32_t kI32 = ANEURALNETWORKS_TENSOR_INT32;
constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
constexpr int32_t kDensify = ANEURALNETWORKS_DENSIFY;

using Ints = std::vector<int32_t>;

struct Sparse {
  Ints order, blockMap, format, dims;
  std::vector<Ints> segments, indices;  // per traversal level; empty for dense levels
};

// Where the sparsity metadata comes from. kCsrInputs: the shape-determining arrays (inputs
// 1..4) and empty arrays are constants, the non-empty CSR arrays are model inputs; the output
// shape is then inferred at compilation and only the kernel sees the CSR values.
enum class Metadata { kConstants, kInputs, kCsrInputs };

struct Result {
  RunResult run;
  int buildStatus = ANEURALNETWORKS_NO_ERROR;
};

// Builds values -> DENSIFY -> output. With Metadata::kInputs every metadata array is a model
// input (an empty one is passed as setInput(NULL, 0), as the vectors do).
Result runDensify(int32_t type, const std::vector<uint8_t>& values, size_t valueCount,
                  const Sparse& s, const std::vector<uint32_t>& outDims, size_t outBytes,
                  Metadata mode, float scale = 0.f, int32_t zeroPoint = 0,
                  const char* device = nullptr) {
  Result result;
  ModelBuilder m;
  const uint32_t in = m.addOperand(type, {static_cast<uint32_t>(valueCount)}, scale, zeroPoint);
  std::vector<Ints> arrays = {s.order, s.blockMap, s.format, s.dims};
  for (size_t l = 0; l < s.order.size(); ++l) {
    arrays.push_back(l < s.segments.size() ? s.segments[l] : Ints{});
    arrays.push_back(l < s.indices.size() ? s.indices[l] : Ints{});
  }
  std::vector<uint32_t> opInputs = {in};
  std::vector<uint32_t> modelInputs = {in};
  std::vector<std::vector<uint8_t>> inputData = {values};
  for (size_t k = 0; k < arrays.size(); ++k) {
    const Ints& a = arrays[k];
    const uint32_t index = m.addOperand(kI32, {static_cast<uint32_t>(a.size())});
    const bool asInput = mode == Metadata::kInputs ||
                         (mode == Metadata::kCsrInputs && k >= 4 && !a.empty());
    if (!asInput) {
      m.setValue(index, a);
    } else {
      modelInputs.push_back(index);
      inputData.push_back(bytesOf(a));
    }
    opInputs.push_back(index);
  }
  const uint32_t out = m.addOperand(type, outDims, scale, zeroPoint);
  m.addOperation(kDensify, opInputs, {out});
  result.buildStatus = m.finish(modelInputs, {out});
  if (result.buildStatus != ANEURALNETWORKS_NO_ERROR) return result;
  result.run = runModel(m, inputData, {outBytes}, device);
  return result;
}

Result runFloat(const std::vector<float>& values, const Sparse& s,
                const std::vector<uint32_t>& outDims, size_t outCount, Metadata mode,
                const char* device = nullptr) {
  return runDensify(kF32, bytesOf(values), values.size(), s, outDims, outCount * sizeof(float),
                    mode, 0.f, 0, device);
}

// A 3x4 matrix, rows dense and columns CSR:
//   [[0 1 0 2]
//    [0 0 0 0]
//    [3 0 4 5]]
// Row r's stored columns are indices[segments[r] .. segments[r+1]).
Sparse csr3x4() {
  Sparse s;
  s.order = {0, 1};
  s.format = {0, 1};
  s.dims = {3, 4};
  s.segments = {{}, {0, 2, 2, 5}};
  s.indices = {{}, {1, 3, 0, 2, 3}};
  return s;
}
const std::vector<float> kCsrValues = {1, 2, 3, 4, 5};
const std::vector<float> kCsrDense = {0, 1, 0, 2, 0, 0, 0, 0, 3, 0, 4, 5};

class DensifyModes : public ::testing::TestWithParam<Metadata> {};

TEST_P(DensifyModes, CsrMatrix) {
  for (const char* device : {static_cast<const char*>(nullptr), "nnapi-cpu-reference"}) {
    Result r = runFloat(kCsrValues, csr3x4(), {3, 4}, 12, GetParam(), device);
    ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
    ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
    EXPECT_EQ(r.run.outputDims[0], (std::vector<uint32_t>{3, 4}));
    EXPECT_EQ(valuesOf<float>(r.run.outputs[0]), kCsrDense);
  }
}

TEST_P(DensifyModes, OutputShapeInferredFromMetadata) {
  Result r = runFloat(kCsrValues, csr3x4(), {0, 0}, 12, GetParam());
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(r.run.outputDims[0], (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(valuesOf<float>(r.run.outputs[0]), kCsrDense);
}

TEST_P(DensifyModes, BlockSparse4x4) {
  // 2x2 blocks over a 2x2 grid of blocks; block rows dense, block columns CSR, inside a block
  // dense. Block (0,1) holds 1 2 / 3 4 and block (1,0) holds 5 6 / 7 8:
  //   [[0 0 1 2]
  //    [0 0 3 4]
  //    [5 6 0 0]
  //    [7 8 0 0]]
  Sparse s;
  s.order = {0, 1, 2, 3};
  s.blockMap = {0, 1};
  s.format = {0, 1, 0, 0};
  s.dims = {2, 2, 2, 2};
  s.segments = {{}, {0, 1, 2}};
  s.indices = {{}, {1, 0}};
  Result r = runFloat({1, 2, 3, 4, 5, 6, 7, 8}, s, {4, 4}, 16, GetParam());
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(valuesOf<float>(r.run.outputs[0]),
            (std::vector<float>{0, 0, 1, 2, 0, 0, 3, 4, 5, 6, 0, 0, 7, 8, 0, 0}));
}

TEST_P(DensifyModes, BlockLevelsTraversedInSwappedOrder) {
  // A 2x4 matrix as 1x2 grid of 2x2 blocks; inside a block the column level is walked before
  // the row level, so a block's four values are stored column by column.
  // Block (0,0) stores 1 2 3 4 -> rows 0..1 of columns 0..1: [1 3 / 2 4]; block (0,1) stores
  // 5 6 7 8 -> [5 7 / 6 8]. Dense:
  //   [[1 3 5 7]
  //    [2 4 6 8]]
  Sparse s;
  s.order = {0, 1, 3, 2};
  s.blockMap = {0, 1};
  s.format = {0, 0, 0, 0};
  s.dims = {1, 2, 2, 2};
  Result r = runFloat({1, 2, 3, 4, 5, 6, 7, 8}, s, {2, 4}, 8, GetParam());
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(valuesOf<float>(r.run.outputs[0]), (std::vector<float>{1, 3, 5, 7, 2, 4, 6, 8}));
}

TEST_P(DensifyModes, ColumnMajorTraversal) {
  // Traversal order {1, 0}: the stored values walk columns in the outer loop, so stored value
  // k = c * 3 + r lands at output [r][c] of the 3x4 result.
  Sparse s;
  s.order = {1, 0};
  s.format = {0, 0};
  s.dims = {4, 3};
  std::vector<float> values(12);
  std::iota(values.begin(), values.end(), 0.f);
  Result r = runFloat(values, s, {3, 4}, 12, GetParam());
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(r.run.outputDims[0], (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(valuesOf<float>(r.run.outputs[0]),
            (std::vector<float>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
}

TEST_P(DensifyModes, Quant8FillsWithZeroPoint) {
  // Unstored elements are the real value 0, i.e. the zero point 7.
  Result r = runDensify(kQ8, {10, 20, 30, 40, 50}, 5, csr3x4(), {3, 4}, 12, GetParam(), 0.5f, 7);
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(r.run.outputs[0], (std::vector<uint8_t>{7, 10, 7, 20, 7, 7, 7, 7, 30, 7, 40, 50}));
}

TEST_P(DensifyModes, AllSparseLevels3D) {
  // Shape 2x2x3, every level CSR. Stored coordinates (in traversal order):
  //   [0][1][2] = 1, [1][0][0] = 2, [1][0][1] = 3, [1][1][2] = 4
  Sparse s;
  s.order = {0, 1, 2};
  s.format = {1, 1, 1};
  s.dims = {2, 2, 3};
  s.segments = {{0, 2}, {0, 1, 3}, {0, 1, 3, 4}};
  s.indices = {{0, 1}, {1, 0, 1}, {2, 0, 1, 2}};
  Result r = runFloat({1, 2, 3, 4}, s, {2, 2, 3}, 12, GetParam());
  ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
  EXPECT_EQ(valuesOf<float>(r.run.outputs[0]),
            (std::vector<float>{0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 4}));
}

// ---- malformed metadata -------------------------------------------------------------------

// Malformed metadata fails with BAD_DATA: when constant, at model finish or compilation (never
// later); when passed as model inputs, at the latest at execution.
// Returns the step that failed.
std::string expectBadData(const Sparse& s, const std::vector<float>& values,
                          const std::vector<uint32_t>& outDims, size_t outCount, Metadata mode) {
  Result r = runFloat(values, s, outDims, outCount, mode);
  if (r.buildStatus != ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(r.buildStatus, ANEURALNETWORKS_BAD_DATA);
    return "model";
  }
  EXPECT_EQ(r.run.status, ANEURALNETWORKS_OP_FAILED) << "failed step: " << r.run.step;
  if (mode == Metadata::kConstants) EXPECT_EQ(r.run.step, "Compilation_finish");
  else EXPECT_FALSE(r.run.step.empty());
  return r.run.step;
}

// With only the CSR arrays as inputs the plan is static: the kernel itself must catch them.
void expectCaughtByKernel(const std::string& step, Metadata mode) {
  if (mode == Metadata::kCsrInputs) {
    EXPECT_EQ(step, "Execution_compute");
  }
}

TEST_P(DensifyModes, IndexOutOfRange) {
  Sparse s = csr3x4();
  s.indices[1] = {1, 4, 0, 2, 3};  // column 4 of 4
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.indices[1] = {1, 3, -1, 2, 3};
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.indices[1] = {1, 3, 0, 2, 1 << 30};
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
}

TEST_P(DensifyModes, SegmentsNotMonotonic) {
  Sparse s = csr3x4();
  s.segments[1] = {0, 3, 2, 5};
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
}

TEST_P(DensifyModes, SegmentsInconsistentWithIndices) {
  Sparse s = csr3x4();
  s.segments[1] = {0, 2, 2, 6};  // one past the 5 indices
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.segments[1] = {1, 2, 2, 5};  // does not start at 0
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.segments[1] = {-1, 2, 2, 5};
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.segments[1] = {0, 2, 5};  // 3 rows need 4 entries
  expectCaughtByKernel(expectBadData(s, kCsrValues, {3, 4}, 12, GetParam()), GetParam());
  s.segments[1] = {};  // a CSR level without segments
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
}

TEST_P(DensifyModes, ValueCountMismatch) {
  expectBadData(csr3x4(), {1, 2, 3, 4}, {3, 4}, 12, GetParam());
  expectBadData(csr3x4(), {1, 2, 3, 4, 5, 6}, {3, 4}, 12, GetParam());
}

TEST_P(DensifyModes, BadTraversalOrder) {
  Sparse s = csr3x4();
  s.order = {0, 0};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
  s.order = {0, 2};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
  s.order = {-1, 1};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
}

TEST_P(DensifyModes, BadBlockMap) {
  Sparse s;
  s.order = {0, 1, 2, 3};
  s.blockMap = {0, 2};  // the output has rank 2
  s.format = {0, 0, 0, 0};
  s.dims = {2, 2, 2, 2};
  std::vector<float> values(16, 1.f);
  expectBadData(s, values, {4, 4}, 16, GetParam());
  s.blockMap = {0, 1};
  s.order = {0, 2, 1, 3};  // a block level among the original dimensions
  expectBadData(s, values, {4, 4}, 16, GetParam());
}

TEST_P(DensifyModes, BadFormatOrDimension) {
  Sparse s = csr3x4();
  s.format = {0, 2};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
  s = csr3x4();
  s.dims = {3, -4};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
}

TEST_P(DensifyModes, HugeDenseOutputRejected) {
  // A 2^16 x 2^16 output with one stored element: rejected, not allocated or overflowed.
  Sparse s;
  s.order = {0, 1};
  s.format = {1, 1};
  s.dims = {65536, 65536};
  s.segments = {{0, 1}, {0, 1}};
  s.indices = {{0}, {0}};
  Result r = runFloat({1.f}, s, {0, 0}, 1, GetParam());
  if (r.buildStatus != ANEURALNETWORKS_NO_ERROR) {
    EXPECT_EQ(r.buildStatus, ANEURALNETWORKS_BAD_DATA);
  } else {
    EXPECT_EQ(r.run.status, ANEURALNETWORKS_OP_FAILED) << r.run.step;
  }
}

TEST_P(DensifyModes, MismatchedArrayLengths) {
  Sparse s = csr3x4();
  s.format = {0, 1, 0};  // 3 formats for 2 levels
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
  s = csr3x4();
  s.dims = {12};
  expectBadData(s, kCsrValues, {3, 4}, 12, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Densify, DensifyModes,
                         ::testing::Values(Metadata::kConstants, Metadata::kInputs,
                                           Metadata::kCsrInputs),
                         [](const ::testing::TestParamInfo<Metadata>& info) {
                           switch (info.param) {
                             case Metadata::kConstants: return "Constants";
                             case Metadata::kInputs: return "Inputs";
                             default: return "CsrInputs";
                           }
                         });

// ---- round trip --------------------------------------------------------------------------

// Encodes a dense tensor in the sparse format (the test's own encoder): levels are walked
// depth first, a dense level keeps every coordinate, a CSR level keeps the coordinates whose
// subtree holds a non-zero. Parents at each level are visited in increasing position order, so
// appending per parent builds the segment arrays.
struct Encoder {
  const std::vector<float>& dense;
  std::vector<uint32_t> shape;      // original dims
  std::vector<uint32_t> levelDim;   // original dimension of each level
  std::vector<uint32_t> levelSize;
  std::vector<bool> isBlockLevel;
  std::vector<uint32_t> blockSize;  // per original dim (1 when not blocked)
  std::vector<int32_t> format;
  std::vector<uint32_t> coord;
  Sparse* out;
  std::vector<float>* values;

  size_t denseIndex() const {
    std::vector<uint32_t> c(shape.size(), 0);
    for (size_t l = 0; l < levelDim.size(); ++l)
      if (!isBlockLevel[l]) c[levelDim[l]] += coord[l] * blockSize[levelDim[l]];
      else c[levelDim[l]] += coord[l];
    size_t index = 0;
    for (size_t d = 0; d < shape.size(); ++d) index = index * shape[d] + c[d];
    return index;
  }
  bool anyNonZero(size_t l) {
    if (l == levelDim.size()) return dense[denseIndex()] != 0.f;
    for (uint32_t c = 0; c < levelSize[l]; ++c) {
      coord[l] = c;
      if (anyNonZero(l + 1)) return true;
    }
    return false;
  }
  void walk(size_t l) {
    if (l == levelDim.size()) {
      values->push_back(dense[denseIndex()]);
      return;
    }
    for (uint32_t c = 0; c < levelSize[l]; ++c) {
      coord[l] = c;
      if (format[l] == 1) {
        if (!anyNonZero(l + 1)) continue;
        coord[l] = c;
        out->indices[l].push_back(static_cast<int32_t>(c));
      }
      walk(l + 1);
    }
    if (format[l] == 1) out->segments[l].push_back(static_cast<int32_t>(out->indices[l].size()));
  }
};

TEST(Densify, RandomRoundTrip) {
  std::mt19937 rng(20000);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iteration = 0; iteration < 60; ++iteration) {
    const uint32_t rank = static_cast<uint32_t>(uniform(1, 3));
    std::vector<uint32_t> outer(rank), blockSize(rank, 1), shape(rank);
    std::vector<uint32_t> blockedDims;
    for (uint32_t d = 0; d < rank; ++d) {
      outer[d] = static_cast<uint32_t>(uniform(1, 4));
      if (uniform(0, 2) == 0) {
        blockSize[d] = static_cast<uint32_t>(uniform(2, 3));
        blockedDims.push_back(d);
      }
      shape[d] = outer[d] * blockSize[d];
    }
    std::shuffle(blockedDims.begin(), blockedDims.end(), rng);
    const uint32_t levels = rank + static_cast<uint32_t>(blockedDims.size());
    std::vector<int32_t> order(rank), blockOrder(blockedDims.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::iota(blockOrder.begin(), blockOrder.end(), static_cast<int32_t>(rank));
    std::shuffle(blockOrder.begin(), blockOrder.end(), rng);
    order.insert(order.end(), blockOrder.begin(), blockOrder.end());

    Sparse s;
    s.order = order;
    for (uint32_t d : blockedDims) s.blockMap.push_back(static_cast<int32_t>(d));
    s.segments.assign(levels, {});
    s.indices.assign(levels, {});
    std::vector<float> dense(std::accumulate(shape.begin(), shape.end(), size_t{1},
                                             std::multiplies<size_t>()));
    for (float& v : dense) v = uniform(0, 2) == 0 ? static_cast<float>(uniform(1, 99)) : 0.f;

    std::vector<float> values;
    Encoder e{dense, shape, {}, {}, {}, blockSize, {}, std::vector<uint32_t>(levels, 0), &s,
              &values};
    for (uint32_t l = 0; l < levels; ++l) {
      const int32_t t = order[l];
      const bool block = l >= rank;
      const uint32_t d = block ? blockedDims[t - rank] : static_cast<uint32_t>(t);
      e.levelDim.push_back(d);
      e.isBlockLevel.push_back(block);
      e.levelSize.push_back(block ? blockSize[d] : outer[d]);
      const int32_t f = uniform(0, 1);
      e.format.push_back(f);
      s.format.push_back(f);
      s.dims.push_back(static_cast<int32_t>(e.levelSize.back()));
      if (f == 1) s.segments[l].push_back(0);
    }
    e.walk(0);
    if (values.empty()) continue;  // a model input cannot be zero-sized

    const Metadata mode = iteration % 2 ? Metadata::kInputs : Metadata::kConstants;
    Result r = runFloat(values, s, shape, dense.size(), mode);
    ASSERT_EQ(r.buildStatus, ANEURALNETWORKS_NO_ERROR) << "iteration " << iteration;
    ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << "iteration " << iteration << " "
                                                      << r.run.step;
    EXPECT_EQ(r.run.outputDims[0], shape) << "iteration " << iteration;
    EXPECT_EQ(valuesOf<float>(r.run.outputs[0]), dense) << "iteration " << iteration;
  }
}

// Random corruption of a valid structure: every outcome is success or BAD_DATA (run under
// ASan/UBSan this also shows no out-of-bounds read or write).
TEST(Densify, CorruptedMetadataNeverCrashes) {
  std::mt19937 rng(7);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int32_t special[] = {-1, 0, 1, 2, 3, 4, 5, 6, 1 << 20, INT32_MAX, INT32_MIN};
  // A 4x6 matrix of 2x2 blocks: block rows dense, block columns CSR (blocks (0,0), (0,2),
  // (1,1)), block-internal rows dense, block-internal columns CSR.
  Sparse valid;
  valid.order = {0, 1, 2, 3};
  valid.blockMap = {0, 1};
  valid.format = {0, 1, 0, 1};
  valid.dims = {2, 3, 2, 2};
  valid.segments = {{}, {0, 2, 3}, {}, {0, 1, 1, 2, 3, 5, 6}};
  valid.indices = {{}, {0, 2, 1}, {}, {1, 0, 1, 0, 1, 1}};
  {
    Result r = runFloat({1, 2, 3, 4, 5, 6}, valid, {4, 6}, 24, Metadata::kInputs);
    ASSERT_EQ(r.run.status, ANEURALNETWORKS_NO_ERROR) << r.run.step;
    // Block (0,0): [0 1 / 0 0]; block (0,2): [2 0 / 0 3]; block (1,1): [4 5 / 0 6].
    EXPECT_EQ(valuesOf<float>(r.run.outputs[0]),
              (std::vector<float>{0, 1, 0, 0, 2, 0,  //
                                  0, 0, 0, 0, 0, 3,  //
                                  0, 0, 4, 5, 0, 0,  //
                                  0, 0, 0, 6, 0, 0}));
  }
  for (int iteration = 0; iteration < 200; ++iteration) {
    Sparse s = valid;
    std::vector<Ints*> arrays = {&s.order, &s.blockMap, &s.format, &s.dims, &s.segments[1],
                                 &s.indices[1], &s.segments[3], &s.indices[3]};
    const int edits = uniform(1, 3);
    for (int k = 0; k < edits; ++k) {
      Ints& a = *arrays[uniform(0, static_cast<int>(arrays.size()) - 1)];
      if (a.empty() || uniform(0, 4) == 0) {
        a.push_back(special[uniform(0, 10)]);
      } else if (uniform(0, 4) == 0) {
        a.pop_back();
      } else {
        a[uniform(0, static_cast<int>(a.size()) - 1)] = special[uniform(0, 10)];
      }
    }
    const Metadata mode = iteration % 3 == 0   ? Metadata::kConstants
                          : iteration % 3 == 1 ? Metadata::kInputs
                                               : Metadata::kCsrInputs;
    Result r = runFloat({1, 2, 3, 4, 5, 6}, s, {0, 0}, 64, mode);
    if (r.buildStatus != ANEURALNETWORKS_NO_ERROR) {
      EXPECT_EQ(r.buildStatus, ANEURALNETWORKS_BAD_DATA) << "iteration " << iteration;
    } else if (r.run.status != ANEURALNETWORKS_NO_ERROR) {
      // OUTPUT_INSUFFICIENT_SIZE when a corrupted size still describes a valid, larger tensor.
      EXPECT_TRUE(r.run.status == ANEURALNETWORKS_OP_FAILED ||
                  r.run.status == ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE)
          << "iteration " << iteration << " step " << r.run.step << " status " << r.run.status;
    }
  }
}

// ---- signature ------------------------------------------------------------------------------

TEST(Densify, WrongInputCountRejected) {
  // Two traversal levels need 5 + 2 * 2 = 9 inputs; give 7.
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {5});
  std::vector<uint32_t> inputs = {in};
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {0, 1}));
  inputs.push_back(m.addNoValue(kI32, {0}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {0, 1}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {3, 4}));
  inputs.push_back(m.addNoValue(kI32, {0}));
  inputs.push_back(m.addNoValue(kI32, {0}));
  const uint32_t out = m.addOperand(kF32, {3, 4});
  EXPECT_EQ(m.addOperation(kDensify, inputs, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(Densify, OutputTypeMustMatchInput) {
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {12});
  std::vector<uint32_t> inputs = {in};
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {0, 1}));
  inputs.push_back(m.addNoValue(kI32, {0}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {0, 0}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {3, 4}));
  for (int i = 0; i < 4; ++i) inputs.push_back(m.addNoValue(kI32, {0}));
  const uint32_t out = m.addOperand(kI32, {3, 4});
  EXPECT_EQ(m.addOperation(kDensify, inputs, {out}), ANEURALNETWORKS_BAD_DATA);
}

TEST(Densify, RequiredMetadataCannotBeOmitted) {
  // The traversal order (input 1) may not be omitted, unlike the block map and CSR arrays.
  ModelBuilder m;
  const uint32_t in = m.addOperand(kF32, {12});
  std::vector<uint32_t> inputs = {in};
  inputs.push_back(m.addNoValue(kI32, {0}));
  inputs.push_back(m.addNoValue(kI32, {0}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {0, 0}));
  inputs.push_back(m.addConstant<int32_t>(kI32, {2}, {3, 4}));
  for (int i = 0; i < 4; ++i) inputs.push_back(m.addNoValue(kI32, {0}));
  const uint32_t out = m.addOperand(kF32, {3, 4});
  m.addOperation(kDensify, inputs, {out});
  EXPECT_EQ(m.finish({in}, {out}), ANEURALNETWORKS_BAD_DATA);
}

}  // namespace
