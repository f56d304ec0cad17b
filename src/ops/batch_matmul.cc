// BATCH_MATMUL (feature level 6): out[..., i, j] = sum_k lhs[..., i, k] * rhs[..., k, j],
// where adj_x / adj_y transpose the last two dimensions of lhs / rhs first. Batch
// dimensions (ranks 2..4, equal ranks) must match or be 1 (broadcast).
//
// TENSOR_QUANT8_ASYMM_SIGNED follows the NNAPI reference exactly: int32 accumulation of
// (l - zl) * (r - zr), rescaled by the fixed-point multiplier of
// float(ls * rs) / os, plus the output zero point, clamped to [-128, 127].
// Float32 uses a cache-blocked register-tiled kernel (4x16 tiles, vectorized by the
// compiler) and the thread pool; the reference device uses the plain triple loop. Float16
// is computed in float32; int32 wraps like two's-complement int32 arithmetic.
#include <algorithm>
#include <cstdlib>

#include "ops/operation.h"
#include "cpu/thread_pool.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;

constexpr uint32_t kLhs = 0, kRhs = 1, kAdjX = 2, kAdjY = 3;

Status validateBatchMatmul(ValidationContext& c) {
  NN_RETURN_IF_ERROR(c.checkInputCount(4, 4));
  NN_RETURN_IF_ERROR(c.checkOutputCount(1));
  c.requireFeatureLevel(kFeatureLevel6);
  NN_RETURN_IF_ERROR(checkTensorTypeSince(c, kLhs,
                                          {{kF32, kFeatureLevel6},
                                           {kF16, kFeatureLevel6},
                                           {kI32, kFeatureLevel6},
                                           {kQ8S, kFeatureLevel6}}));
  NN_RETURN_IF_ERROR(requirePresent(c, kRhs));
  if (c.inputType(kRhs) != c.inputType(kLhs))
    return c.fail("input 1 (rhs): type %s differs from input 0 (lhs) type %s",
                  toString(c.inputType(kRhs)), toString(c.inputType(kLhs)));
  for (uint32_t i : {kAdjX, kAdjY}) {
    NN_RETURN_IF_ERROR(requirePresent(c, i));
    NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::BOOL));
  }
  if (c.outputType(0) != c.inputType(kLhs))
    return c.fail("output 0: type %s differs from the input type %s", toString(c.outputType(0)),
                  toString(c.inputType(kLhs)));
  const size_t lr = c.input(kLhs).dimensions.size(), rr = c.input(kRhs).dimensions.size();
  for (uint32_t i : {kLhs, kRhs}) {
    const size_t r = c.input(i).dimensions.size();
    if (r != 0 && (r < 2 || r > 4))
      return c.fail("input %u: rank %zu must be in [2, 4]", i, r);
  }
  if (lr != 0 && rr != 0 && lr != rr)
    return c.fail("input ranks differ: lhs %zu, rhs %zu", lr, rr);
  return kOk;
}

// The matrix product geometry: per output batch, the element offsets of its lhs and rhs
// matrices (broadcast batches repeat an offset).
struct Geometry {
  uint32_t m = 0, n = 0, k = 0;
  bool adjX = false, adjY = false;
  Dims outDims;
  std::vector<size_t> lhsOffset, rhsOffset;
};

