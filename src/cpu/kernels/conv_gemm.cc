// The packed GEMMs of CONV_2D, GROUPED_CONV_2D and FULLY_CONNECTED: rows (im2col of the NHWC
// input, or the FC input rows) times weights repacked into 32-column tiles, in blocks of 48 rows
// x 8 tiles spread over the thread pool. The tile micro-kernels and the requantization come
// from the run-time ISA table (conv_dispatch.h).
#include <algorithm>
#include <cstring>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {
namespace {

constexpr uint32_t kTileN = kConvTileN;  // output columns per packed weight tile
constexpr uint32_t kMaxMR = kConvMaxMR;  // rows per micro-kernel call
constexpr uint32_t kRowBlock = 48;       // rows per parallel task (multiple of kMaxMR)
constexpr uint32_t kColBlockTiles = 8;   // column tiles per parallel task

inline uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A row provider fills (or points at) the GEMM's left-hand row for global row index `row`:
//   float:  const float* (uint32_t row, float* scratch)
//   quant8: const uint8_t* (uint32_t row, uint8_t* scratch, int32_t* sum)
// `scratch` holds at least the row's padded length; quant8 providers also return the sum of
// the row's first k entries.

// ---- float GEMM ---------------------------------------------------------------------------

// output[m][n] = clamp(bias[n] + sum_k row(m)[k] * W[n][k]).
template <typename RowFn>
void floatGemm(uint32_t m, const PackedFloatWeights& w, const float* bias, int32_t activation,
               const RowFn& rowFn, float* output, ThreadPool* pool, KernelScratch& ks) {
  const uint32_t n = w.n, k = w.k;
  const uint32_t tiles = ceilDiv(n, kTileN);
  float* biasPadded = ks.columns.get<float>(static_cast<size_t>(tiles) * kTileN);
  std::fill(biasPadded, biasPadded + static_cast<size_t>(tiles) * kTileN, 0.f);
  if (bias) std::copy(bias, bias + n, biasPadded);
  float lo, hi;
  activationRangeFloat(activation, &lo, &hi);
  const ConvIsaKernels& kernels = convIsaKernels();
  const uint32_t rowBlocks = ceilDiv(m, kRowBlock);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  const size_t tasks = static_cast<size_t>(rowBlocks) * colBlocks;
  const size_t panelBytes = sizeof(float) * kRowBlock * std::max<uint32_t>(k, 1);
  const size_t slots = slotCount(pool, tasks, panelBytes);
  ks.slots.reserve(slots, panelBytes);
  runSlots(pool, tasks, slots, [&](size_t begin, size_t end, size_t slot) {
    float* panel = ks.slots.slot<float>(slot);
    const float* rowPtr[kRowBlock];
    float acc[kMaxMR * kTileN];
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      const uint32_t m0 = rb * kRowBlock, m1 = std::min(m, m0 + kRowBlock);
      for (uint32_t r = m0; r < m1; ++r)
        rowPtr[r - m0] = rowFn(r, panel + static_cast<size_t>(r - m0) * k);
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t) {
        const float* tile = w.data.data() + static_cast<size_t>(t) * k * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        for (uint32_t r0 = m0; r0 < m1; r0 += kMaxMR) {
          const uint32_t mr = std::min(kMaxMR, m1 - r0);
          kernels.floatMicroKernel(mr, rowPtr + (r0 - m0), tile, k, biasPadded + c0, acc);
          for (uint32_t r = 0; r < mr; ++r) {
            float* out = output + static_cast<size_t>(r0 + r) * n + c0;
            const float* a = acc + r * kTileN;
            for (uint32_t c = 0; c < cn; ++c) out[c] = std::min(hi, std::max(lo, a[c]));
          }
        }
      }
    }
  });
}

// ---- quant8 GEMM --------------------------------------------------------------------------

inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

