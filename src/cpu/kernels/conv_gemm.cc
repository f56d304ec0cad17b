// The packed GEMMs of CONV_2D, GROUPED_CONV_2D and FULLY_CONNECTED: rows (im2col of the NHWC
// input, or the FC input rows) times weights repacked into 32-column tiles, in blocks of 48 rows
// x 8 tiles spread over the thread pool. The tile micro-kernels and the requantization come
// from the run-time ISA table (conv_dispatch.h).
#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#include "cpu/kernels/conv_amx.h"
#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"
#include "cpu/isa.h"

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

// The blocking both GEMMs share: tasks of kRowBlock rows x kColBlockTiles column tiles spread
// over the pool. For each task, rows(slot, panel, m0, m1) provides rows [m0, m1) (the panel is
// the slot's scratch for copies of them), then block(slot, t, m0, r0, mr) runs the micro-kernel
// on tile t for rows [r0, r0 + mr). `Slot` holds what a thread keeps between the two (row
// pointers, accumulators): one per slot, never shared.
template <typename Slot, typename Rows, typename Block>
void gemmTasks(uint32_t m, uint32_t tiles, size_t panelBytes, ThreadPool* pool,
               KernelScratch& ks, const Rows& rows, const Block& block) {
  const uint32_t rowBlocks = ceilDiv(m, kRowBlock);
  const uint32_t colBlocks = ceilDiv(tiles, kColBlockTiles);
  const size_t tasks = static_cast<size_t>(rowBlocks) * colBlocks;
  runSlotted<uint8_t>(pool, ks, tasks, panelBytes, [&](size_t begin, size_t end, uint8_t* panel) {
    Slot slot;
    for (size_t task = begin; task < end; ++task) {
      const uint32_t rb = static_cast<uint32_t>(task / colBlocks);
      const uint32_t cb = static_cast<uint32_t>(task % colBlocks);
      const uint32_t m0 = rb * kRowBlock, m1 = std::min(m, m0 + kRowBlock);
      rows(slot, panel, m0, m1);
      const uint32_t t1 = std::min(tiles, (cb + 1) * kColBlockTiles);
      for (uint32_t t = cb * kColBlockTiles; t < t1; ++t)
        for (uint32_t r0 = m0; r0 < m1; r0 += kMaxMR)
          block(slot, t, m0, r0, std::min(kMaxMR, m1 - r0));
    }
  });
}

// ---- float GEMM ---------------------------------------------------------------------------