Status computeGeometry(OpContext& ctx, Geometry* g) {
  if (!ctx.hasInputData(kAdjX) || !ctx.hasInputData(kAdjY)) return kDeferred;
  const Dims& l = ctx.inputShape(kLhs).dims;
  const Dims& r = ctx.inputShape(kRhs).dims;
  if (l.size() != r.size())
    return ctx.fail("input ranks differ: lhs %zu, rhs %zu", l.size(), r.size());
  const size_t rank = l.size();
  if (rank < 2 || rank > 4) return ctx.fail("input rank %zu must be in [2, 4]", rank);
  g->adjX = ctx.scalar<uint8_t>(kAdjX) != 0;
  g->adjY = ctx.scalar<uint8_t>(kAdjY) != 0;
  const uint32_t lRows = l[rank - 2], lCols = l[rank - 1];
  const uint32_t rRows = r[rank - 2], rCols = r[rank - 1];
  g->m = g->adjX ? lCols : lRows;
  g->k = g->adjX ? lRows : lCols;
  const uint32_t rk = g->adjY ? rCols : rRows;
  g->n = g->adjY ? rRows : rCols;
  if (g->k != rk)
    return ctx.fail("inner dimensions differ: lhs %s%s gives %u, rhs %s%s gives %u",
                    toString(l).c_str(), g->adjX ? " (adj_x)" : "", g->k, toString(r).c_str(),
                    g->adjY ? " (adj_y)" : "", rk);
  g->outDims.assign(rank, 0);
  const size_t batchRank = rank - 2;
  for (size_t d = 0; d < batchRank; ++d) {
    if (l[d] != r[d] && l[d] != 1 && r[d] != 1)
      return ctx.fail("batch dimension %zu differs: lhs %u, rhs %u (neither is 1)", d, l[d], r[d]);
    g->outDims[d] = std::max(l[d], r[d]);
    if (l[d] == 0 || r[d] == 0) g->outDims[d] = 0;
  }
  g->outDims[rank - 2] = g->m;
  g->outDims[rank - 1] = g->n;
  // Batch offsets, walking the output batch index in row-major order.
  size_t batches = 1;
  for (size_t d = 0; d < batchRank; ++d) batches *= g->outDims[d];
  g->lhsOffset.assign(batches, 0);
  g->rhsOffset.assign(batches, 0);
  const size_t lMat = size_t(lRows) * lCols, rMat = size_t(rRows) * rCols;
  for (size_t b = 0; b < batches; ++b) {
    size_t rem = b, lo = 0, ro = 0, lStride = lMat, rStride = rMat;
    for (size_t d = batchRank; d-- > 0;) {
      const size_t idx = rem % g->outDims[d];
      rem /= g->outDims[d];
      lo += (l[d] == 1 ? 0 : idx) * lStride;
      ro += (r[d] == 1 ? 0 : idx) * rStride;
      lStride *= l[d];
      rStride *= r[d];
    }
    g->lhsOffset[b] = lo;
    g->rhsOffset[b] = ro;
  }
  return kOk;
}

Status prepareBatchMatmul(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(computeGeometry(ctx, &g));
  return ctx.setOutputDims(0, g.outDims);
}

// ---- reference loop (all types) ---------------------------------------------------------

// out[b][i][j] = finish(sum_k mul(lhs, rhs)), reading through the adjoint flags.
template <typename In, typename Acc, typename Out, typename Mul, typename Finish>
void referenceMatmul(const Geometry& g, const In* lhs, const In* rhs, Out* out, Mul mul,
                     Finish finish) {
  const size_t m = g.m, n = g.n, k = g.k;
  for (size_t b = 0; b < g.lhsOffset.size(); ++b) {
    const In* a = lhs + g.lhsOffset[b];
    const In* w = rhs + g.rhsOffset[b];
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        Acc total = 0;
        for (size_t p = 0; p < k; ++p) {
          const In x = g.adjX ? a[p * m + i] : a[i * k + p];
          const In y = g.adjY ? w[j * k + p] : w[p * n + j];
          total += mul(x, y);
        }
        *out++ = finish(total);
      }
  }
}

// ---- fast float32 path ------------------------------------------------------------------

constexpr size_t kMr = 4;    // rows per register tile
constexpr size_t kNr = 16;   // columns per register tile
constexpr size_t kKc = 256;  // depth of one cache block
constexpr size_t kNc = 512;  // columns of one cache block

// C[0..mr, 0..nr) (+)= A[0..mr, 0..kc) * B[0..kc, 0..nr). Full tiles take the fixed-size
// loops, which the compiler keeps in vector registers.
inline void microKernel(size_t mr, size_t nr, size_t kc, const float* a, size_t lda,
                        const float* b, size_t ldb, float* c, size_t ldc, bool accumulate) {
  float acc[kMr][kNr];
  if (mr == kMr && nr == kNr) {
    for (size_t r = 0; r < kMr; ++r)
      for (size_t j = 0; j < kNr; ++j) acc[r][j] = accumulate ? c[r * ldc + j] : 0.f;
    for (size_t p = 0; p < kc; ++p) {
      const float* brow = b + p * ldb;
      const float a0 = a[p], a1 = a[lda + p], a2 = a[2 * lda + p], a3 = a[3 * lda + p];
      for (size_t j = 0; j < kNr; ++j) {
        const float bv = brow[j];
        acc[0][j] += a0 * bv;
        acc[1][j] += a1 * bv;
        acc[2][j] += a2 * bv;
        acc[3][j] += a3 * bv;
      }
    }
    for (size_t r = 0; r < kMr; ++r)
      for (size_t j = 0; j < kNr; ++j) c[r * ldc + j] = acc[r][j];
    return;
  }
  for (size_t r = 0; r < mr; ++r)
    for (size_t j = 0; j < nr; ++j) acc[r][j] = accumulate ? c[r * ldc + j] : 0.f;
  for (size_t p = 0; p < kc; ++p) {
    const float* brow = b + p * ldb;
    for (size_t r = 0; r < mr; ++r) {
      const float av = a[r * lda + p];
      for (size_t j = 0; j < nr; ++j) acc[r][j] += av * brow[j];
    }
  }
  for (size_t r = 0; r < mr; ++r)
    for (size_t j = 0; j < nr; ++j) c[r * ldc + j] = acc[r][j];
}

