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
#include <vector>

#include "cpu/kernel.h"
#include "cpu/thread_pool.h"
#include "spec/ops/batch_matmul.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace shape_ops;
using namespace batch_matmul;

// ---- reference loop (all types) ---------------------------------------------------------

// out[b][i][j] = finish(sum_k mul(lhs, rhs)), reading through the adjoint flags.
template <typename In, typename Acc, typename Out, typename Mul, typename Finish>
void referenceMatmul(const MatmulGeometry& g, const In* lhs, const In* rhs, Out* out, Mul mul,
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
// `packed` holds the packed B panels; it is grown as needed and owned by the caller's chunk.
void gemmBlock(const float* a, const float* b, float* c, size_t n, size_t k, size_t i0, size_t i1,
               size_t j0, size_t j1, std::vector<float>& packed) {
  if (k == 0) {
    for (size_t i = i0; i < i1; ++i) std::fill(c + i * n + j0, c + i * n + j1, 0.f);
    return;
  }
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

// This execution's buffers: one packed-B buffer per work chunk (chunks run concurrently,
// each on one thread at a time), grown as needed and kept for the next computations.
struct MatmulScratch : OpScratch {
  std::vector<std::vector<float>> packed;
};

void fastMatmulFloat(OpContext& ctx, const MatmulGeometry& g, const float* lhs, size_t lhsCount,
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
  ThreadPool* pool = ctx.threadPool();
  const double flops = double(batches) * m * n * k;
  const bool parallel = pool != nullptr && pool->numThreads() > 1 && items > 1 && flops >= 1 << 18;
  // The items are split into chunks here (as parallelFor itself would: about four per
  // thread) so that each chunk owns one packing buffer.
  const size_t target = parallel ? static_cast<size_t>(pool->numThreads()) * 4 : 1;
  const size_t chunk = std::max<size_t>(1, (items + target - 1) / target);
  const size_t chunks = (items + chunk - 1) / chunk;
  MatmulScratch* scratch = ctx.scratchAs<MatmulScratch>();
  std::vector<std::vector<float>> localPacked;  // no execution scratch (not expected)
  std::vector<std::vector<float>>& packed = scratch ? scratch->packed : localPacked;
  if (packed.size() < chunks) packed.resize(chunks);
  auto runChunks = [&](size_t c0, size_t c1) {
    for (size_t c = c0; c < c1; ++c) {
      for (size_t t = c * chunk; t < std::min(items, (c + 1) * chunk); ++t) {
        const size_t cb = t % colBlocks, rb = (t / colBlocks) % rowBlocks;
        const size_t b = t / (colBlocks * rowBlocks);
        gemmBlock(lhs + g.lhsOffset[b], rhs + g.rhsOffset[b], out + b * m * n, n, k,
                  rb * kRowBlock, std::min(m, (rb + 1) * kRowBlock), cb * kColBlock,
                  std::min(n, (cb + 1) * kColBlock), packed[c]);
      }
    }
  };
  if (parallel && chunks > 1) {
    pool->parallelFor(chunks, 1, runChunks);
  } else {
    runChunks(0, chunks);
  }
}

// ---- execute ----------------------------------------------------------------------------

// `reference`: the reference device's plain loops for float data (the other types have one
// kernel).
Status run(OpContext& ctx, bool reference) {
  MatmulGeometry g;
  NN_RETURN_IF_ERROR(computeGeometry(ctx, &g));
  const Shape& outShape = ctx.outputShape(0);
  if (outShape.count() == 0) return kOk;
  const size_t lhsCount = static_cast<size_t>(ctx.inputShape(kLhs).count());
  const size_t rhsCount = static_cast<size_t>(ctx.inputShape(kRhs).count());
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

Status execute(OpContext& ctx) { return run(ctx, /*reference=*/false); }
Status executeReference(OpContext& ctx) { return run(ctx, /*reference=*/true); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(BATCH_MATMUL, execute, executeReference, nullptr, nullptr);

}  // namespace nn