struct FloatSlot {
  const float* rowPtr[kRowBlock];
  float acc[kMaxMR * kTileN];
};

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
  const size_t panelBytes = sizeof(float) * kRowBlock * std::max<uint32_t>(k, 1);
  gemmTasks<FloatSlot>(
      m, tiles, panelBytes, pool, ks,
      [&](FloatSlot& s, uint8_t* panel, uint32_t m0, uint32_t m1) {
        float* rows = reinterpret_cast<float*>(panel);
        for (uint32_t r = m0; r < m1; ++r)
          s.rowPtr[r - m0] = rowFn(r, rows + static_cast<size_t>(r - m0) * k);
      },
      [&](FloatSlot& s, uint32_t t, uint32_t m0, uint32_t r0, uint32_t mr) {
        const float* tile = w.data.data() + static_cast<size_t>(t) * k * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        kernels.floatMicroKernel(mr, s.rowPtr + (r0 - m0), tile, k, biasPadded + c0, s.acc);
        for (uint32_t r = 0; r < mr; ++r) {
          float* out = output + static_cast<size_t>(r0 + r) * n + c0;
          const float* a = s.acc + r * kTileN;
          for (uint32_t c = 0; c < cn; ++c) out[c] = std::min(hi, std::max(lo, a[c]));
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

struct QuantSlot {
  const uint8_t* rowPtr[kRowBlock];
  int32_t rowOffset[kRowBlock];
  alignas(64) int32_t acc[kMaxMR * kTileN];
};

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
  const size_t panelBytes = static_cast<size_t>(kRowBlock) * std::max<uint32_t>(k4, 4);
  gemmTasks<QuantSlot>(
      m, tiles, panelBytes, pool, ks,
      [&](QuantSlot& s, uint8_t* panel, uint32_t m0, uint32_t m1) {
        for (uint32_t r = m0; r < m1; ++r) {
          int32_t sum = 0;
          s.rowPtr[r - m0] = rowFn(r, panel + static_cast<size_t>(r - m0) * k4, &sum);
          s.rowOffset[r - m0] = -wrapMul(zwp, sum);
        }
      },
      [&](QuantSlot& s, uint32_t t, uint32_t m0, uint32_t r0, uint32_t mr) {
        const int8_t* tile = w.data.data() + static_cast<size_t>(t) * k4 * kTileN;
        const uint32_t c0 = t * kTileN, cn = std::min(kTileN, n - c0);
        kernels.quantMicroKernel(mr, s.rowPtr + (r0 - m0), tile, k4, s.acc);
        // columnOffset folds in bias and the zero-point terms that depend on the column only,
        // rowOffset those of the row only.
        for (uint32_t r = 0; r < mr; ++r)
          requantizeRow(kernels, s.acc + r * kTileN, columnOffset + c0, s.rowOffset[r0 - m0 + r],
                        q.multiplier.data() + c0, q.shift.data() + c0, q.outputZeroPoint,
                        q.actMin, q.actMax, cn, output + static_cast<size_t>(r0 + r) * n + c0);
      });
}

inline int32_t sumBytes(const uint8_t* p, uint32_t count) {
  int32_t s = 0;
  for (uint32_t i = 0; i < count; ++i) s += p[i];
  return s;
}

// The input zero point in the unsigned domain the kernel reads (int8 data is read + 128).
inline int32_t unsignedZeroPoint(const QuantParams& q, bool signedData) {
  return q.inputZeroPoint + (signedData ? 128 : 0);
}

// What a quant8 row provider returns: `row`, with the sum of its first k bytes in *sum.
inline const uint8_t* rowWithSum(const uint8_t* row, uint32_t k, int32_t* sum) {
  *sum = sumBytes(row, k);
  return row;
}

// A row built in scratch: zero-padded from k to k4 (the kernel reads 4 bytes at a time).
inline const uint8_t* paddedRow(uint8_t* row, uint32_t k, uint32_t k4, int32_t* sum) {
  memset(row + k, 0, k4 - k);
  return rowWithSum(row, k, sum);
}

// quantGemm for int8 (signedData) or uint8 data and output.
template <typename RowFn>
void quantGemmFor(bool signedData, uint32_t m, const PackedQuantWeights& w, const QuantParams& q,
                  const int32_t* bias, const RowFn& rowFn, void* output, ThreadPool* pool,
                  KernelScratch& ks) {
  const int32_t zaPrime = unsignedZeroPoint(q, signedData);
  if (signedData)
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<int8_t*>(output), pool, ks);
  else
    quantGemm(m, w, q, zaPrime, bias, rowFn, static_cast<uint8_t*>(output), pool, ks);
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

// ---- im2col ---------------------------------------------------------------------------------

// The output pixel of GEMM row `row` (rows run over batches, then output rows and columns).
struct Pixel {
  uint32_t b, oh, ow;
};
inline Pixel outputPixel(const Geometry& g, uint32_t row) {
  const uint32_t plane = g.outH * g.outW;
  return {row / plane, (row % plane) / g.outW, row % g.outW};
}

// A 1x1 filter without padding: a GEMM row is one input pixel (pixelInput), used in place.
inline bool pointwise(const Geometry& g) {
  const Params& p = g.p;
  return g.filterH == 1 && g.filterW == 1 && p.padLeft == 0 && p.padTop == 0 &&
         p.padRight == 0 && p.padBottom == 0;
}
inline size_t pixelInput(const Geometry& g, const Pixel& px) {
  return nhwc(g, px.b, px.oh * g.p.strideH, px.ow * g.p.strideW);
}

// Writes pixel px's im2col row into `dst`: g.inC elements per filter tap, copy(src, dst) of
// the input channels the tap reads, or pad(dst) where it falls in the padding.
template <typename T, typename Copy, typename Pad>
void im2colRow(const Geometry& g, const T* input, const Pixel& px, T* dst, const Copy& copy,
               const Pad& pad) {
  const Params& p = g.p;
  for (uint32_t kh = 0; kh < g.filterH; ++kh) {
    const int32_t ih = tapPos(px.oh, kh, p.strideH, p.padTop, p.dilationH, g.inH);
    for (uint32_t kw = 0; kw < g.filterW; ++kw, dst += g.inC) {
      const int32_t iw = ih < 0 ? -1 : tapPos(px.ow, kw, p.strideW, p.padLeft, p.dilationW, g.inW);
      if (iw < 0)
        pad(dst);
      else
        copy(input + nhwc(g, px.b, ih, iw), dst);
    }
  }
}

// One tile of the packed layout without the ISA table's kernel (below AVX-512, and the partial
// last tile): `cols` source rows of k weights at `src` into [k][kTileN], float32 values or
// float16 bits. Row by row of the tile (the source read as kTileN sequential streams), so each
// destination line is written once; a partial last tile gets its missing columns zeroed here
// (the buffer is not zero-filled). 4x4 SSE transposes measured no faster; AVX-512's 16x16 ones
// (isa/gemm_float_avx512.cc) were.
template <typename T>
void packTileScalar(const T* src, uint32_t cols, uint32_t k, T* row) {
  for (uint32_t kk = 0; kk < k; ++kk, row += kTileN) {
    for (uint32_t c = 0; c < cols; ++c) row[c] = src[static_cast<size_t>(c) * k + kk];
    for (uint32_t c = cols; c < kTileN; ++c) row[c] = T{};
  }
}

void widenHalfScalar(const Half* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

#if defined(__x86_64__) || defined(__i386__)
// VCVTPH2PS widens every half exactly (signalling NaNs come out quiet, which no weight is).
__attribute__((target("avx,f16c"))) void widenHalfF16c(const Half* in, float* out, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
  widenHalfScalar(in + i, out + i, n - i);
}
#endif

void widenHalf(const Half* in, float* out, size_t n) {
#if defined(__x86_64__) || defined(__i386__)
  static const bool f16c = cpuFeatures().f16c && cpuFeatures().avx2;
  if (f16c) {
    widenHalfF16c(in, out, n);
    return;
  }
#endif
  widenHalfScalar(in, out, n);
}

}  // namespace

namespace {

// Sets out's shape, allocates `panels` (out->data or out->half) for n x k weights and calls
// packTile(t, cols, dst) for each kTileN-column tile.
template <typename T, typename PackTile>
void packFloatTiles(uint32_t n, uint32_t k, PackedFloatWeights* out, PrefaultedArray<T>* panels,
                    PackTile packTile) {
  out->n = n;
  out->k = k;
  const uint32_t tiles = ceilDiv(n, kTileN);
  const size_t tileSize = static_cast<size_t>(k) * kTileN;
  panels->allocate(tiles * tileSize);
  for (size_t t = 0; t < tiles; ++t) {
    const uint32_t cols = std::min<uint32_t>(kTileN, n - static_cast<uint32_t>(t) * kTileN);
    packTile(t, cols, panels->data() + t * tileSize);
  }
}

}  // namespace

// A full tile through the ISA table's transposing kernel where there is one (AVX-512: the
// scalar tile loop ran one strided load per weight and, with the float16 widening, was most of
// pose_landmark_heavy's compilation, 12.7M weights); the last, partial tile as before.
void packFloatWeights(const float* w, uint32_t n, uint32_t k, PackedFloatWeights* out) {
  PackFloatTileFn* full = convIsaKernels().packFloatTile;
  packFloatTiles(n, k, out, &out->data, [&](size_t t, uint32_t cols, float* dst) {
    if (full != nullptr && cols == kTileN) return full(w + t * kTileN * k, k, dst);
    packTileScalar(w + t * kTileN * k, cols, k, dst);
  });
}

void packFloatWeights(const Half* w, uint32_t n, uint32_t k, PackedFloatWeights* out) {
  PackHalfTileFn* full = convIsaKernels().packHalfTile;
  // Otherwise (and for a partial tile) the tile's rows, contiguous in the source, are widened
  // into one cache-resident block, then packed as float32 rows are (no float32 copy of the
  // whole filter).
  std::vector<float> wide;
  packFloatTiles(n, k, out, &out->data, [&](size_t t, uint32_t cols, float* dst) {
    if (full != nullptr && cols == kTileN)
      return full(reinterpret_cast<const uint16_t*>(w + t * kTileN * k), k, dst);
    wide.resize(static_cast<size_t>(k) * kTileN);
    widenHalf(w + t * kTileN * k, wide.data(), static_cast<size_t>(cols) * k);
    packTileScalar(wide.data(), cols, k, dst);
  });
}

bool packFloatWeightsHalf(const Half* w, uint32_t n, uint32_t k, PackedFloatWeights* out) {
  PackHalfTileBitsFn* full = convIsaKernels().packHalfTileBits;
  if (full == nullptr) return false;
  const uint16_t* bits = reinterpret_cast<const uint16_t*>(w);
  packFloatTiles(n, k, out, &out->half, [&](size_t t, uint32_t cols, uint16_t* dst) {
    if (cols == kTileN) return full(bits + t * kTileN * k, k, dst);
    packTileScalar(bits + t * kTileN * k, cols, k, dst);
  });
  return true;
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
  packAmxWeights(out);  // The AMX-INT8 copy where AMX is usable
}

void fastConvFloat(const Geometry& g, const float* input, const PackedFloatWeights& w,
                   const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  // 1x1 stride 1 rows are equally spaced input pixels, read in place.
  if (pointwise(g) && g.p.strideH == 1 && g.p.strideW == 1 && panelGemmAvailable())
    return panelGemmFloat(g.batches * g.outH * g.outW, input, g.inC, w, bias, g.p.activation,
                          output, pool);
  if (stemGemmPreferred(g)) return stemGemmFloat(g, input, w, bias, output, pool, ks);
  const bool direct = pointwise(g);
  auto rowFn = [&](uint32_t row, float* scratch) -> const float* {
    const Pixel px = outputPixel(g, row);
    if (direct) return input + pixelInput(g, px);
    im2colRow(
        g, input, px, scratch,
        [&](const float* src, float* dst) { memcpy(dst, src, g.inC * sizeof(float)); },
        [&](float* dst) { std::fill(dst, dst + g.inC, 0.f); });
    return scratch;
  };
  floatGemm(g.batches * g.outH * g.outW, w, bias, g.p.activation, rowFn, output, pool, ks);
}

void fastConvQuant(const Geometry& g, const QuantParams& q, bool signedData, const void* input,
                   const PackedQuantWeights& w, const int32_t* bias, void* output,
                   ThreadPool* pool, KernelScratch& ks) {
  const uint32_t k = w.k, k4 = w.k4;
  const uint8_t* in = static_cast<const uint8_t*>(input);
  // 1x1 stride 1 rows are equally spaced input pixels, read in place by AMX-INT8.
  const uint32_t m = g.batches * g.outH * g.outW;
  if (amxGemmApplies(w, m)) {
    if (pointwise(g) && g.p.strideH == 1 && g.p.strideW == 1)
      return amxQuantGemm(m, in, g.inC, signedData, w, q, bias, output, pool, ks);
    // Other convolutions (MobileNets' first 3x3 stride-2 layer) im2col each row block
    // into the AMX GEMM's panel, in the stored type (the pad is the stored zero point).
    struct Im2col {
      const Geometry* g;
      const uint8_t* in;
      uint8_t pad;
    } im2col{&g, in, static_cast<uint8_t>(q.inputZeroPoint)};
    auto fill = [](const void* context, uint32_t row, uint8_t* dst) {
      const Im2col& c = *static_cast<const Im2col*>(context);
      const uint32_t inC = c.g->inC;
      im2colRow(
          *c.g, c.in, outputPixel(*c.g, row), dst,
          [inC](const uint8_t* s, uint8_t* d) { copyToUnsigned(s, d, inC, false); },
          [inC, &c](uint8_t* d) { memset(d, c.pad, inC); });
    };
    return amxQuantGemmFilled(m, fill, &im2col, signedData, w, q, bias, output, pool, ks);
  }
  const bool direct = !signedData && k == k4 && pointwise(g);
  const uint8_t padByte = static_cast<uint8_t>(unsignedZeroPoint(q, signedData));
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const Pixel px = outputPixel(g, row);
    if (direct) return rowWithSum(in + pixelInput(g, px), k, sum);
    im2colRow(
        g, in, px, scratch,
        [&](const uint8_t* src, uint8_t* dst) { copyToUnsigned(src, dst, g.inC, signedData); },
        [&](uint8_t* dst) { memset(dst, padByte, g.inC); });
    return paddedRow(scratch, k, k4, sum);
  };
  quantGemmFor(signedData, g.batches * g.outH * g.outW, w, q, bias, rowFn, output, pool, ks);
}

void fastFullyConnectedFloat(uint32_t batches, int32_t activation, const float* input,
                             const PackedFloatWeights& w, const float* bias, float* output,
                             ThreadPool* pool, KernelScratch& ks) {
  const uint32_t k = w.k;
  if (panelGemmAvailable())
    return panelGemmFloat(batches, input, k, w, bias, activation, output, pool);
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
  if (amxGemmApplies(w, batches))
    return amxQuantGemm(batches, in, k, signedData, w, q, bias, output, pool, ks);
  const bool direct = !signedData && k == k4;
  auto rowFn = [&](uint32_t row, uint8_t* scratch, int32_t* sum) -> const uint8_t* {
    const uint8_t* src = in + static_cast<size_t>(row) * k;
    if (direct) return rowWithSum(src, k, sum);
    copyToUnsigned(src, scratch, k, signedData);
    return paddedRow(scratch, k, k4, sum);
  };
  quantGemmFor(signedData, batches, w, q, bias, rowFn, output, pool, ks);
}

}  // namespace conv
}  // namespace nn