// Copies B[0..kc, 0..nc) (row stride ldb) into column panels of kNr: panel q holds
// B[p][q*kNr + j] at q*kc*kNr + p*kNr + j, zero-filled past nc. The micro-kernel then reads
// B contiguously, whatever ldb is (large power-of-two strides would otherwise thrash the cache).
void packB(const float* b, size_t ldb, size_t kc, size_t nc, float* packed) {
  for (size_t q = 0; q * kNr < nc; ++q) {
    const size_t j0 = q * kNr, w = std::min(kNr, nc - j0);
    float* dst = packed + q * kc * kNr;
    for (size_t p = 0; p < kc; ++p, dst += kNr) {
      const float* src = b + p * ldb + j0;
      for (size_t j = 0; j < w; ++j) dst[j] = src[j];
      for (size_t j = w; j < kNr; ++j) dst[j] = 0.f;
    }
  }
}

// Row-major C[rows i0..i1, cols j0..j1) = A * B for A (m x k, lda = k) and B (k x n, ldb = n).
void gemmBlock(const float* a, const float* b, float* c, size_t n, size_t k, size_t i0, size_t i1,
               size_t j0, size_t j1) {
  if (k == 0) {
    for (size_t i = i0; i < i1; ++i) std::fill(c + i * n + j0, c + i * n + j1, 0.f);
    return;
  }
  thread_local std::vector<float> packed;
  for (size_t jc = j0; jc < j1; jc += kNc) {
    const size_t nc = std::min(j1, jc + kNc) - jc;
    const size_t panels = (nc + kNr - 1) / kNr;
    for (size_t pc = 0; pc < k; pc += kKc) {
      const size_t kc = std::min(k - pc, kKc);
      if (packed.size() < panels * kc * kNr) packed.resize(panels * kc * kNr);
      packB(b + pc * n + jc, n, kc, nc, packed.data());
      // One packed B panel (kc x kNr) stays in L1 while the rows of the A block stream by.
      for (size_t q = 0; q < panels; ++q)
        for (size_t i = i0; i < i1; i += kMr)
          microKernel(std::min(kMr, i1 - i), std::min(kNr, nc - q * kNr), kc, a + i * k + pc, k,
                      packed.data() + q * kc * kNr, kNr, c + i * n + jc + q * kNr, n, pc > 0);
    }
  }
}

// Copies `batches` matrices of rows x cols into cols x rows.
void transposeMatrices(const float* src, size_t batches, size_t rows, size_t cols, float* dst) {
  constexpr size_t kTile = 32;
  for (size_t b = 0; b < batches; ++b, src += rows * cols, dst += rows * cols)
    for (size_t r0 = 0; r0 < rows; r0 += kTile)
      for (size_t c0 = 0; c0 < cols; c0 += kTile)
        for (size_t r = r0; r < std::min(rows, r0 + kTile); ++r)
          for (size_t c = c0; c < std::min(cols, c0 + kTile); ++c) dst[c * rows + r] = src[r * cols + c];
}

void fastMatmulFloat(OpContext& ctx, const Geometry& g, const float* lhs, size_t lhsCount,
                     const float* rhs, size_t rhsCount, float* out) {
  // Bring both operands to the plain orientation (lhs m x k, rhs k x n) once.
  std::vector<float> lhsT, rhsT;
  if (g.adjX && lhsCount > 0) {
    lhsT.resize(lhsCount);
    transposeMatrices(lhs, lhsCount / (size_t(g.m) * g.k), g.k, g.m, lhsT.data());
    lhs = lhsT.data();
  }
  if (g.adjY && rhsCount > 0) {
    rhsT.resize(rhsCount);
    transposeMatrices(rhs, rhsCount / (size_t(g.n) * g.k), g.n, g.k, rhsT.data());
    rhs = rhsT.data();
  }
  const size_t m = g.m, n = g.n, k = g.k;
  const size_t batches = g.lhsOffset.size();
  // Work items: (batch, 64-row block, 256-column block).
  constexpr size_t kRowBlock = 64, kColBlock = 256;
  const size_t rowBlocks = (m + kRowBlock - 1) / kRowBlock;
  const size_t colBlocks = (n + kColBlock - 1) / kColBlock;
  const size_t items = batches * rowBlocks * colBlocks;
  auto run = [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      const size_t cb = t % colBlocks, rb = (t / colBlocks) % rowBlocks;
      const size_t b = t / (colBlocks * rowBlocks);
      gemmBlock(lhs + g.lhsOffset[b], rhs + g.rhsOffset[b], out + b * m * n, n, k,
                rb * kRowBlock, std::min(m, (rb + 1) * kRowBlock), cb * kColBlock,
                std::min(n, (cb + 1) * kColBlock));
    }
  };
  ThreadPool* pool = ctx.threadPool();
  const double flops = double(batches) * m * n * k;
  if (pool != nullptr && pool->numThreads() > 1 && items > 1 && flops >= 1 << 18) {
    pool->parallelFor(items, 1, run);
  } else {
    run(0, items);
  }
}