// The real sum is  sum (a - za)(w - zw)  with a = A - ka and w = W + kw, where A are the
// unsigned bytes the kernel reads and W the signed stored weights. Writing za' = za + ka and
// zw' = zw - kw it expands to
//   sum A*W - zw' * sum A - za' * sum W + k * za' * zw',
// which the kernel evaluates in wrapping int32 arithmetic (exact, since the true sum fits).
template <typename TOut, typename RowFn>
void quantGemm(uint32_t m, const PackedQuantWeights& w, const QuantParams& q,
               int32_t inputZeroPrime, const int32_t* bias, const RowFn& rowFn,
               TOut* output, ThreadPool* pool, KernelScratch& ks) {
  const uint32_t n = w.n, k = w.k, k4 = w.k4;
  const uint32_t tiles = ceilDiv(n, kTileN);
  const int32_t zwp = w.zeroPointPrime;
  const ConvIsaKernels& kernels = convIsaKernels();
  int32_t* columnOffset = ks.columns.get<int32_t>(n);
  const int32_t constant = wrapMul(wrapMul(static_cast<int32_t>(k), inputZeroPrime), zwp);
  for (uint32_t c = 0; c < n; ++c)
    columnOffset[c] = wrapAdd(
        wrapAdd(bias ? bias[c] : 0, -wrapMul(inputZeroPrime, w.columnSums[c])), constant);
  const uint32_t rowBlocks = ceilDiv(m, kRowBlock);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  const size_t tasks = static_cast<size_t>(rowBlocks) * colBlocks;
  const size_t panelBytes = static_cast<size_t>(kRowBlock) * std::max<uint32_t>(k4, 4);
  const size_t slots = slotCount(pool, tasks, panelBytes);
  ks.slots.reserve(slots, panelBytes);
  runSlots(pool, tasks, slots, [&](size_t begin, size_t end, size_t slot) {
    uint8_t* panel = ks.slots.slot<uint8_t>(slot);
    const uint8_t* rowPtr[kRowBlock];
    int32_t rowOffset[kRowBlock];
    alignas(64) int32_t acc[kMaxMR * kTileN];
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      const uint32_t m0 = rb * kRowBlock, m1 = std::min(m, m0 + kRowBlock);
      for (uint32_t r = m0; r < m1; ++r) {
        int32_t sum = 0;
        rowPtr[r - m0] = rowFn(r, panel + static_cast<size_t>(r - m0) * k4, &sum);
        rowOffset[r - m0] = -wrapMul(zwp, sum);
      }
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t) {
        const int8_t* tile = w.data.data() + static_cast<size_t>(t) * k4 * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        for (uint32_t r0 = m0; r0 < m1; r0 += kMaxMR) {
          const uint32_t mr = std::min(kMaxMR, m1 - r0);
          kernels.quantMicroKernel(mr, rowPtr + (r0 - m0), tile, k4, acc);
          // columnOffset folds in bias and the zero-point terms that depend on the column
          // only, rowOffset those of the row only.
          for (uint32_t r = 0; r < mr; ++r)
            requantizeRow(kernels, acc + r * kTileN, columnOffset + c0, rowOffset[r0 - m0 + r],
                          q.multiplier.data() + c0, q.shift.data() + c0, q.outputZeroPoint,
                          q.actMin, q.actMax, cn,
                          output + static_cast<size_t>(r0 + r) * n + c0);
        }
      }
    }
  });
}

inline int32_t sumBytes(const uint8_t* p, uint32_t count) {
  int32_t s = 0;
  for (uint32_t i = 0; i < count; ++i) s += p[i];
  return s;
}

// Copies `count` input bytes into the unsigned domain the kernel reads.
inline void copyToUnsigned(const uint8_t* src, uint8_t* dst, uint32_t count, bool signedData) {
  if (signedData) {
    for (uint32_t i = 0; i < count; ++i) dst[i] = src[i] ^ 0x80;
  } else if (count < 16) {  // a few channels (first layers): a call to memcpy would dominate
    for (uint32_t i = 0; i < count; ++i) dst[i] = src[i];
  } else {
    memcpy(dst, src, count);
  }
}

}  // namespace

void packFloatWeights(const float* w, uint32_t n, uint32_t k, PackedFloatWeights* out) {
  out->n = n;
  out->k = k;
  const uint32_t tiles = ceilDiv(n, kTileN);
  out->data.assign(static_cast<size_t>(tiles) * k * kTileN, 0.f);
  for (uint32_t t = 0; t < tiles; ++t)
    for (uint32_t c = 0; c < kTileN && t * kTileN + c < n; ++c) {
      const float* src = w + static_cast<size_t>(t * kTileN + c) * k;
      float* dst = out->data.data() + static_cast<size_t>(t) * k * kTileN + c;
      for (uint32_t kk = 0; kk < k; ++kk) dst[static_cast<size_t>(kk) * kTileN] = src[kk];
    }
}

void packQuantWeights(const void* weights, bool unsignedSource, int32_t zeroPoint, uint32_t n,
                      uint32_t k, PackedQuantWeights* out) {
  out->n = n;
  out->k = k;
  out->k4 = (k + 3) / 4 * 4;
  out->unsignedSource = unsignedSource;
  out->zeroPointPrime = unsignedSource ? zeroPoint - 128 : zeroPoint;
  const uint32_t tiles = ceilDiv(n, kTileN);
  out->data.assign(static_cast<size_t>(tiles) * out->k4 * kTileN, 0);
  out->columnSums.assign(n, 0);
  const uint8_t* src = static_cast<const uint8_t*>(weights);
  // Layout: [tile][k/4][32 columns][4 consecutive k].
  for (uint32_t col = 0; col < n; ++col) {
    const uint32_t t = col / kTileN, c = col % kTileN;
    int8_t* tileBase = out->data.data() + static_cast<size_t>(t) * out->k4 * kTileN;
    int32_t sum = 0;
    for (uint32_t kk = 0; kk < k; ++kk) {
      const uint8_t raw = src[static_cast<size_t>(col) * k + kk];
      const int8_t v = unsignedSource ? static_cast<int8_t>(static_cast<int32_t>(raw) - 128)
                                      : static_cast<int8_t>(raw);
      tileBase[(static_cast<size_t>(kk / 4) * kTileN + c) * 4 + kk % 4] = v;
      sum += v;
    }
    out->columnSums[col] = sum;
  }
}

void fastConvFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  const uint32_t m = g.batches * g.outH * g.outW;
  const Params& p = g.p;
  const bool direct = g.filterH == 1 && g.filterW == 1 && p.padLeft == 0 && p.padTop == 0 &&
                      p.padRight == 0 && p.padBottom == 0;
  const uint32_t plane = g.outH * g.outW;
  auto rowFn = [&](uint32_t row, float* scratch) -> const float* {
    const uint32_t b = row / plane, oh = (row % plane) / g.outW, ow = row % g.outW;
    if (direct)
      return input + nhwc(g, b, oh * p.strideH, ow * p.strideW);
    float* dst = scratch;
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int32_t ih = tapPos(oh, kh, p.strideH, p.padTop, p.dilationH, g.inH);
      for (uint32_t kw = 0; kw < g.filterW; ++kw, dst += g.inC) {
        const int32_t iw = ih < 0 ? -1 : tapPos(ow, kw, p.strideW, p.padLeft, p.dilationW, g.inW);
        if (iw < 0)
          std::fill(dst, dst + g.inC, 0.f);
        else
          memcpy(dst, input + nhwc(g, b, ih, iw), g.inC * sizeof(float));
      }
    }
    return scratch;
  };
  floatGemm(m, w, bias, p.activation, rowFn, output, pool, ks);
}

void fastConvQuant(const Geometry& g, const QuantParams& q, bool signedData, const void* input,
                   const PackedQuantWeights& w, const int32_t* bias, void* output,
                   ThreadPool* pool, KernelScratch& ks) {
  const uint32_t m = g.batches * g.outH * g.outW;
  const uint32_t k = w.k, k4 = w.k4;
  const Params& p = g.p;
  const uint8_t* in = static_cast<const uint8_t*>(input);
  const bool direct = !signedData && k == k4 && g.filterH == 1 && g.filterW == 1 &&
                      p.padLeft == 0 && p.padTop == 0 && p.padRight == 0 && p.padBottom == 0;
  const int32_t zaPrime = q.inputZeroPoint + (signedData ? 128 : 0);
  const uint8_t padByte = static_cast<uint8_t>(zaPrime);
  const uint32_t plane = g.outH * g.outW;
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const uint32_t b = row / plane, oh = (row % plane) / g.outW, ow = row % g.outW;
    if (direct) {
      const uint8_t* src = in + nhwc(g, b, oh * p.strideH, ow * p.strideW);
      *sum = sumBytes(src, k);
      return src;
    }
    uint8_t* dst = scratch;
    for (uint32_t kh = 0; kh < g.filterH; ++kh) {
      const int32_t ih = tapPos(oh, kh, p.strideH, p.padTop, p.dilationH, g.inH);
      for (uint32_t kw = 0; kw < g.filterW; ++kw, dst += g.inC) {
        const int32_t iw = ih < 0 ? -1 : tapPos(ow, kw, p.strideW, p.padLeft, p.dilationW, g.inW);
        if (iw < 0)
          memset(dst, padByte, g.inC);
        else
          copyToUnsigned(in + nhwc(g, b, ih, iw), dst, g.inC, signedData);
      }
    }
    memset(scratch + k, 0, k4 - k);
    *sum = sumBytes(scratch, k);
    return scratch;
  };
  if (signedData)
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<int8_t*>(output), pool, ks);
  else
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<uint8_t*>(output), pool, ks);
}

void fastFullyConnectedFloat(uint32_t batches, int32_t activation, const float* input,
                             const PackedFloatWeights& w, const float* bias, float* output,
                             ThreadPool* pool, KernelScratch& ks) {
  const uint32_t k = w.k;
  auto rowFn = [&](uint32_t row, float*) -> const float* {
    return input + static_cast<size_t>(row) * k;
  };
  floatGemm(batches, w, bias, activation, rowFn, output, pool, ks);
}

void fastFullyConnectedQuant(uint32_t batches, const QuantParams& q, bool signedData,
                             const void* input, const PackedQuantWeights& w,
                             const int32_t* bias, void* output, ThreadPool* pool,
                             KernelScratch& ks) {
  const uint32_t k = w.k, k4 = w.k4;
  const uint8_t* in = static_cast<const uint8_t*>(input);
  const bool direct = !signedData && k == k4;
  const int32_t zaPrime = q.inputZeroPoint + (signedData ? 128 : 0);
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const uint8_t* src = in + static_cast<size_t>(row) * k;
    if (direct) {
      *sum = sumBytes(src, k);
      return src;
    }
    copyToUnsigned(src, scratch, k, signedData);
    memset(scratch + k, 0, k4 - k);
    *sum = sumBytes(scratch, k);
    return scratch;
  };
  if (signedData)
    quantGemm(batches, w, q, zaPrime, bias, rowFn, static_cast<int8_t*>(output), pool, ks);
  else
    quantGemm(batches, w, q, zaPrime, bias, rowFn, static_cast<uint8_t*>(output), pool, ks);
}

}  // namespace conv
}  // namespace nn