// ---- execute ----------------------------------------------------------------------------

Status executeBatchMatmul(OpContext& ctx) {
  Geometry g;
  NN_RETURN_IF_ERROR(computeGeometry(ctx, &g));
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  const size_t lhsCount = static_cast<size_t>(ctx.inputShape(kLhs).count());
  const size_t rhsCount = static_cast<size_t>(ctx.inputShape(kRhs).count());
  const bool reference = ctx.useReferenceKernels();
  switch (ctx.inputType(kLhs)) {
    case OperandType::TENSOR_FLOAT32: {
      if (reference) {
        referenceMatmul<float, float, float>(
            g, ctx.input<float>(kLhs), ctx.input<float>(kRhs), ctx.output<float>(0),
            [](float x, float y) { return x * y; }, [](float t) { return t; });
      } else {
        fastMatmulFloat(ctx, g, ctx.input<float>(kLhs), lhsCount, ctx.input<float>(kRhs),
                        rhsCount, ctx.output<float>(0));
      }
      return kOk;
    }
    case OperandType::TENSOR_FLOAT16: {
      std::vector<float> l(ctx.input<Half>(kLhs), ctx.input<Half>(kLhs) + lhsCount);
      std::vector<float> r(ctx.input<Half>(kRhs), ctx.input<Half>(kRhs) + rhsCount);
      const size_t outCount = static_cast<size_t>(outShape.count());
      std::vector<float> o(outCount);
      if (reference) {
        referenceMatmul<float, float, float>(
            g, l.data(), r.data(), o.data(), [](float x, float y) { return x * y; },
            [](float t) { return t; });
      } else {
        fastMatmulFloat(ctx, g, l.data(), lhsCount, r.data(), rhsCount, o.data());
      }
      Half* out = ctx.output<Half>(0);
      for (size_t i = 0; i < outCount; ++i) out[i] = static_cast<Half>(o[i]);
      return kOk;
    }
    case OperandType::TENSOR_INT32: {
      referenceMatmul<int32_t, uint32_t, int32_t>(
          g, ctx.input<int32_t>(kLhs), ctx.input<int32_t>(kRhs), ctx.output<int32_t>(0),
          [](int32_t x, int32_t y) { return uint32_t(x) * uint32_t(y); },
          [](uint32_t t) { return static_cast<int32_t>(t); });
      return kOk;
    }
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
      const Shape& ls = ctx.inputShape(kLhs);
      const Shape& rs = ctx.inputShape(kRhs);
      // The product of the input scales is taken in float, as in the reference.
      const float productScale = ls.scale * rs.scale;
      const double real = static_cast<double>(productScale) / outShape.scale;
      int32_t multiplier = 0;
      int shift = 0;
      if (!quantizeMultiplier(real, &multiplier, &shift))
        return ctx.fail("cannot represent the rescale factor %g (lhs scale %g * rhs scale %g / "
                        "output scale %g)",
                        real, ls.scale, rs.scale, outShape.scale);
      const int32_t zl = ls.zeroPoint, zr = rs.zeroPoint, zo = outShape.zeroPoint;
      referenceMatmul<int8_t, int32_t, int8_t>(
          g, ctx.input<int8_t>(kLhs), ctx.input<int8_t>(kRhs), ctx.output<int8_t>(0),
          [zl, zr](int8_t x, int8_t y) { return (int32_t(x) - zl) * (int32_t(y) - zr); },
          [&](int32_t t) {
            const int32_t v = multiplyByQuantizedMultiplier(t, multiplier, shift) + zo;
            return static_cast<int8_t>(std::min(127, std::max(-128, v)));
          });
      return kOk;
    }
    default:
      return ctx.fail("unsupported input type %s", toString(ctx.inputType(kLhs)));
  }
}

}  // namespace

NN_REGISTER_OPERATION(BATCH_MATMUL, validateBatchMatmul, prepareBatchMatmul, executeBatchMatmul);

}  // namespace nn
