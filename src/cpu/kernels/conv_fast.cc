#include "cpu/kernels/conv_fast.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "cpu/kernels/conv_common.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
// GCC 12's AVX-512 headers seed unused result lanes from a self-initialized variable, which
// -Wmaybe-uninitialized reports at every inlined use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#define NNAPI_CONV_AVX512 1
#else
#define NNAPI_CONV_AVX512 0
#endif
#if NNAPI_CONV_AVX512 && defined(__AVX512VNNI__)
#define NNAPI_CONV_VNNI 1
#else
#define NNAPI_CONV_VNNI 0
#endif

namespace nn {
namespace conv {

// =========================================================================================
// Fast kernels

namespace {

constexpr uint32_t kTileN = 32;  // output columns per packed weight tile
constexpr uint32_t kMaxMR = 6;   // rows per micro-kernel call
constexpr uint32_t kRowBlock = 48;     // rows per parallel task (multiple of kMaxMR)
constexpr uint32_t kColBlockTiles = 8; // column tiles per parallel task

// Bytes rounded up to whole cache lines, so the buffers carved out of one slot stay aligned.
inline size_t lines(size_t bytes) { return (bytes + 63) / 64 * 64; }

inline uint32_t ceilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// A row provider fills (or points at) the GEMM's left-hand row for global row index `row`:
//   float:  const float* (uint32_t row, float* scratch)
//   quant8: const uint8_t* (uint32_t row, uint8_t* scratch, int32_t* sum)
// `scratch` holds at least the row's padded length; quant8 providers also return the sum of
// the row's first k entries.

// ---- float GEMM ---------------------------------------------------------------------------

typedef float v16f __attribute__((vector_size(64), aligned(4)));

// By pointer rather than by value: returning a 64-byte vector is ABI-sensitive on targets
// without AVX-512.
inline void loadV(v16f* v, const float* p) { memcpy(v, p, sizeof(*v)); }
inline void storeV(float* p, const v16f* v) { memcpy(p, v, sizeof(*v)); }

// acc[r][0..32) = bias + sum_k rows[r][k] * tile[k][0..32)
template <int MR>
void floatMicroKernel(const float* const* rows, const float* tile, uint32_t k,
                      const float* biasTile, float* acc) {
  v16f a0[MR], a1[MR];
  v16f b0, b1;
  loadV(&b0, biasTile);
  loadV(&b1, biasTile + 16);
  for (int r = 0; r < MR; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk) {
    v16f w0, w1;
    loadV(&w0, tile + static_cast<size_t>(kk) * kTileN);
    loadV(&w1, tile + static_cast<size_t>(kk) * kTileN + 16);
    for (int r = 0; r < MR; ++r) {
      const float x = rows[r][kk];
      a0[r] += x * w0;
      a1[r] += x * w1;
    }
  }
  for (int r = 0; r < MR; ++r) {
    storeV(acc + r * kTileN, &a0[r]);
    storeV(acc + r * kTileN + 16, &a1[r]);
  }
}

void floatMicroDispatch(uint32_t mr, const float* const* rows, const float* tile, uint32_t k,
                        const float* biasTile, float* acc) {
  switch (mr) {
    case 1: floatMicroKernel<1>(rows, tile, k, biasTile, acc); break;
    case 2: floatMicroKernel<2>(rows, tile, k, biasTile, acc); break;
    case 3: floatMicroKernel<3>(rows, tile, k, biasTile, acc); break;
    case 4: floatMicroKernel<4>(rows, tile, k, biasTile, acc); break;
    case 5: floatMicroKernel<5>(rows, tile, k, biasTile, acc); break;
    default: floatMicroKernel<6>(rows, tile, k, biasTile, acc); break;
  }
}

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
          floatMicroDispatch(mr, rowPtr + (r0 - m0), tile, k, biasPadded + c0, acc);
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

// acc[r][0..32) = sum_k rows[r][k] (u8) * tile[k][0..32) (s8), k in steps of 4.
template <int MR>
void quantMicroKernel(const uint8_t* const* rows, const int8_t* tile, uint32_t k4,
                      int32_t* acc) {
#if NNAPI_CONV_VNNI
  __m512i a0[MR], a1[MR];
  for (int r = 0; r < MR; ++r) {
    a0[r] = _mm512_setzero_si512();
    a1[r] = _mm512_setzero_si512();
  }
  for (uint32_t kk = 0; kk < k4; kk += 4) {
    const __m512i w0 = _mm512_loadu_si512(tile);
    const __m512i w1 = _mm512_loadu_si512(tile + 64);
    tile += 128;
    for (int r = 0; r < MR; ++r) {
      int32_t quad;
      memcpy(&quad, rows[r] + kk, 4);
      const __m512i x = _mm512_set1_epi32(quad);
      a0[r] = _mm512_dpbusd_epi32(a0[r], x, w0);
      a1[r] = _mm512_dpbusd_epi32(a1[r], x, w1);
    }
  }
  for (int r = 0; r < MR; ++r) {
    _mm512_storeu_si512(acc + r * kTileN, a0[r]);
    _mm512_storeu_si512(acc + r * kTileN + 16, a1[r]);
  }
#else
  for (int r = 0; r < MR; ++r) {
    int32_t* out = acc + r * kTileN;
    for (uint32_t c = 0; c < kTileN; ++c) out[c] = 0;
    const int8_t* t = tile;
    for (uint32_t kk = 0; kk < k4; kk += 4, t += 4 * kTileN) {
      for (uint32_t c = 0; c < kTileN; ++c) {
        int32_t s = 0;
        for (uint32_t i = 0; i < 4; ++i)
          s += static_cast<int32_t>(rows[r][kk + i]) * static_cast<int32_t>(t[c * 4 + i]);
        out[c] += s;
      }
    }
  }
#endif
}

void quantMicroDispatch(uint32_t mr, const uint8_t* const* rows, const int8_t* tile, uint32_t k4,
                        int32_t* acc) {
  switch (mr) {
    case 1: quantMicroKernel<1>(rows, tile, k4, acc); break;
    case 2: quantMicroKernel<2>(rows, tile, k4, acc); break;
    case 3: quantMicroKernel<3>(rows, tile, k4, acc); break;
    case 4: quantMicroKernel<4>(rows, tile, k4, acc); break;
    case 5: quantMicroKernel<5>(rows, tile, k4, acc); break;
    default: quantMicroKernel<6>(rows, tile, k4, acc); break;
  }
}

inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}
inline int32_t wrapMul(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
}

#if NNAPI_CONV_AVX512
// requantize() on 16 lanes: the 64-bit products of even and odd lanes are formed separately
// (vpmuldq reads the low dword of each qword) and merged back.
inline __m512i requantize16(__m512i x, __m512i multiplier, __m512i shift) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i left = _mm512_max_epi32(shift, zero);
  const __m512i right = _mm512_max_epi32(_mm512_sub_epi32(zero, shift), zero);
  x = _mm512_sllv_epi32(x, left);
  const __m512i nudge = _mm512_set1_epi64(int64_t{1} << 30);
  __m512i even = _mm512_mul_epi32(x, multiplier);
  __m512i odd = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(multiplier, 32));
  even = _mm512_srai_epi64(_mm512_add_epi64(even, nudge), 31);
  odd = _mm512_srai_epi64(_mm512_add_epi64(odd, nudge), 31);
  const __m512i high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32));
  const __m512i one = _mm512_set1_epi32(1);
  const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, right), one);
  const __m512i remainder = _mm512_and_si512(high, mask);
  const __m512i threshold = _mm512_add_epi32(_mm512_srai_epi32(mask, 1), _mm512_srli_epi32(high, 31));
  const __m512i result = _mm512_srav_epi32(high, right);
  return _mm512_mask_add_epi32(result, _mm512_cmpgt_epi32_mask(remainder, threshold), result, one);
}

// out[c] = clamp(requantize(acc[c] + add[c] + rowOffset) + outZero), 16 lanes at a time.
template <typename TOut>
inline void requantizeStore(const int32_t* acc, const int32_t* add, int32_t rowOffset,
                            const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                            int32_t lo, int32_t hi, uint32_t count, TOut* out) {
  const __m512i vRow = _mm512_set1_epi32(rowOffset), vZero = _mm512_set1_epi32(outZero);
  const __m512i vLo = _mm512_set1_epi32(lo), vHi = _mm512_set1_epi32(hi);
  for (uint32_t c = 0; c < count; c += 16) {
    const __mmask16 m = count - c >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (count - c)) - 1);
    __m512i x = _mm512_maskz_loadu_epi32(m, acc + c);
    if (add != nullptr) x = _mm512_add_epi32(x, _mm512_maskz_loadu_epi32(m, add + c));
    x = _mm512_add_epi32(x, vRow);
    __m512i v = requantize16(x, _mm512_maskz_loadu_epi32(m, multiplier + c),
                             _mm512_maskz_loadu_epi32(m, shift + c));
    v = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(v, vZero), vLo), vHi);
    _mm_mask_storeu_epi8(out + c, m, _mm512_cvtepi32_epi8(v));
  }
}
#endif

// Writes requantized values of one tile row. `columnOffset` already folds in bias and the
// zero-point terms that depend on the column only; `rowOffset` those of the row only.
template <typename TOut>
void requantizeRow(const int32_t* acc, const int32_t* columnOffset, int32_t rowOffset,
                   const int32_t* multiplier, const int32_t* shift, int32_t outZero,
                   int32_t lo, int32_t hi, uint32_t count, TOut* out) {
#if NNAPI_CONV_AVX512
  requantizeStore(acc, columnOffset, rowOffset, multiplier, shift, outZero, lo, hi, count, out);
  return;
#endif
  for (uint32_t c = 0; c < count; ++c) {
    const int32_t x = wrapAdd(wrapAdd(acc[c], columnOffset[c]), rowOffset);
    int32_t v = requantize(x, multiplier[c], shift[c]) + outZero;
    v = std::max(lo, std::min(hi, v));
    out[c] = static_cast<TOut>(v);
  }
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
  int32_t* columnOffset = ks.columns.get<int32_t>(n);
  const int32_t constant = wrapMul(wrapMul(static_cast<int32_t>(k), inputZeroPrime), zwp);
  for (uint32_t c = 0; c < n; ++c)
    columnOffset[c] = wrapAdd(wrapAdd(bias ? bias[c] : 0, -wrapMul(inputZeroPrime, w.columnSums[c])),
                              constant);
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
          quantMicroDispatch(mr, rowPtr + (r0 - m0), tile, k4, acc);
          for (uint32_t r = 0; r < mr; ++r)
            requantizeRow(acc + r * kTileN, columnOffset + c0, rowOffset[r0 - m0 + r],
                          q.multiplier.data() + c0, q.shift.data() + c0, q.outputZeroPoint,
                          q.actMin, q.actMax, cn, output + static_cast<size_t>(r0 + r) * n + c0);
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

bool haveVnniKernel() { return NNAPI_CONV_VNNI != 0; }

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
                             const int32_t* bias, void* output, ThreadPool* pool, KernelScratch& ks) {
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

// ---- depthwise ----------------------------------------------------------------------------

void fastDepthwiseFloat(const Geometry& g, const float* input, const float* filter,
                        const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t slots = slotCount(pool, rows, sizeof(float) * g.outC);
  ks.slots.reserve(slots, sizeof(float) * g.outC);
  runSlots(pool, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    const uint32_t C = g.outC, inC = g.inC, outH = g.outH, outW = g.outW;
    const uint32_t mult = static_cast<uint32_t>(g.p.depthMultiplier);
    float lo, hi;
    activationRangeFloat(g.p.activation, &lo, &hi);
    float* __restrict a = ks.slots.slot<float>(slot);
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t ow = 0; ow < outW; ++ow) {
        for (uint32_t c = 0; c < C; ++c) a[c] = bias[c];
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
          if (ih < 0) continue;
          for (uint32_t kw = 0; kw < g.filterW; ++kw) {
            const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
            if (iw < 0) continue;
            const float* __restrict in = input + nhwc(g, b, ih, iw);
            const float* __restrict f = filter + (static_cast<size_t>(kh) * g.filterW + kw) * C;
            if (mult == 1) {
              for (uint32_t c = 0; c < C; ++c) a[c] += in[c] * f[c];
            } else {
              for (uint32_t ic = 0; ic < inC; ++ic)
                for (uint32_t j = 0; j < mult; ++j) a[ic * mult + j] += in[ic] * f[ic * mult + j];
            }
          }
        }
        float* __restrict out = output + outIndex(g, b, oh, ow);
        for (uint32_t c = 0; c < C; ++c) out[c] = std::min(hi, std::max(lo, a[c]));
      }
    }
  });
}

namespace {

constexpr uint32_t kDwBlock = 32;  // channels per block of the pairwise kernel

#if NNAPI_CONV_AVX512
// Layout for the pairwise kernel: [tap pair][32-channel block][lo 32 | hi 32] int16, where
// "lo" holds channels 8L..8L+3 and "hi" channels 8L+4..8L+7 of each 128-bit lane L, each as
// (tap 2p, tap 2p+1) pairs: the order vpunpck{l,h}wd produces from two tap rows, so one
// vpmaddwd multiplies and sums two taps.
void interleaveDepthwise(PackedDepthwiseFilter* f) {
  const uint32_t taps = f->taps, C = f->channels;
  const uint32_t pairs = (taps + 1) / 2, blocks = ceilDiv(C, kDwBlock);
  f->interleaved.assign(static_cast<size_t>(pairs) * blocks * 64, 0);
  for (uint32_t p = 0; p < pairs; ++p)
    for (uint32_t blk = 0; blk < blocks; ++blk)
      for (uint32_t half = 0; half < 2; ++half)
        for (uint32_t lane = 0; lane < 4; ++lane)
          for (uint32_t j = 0; j < 4; ++j) {
            const uint32_t c = blk * kDwBlock + 8 * lane + 4 * half + j;
            const size_t idx = (static_cast<size_t>(p) * blocks + blk) * 64 + half * 32 + (lane * 4 + j) * 2;
            if (c >= C) continue;
            f->interleaved[idx] = f->minusZero[static_cast<size_t>(2 * p) * C + c];
            if (2 * p + 1 < taps) f->interleaved[idx + 1] = f->minusZero[static_cast<size_t>(2 * p + 1) * C + c];
          }
}

// Depth multiplier 1: every tap (padding taps read a row of zero points, which contributes
// nothing) goes through vpmaddwd two at a time.
template <typename T>
void depthwiseQuantPairwise(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool, KernelScratch& ks) {
  const uint32_t taps = g.filterH * g.filterW, pairs = (taps + 1) / 2;
  // Per slot: accumulators, a row of zero points, tap and row pointers.
  const size_t accBytes = lines(sizeof(int32_t) * g.outC), zeroBytes = lines(sizeof(T) * g.outC);
  const size_t tapBytes = lines(sizeof(const T*) * pairs * 2);
  const size_t slotBytes = accBytes + zeroBytes + tapBytes + sizeof(const T*) * g.filterH;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t slots = slotCount(pool, rows, slotBytes);
  ks.slots.reserve(slots, slotBytes);
  runSlots(pool, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    const uint32_t C = g.outC, outH = g.outH, outW = g.outW;
    const uint32_t blocks = ceilDiv(C, kDwBlock);
    const int32_t zin = q.inputZeroPoint;
    uint8_t* base = ks.slots.slot<uint8_t>(slot);
    int32_t* __restrict a = reinterpret_cast<int32_t*>(base);
    T* zeroRow = reinterpret_cast<T*>(base + accBytes);
    std::fill(zeroRow, zeroRow + C, static_cast<T>(zin));
    const T** tapIn = reinterpret_cast<const T**>(base + accBytes + zeroBytes);
    const int16_t* weights = filter.interleaved.data();
    const __m512i vzin = _mm512_set1_epi16(static_cast<int16_t>(zin));
    const __m512i idx0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
    const __m512i idx1 = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
    const T** rowBase = reinterpret_cast<const T**>(base + accBytes + zeroBytes + tapBytes);
    const size_t pixelStride = g.inC;
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t kh = 0; kh < g.filterH; ++kh) {
        const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
        rowBase[kh] = ih < 0 ? nullptr : input + nhwc(g, b, ih, 0);
      }
      for (uint32_t ow = 0; ow < outW; ++ow) {
        uint32_t t = 0;
        const int64_t iw0 = static_cast<int64_t>(ow) * g.p.strideW - g.p.padLeft;
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          for (uint32_t kw = 0; kw < g.filterW; ++kw, ++t) {
            const int64_t iw = iw0 + static_cast<int64_t>(kw) * g.p.dilationW;
            tapIn[t] = rowBase[kh] == nullptr || iw < 0 || iw >= g.inW
                           ? zeroRow
                           : rowBase[kh] + static_cast<size_t>(iw) * pixelStride;
          }
        }
        if (taps % 2) tapIn[taps] = zeroRow;  // its weights are zero
        for (uint32_t blk = 0; blk < blocks; ++blk) {
          const uint32_t c0 = blk * kDwBlock, rem = C - c0;
          const __mmask32 m = rem >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << rem) - 1);
          __m512i accLo = _mm512_setzero_si512(), accHi = _mm512_setzero_si512();
          const int16_t* w = weights + static_cast<size_t>(blk) * 64;
          for (uint32_t p = 0; p < pairs; ++p, w += static_cast<size_t>(blocks) * 64) {
            const __m256i r0 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p] + c0);
            const __m256i r1 = _mm256_maskz_loadu_epi8(m, tapIn[2 * p + 1] + c0);
            const __m512i x0 = _mm512_sub_epi16(
                std::is_signed<T>::value ? _mm512_cvtepi8_epi16(r0) : _mm512_cvtepu8_epi16(r0), vzin);
            const __m512i x1 = _mm512_sub_epi16(
                std::is_signed<T>::value ? _mm512_cvtepi8_epi16(r1) : _mm512_cvtepu8_epi16(r1), vzin);
            accLo = _mm512_add_epi32(accLo, _mm512_madd_epi16(_mm512_unpacklo_epi16(x0, x1),
                                                              _mm512_loadu_si512(w)));
            accHi = _mm512_add_epi32(accHi, _mm512_madd_epi16(_mm512_unpackhi_epi16(x0, x1),
                                                              _mm512_loadu_si512(w + 32)));
          }
          const __mmask16 m0 = static_cast<__mmask16>(m), m1 = static_cast<__mmask16>(m >> 16);
          const __m512i out0 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx0, accHi),
                                                _mm512_maskz_loadu_epi32(m0, bias + c0));
          _mm512_mask_storeu_epi32(a + c0, m0, out0);
          if (m1 != 0) {
            const __m512i out1 = _mm512_add_epi32(_mm512_permutex2var_epi32(accLo, idx1, accHi),
                                                  _mm512_maskz_loadu_epi32(m1, bias + c0 + 16));
            _mm512_mask_storeu_epi32(a + c0 + 16, m1, out1);
          }
        }
        requantizeStore<T>(a, nullptr, 0, q.multiplier.data(), q.shift.data(), q.outputZeroPoint,
                           q.actMin, q.actMax, C, output + outIndex(g, b, oh, ow));
      }
    }
  });
}
#endif

template <typename T>
void depthwiseQuantImpl(const Geometry& g, const QuantParams& q, const T* input,
                        const int16_t* filter, const int32_t* bias, T* output, ThreadPool* pool,
                        KernelScratch& ks) {
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t slots = slotCount(pool, rows, sizeof(int32_t) * g.outC);
  ks.slots.reserve(slots, sizeof(int32_t) * g.outC);
  runSlots(pool, rows, slots, [&](size_t begin, size_t end, size_t slot) {
    // Locals so the compiler knows nothing below aliases the loop bounds.
    const uint32_t C = g.outC, inC = g.inC, outH = g.outH, outW = g.outW;
    const uint32_t mult = static_cast<uint32_t>(g.p.depthMultiplier);
    const int32_t zin = q.inputZeroPoint;
    const int32_t* multiplier = q.multiplier.data();
    const int32_t* shift = q.shift.data();
    int32_t* __restrict a = ks.slots.slot<int32_t>(slot);
    for (size_t row = begin; row < end; ++row) {
      const uint32_t b = static_cast<uint32_t>(row / outH), oh = static_cast<uint32_t>(row % outH);
      for (uint32_t ow = 0; ow < outW; ++ow) {
        for (uint32_t c = 0; c < C; ++c) a[c] = bias[c];
        for (uint32_t kh = 0; kh < g.filterH; ++kh) {
          const int32_t ih = tapPos(oh, kh, g.p.strideH, g.p.padTop, g.p.dilationH, g.inH);
          if (ih < 0) continue;
          for (uint32_t kw = 0; kw < g.filterW; ++kw) {
            const int32_t iw = tapPos(ow, kw, g.p.strideW, g.p.padLeft, g.p.dilationW, g.inW);
            if (iw < 0) continue;
            const T* __restrict in = input + nhwc(g, b, ih, iw);
            const int16_t* __restrict f = filter + (static_cast<size_t>(kh) * g.filterW + kw) * C;
            if (mult == 1) {
              for (uint32_t c = 0; c < C; ++c)
                a[c] += (static_cast<int32_t>(in[c]) - zin) * static_cast<int32_t>(f[c]);
            } else {
              for (uint32_t ic = 0; ic < inC; ++ic) {
                const int32_t x = static_cast<int32_t>(in[ic]) - zin;
                for (uint32_t j = 0; j < mult; ++j) a[ic * mult + j] += x * f[ic * mult + j];
              }
            }
          }
        }
        T* out = output + outIndex(g, b, oh, ow);
#if NNAPI_CONV_AVX512
        requantizeStore<T>(a, nullptr, 0, multiplier, shift, q.outputZeroPoint, q.actMin, q.actMax,
                           C, out);
#else
        for (uint32_t c = 0; c < C; ++c) {
          int32_t v = requantize(a[c], multiplier[c], shift[c]) + q.outputZeroPoint;
          v = std::max(q.actMin, std::min(q.actMax, v));
          out[c] = static_cast<T>(v);
        }
#endif
      }
    }
  });
}

template <typename T>
void depthwiseQuantDispatch(const Geometry& g, const QuantParams& q, const T* input,
                            const PackedDepthwiseFilter& filter, const int32_t* bias, T* output,
                            ThreadPool* pool, KernelScratch& ks) {
#if NNAPI_CONV_AVX512
  if (g.p.depthMultiplier == 1 && !filter.interleaved.empty() &&
      filter.taps == g.filterH * g.filterW && filter.channels == g.outC) {
    depthwiseQuantPairwise(g, q, input, filter, bias, output, pool, ks);
    return;
  }
#endif
  depthwiseQuantImpl(g, q, input, filter.minusZero.data(), bias, output, pool, ks);
}

}  // namespace

void packDepthwiseFilter(const void* filter, OperandType type, int32_t zeroPoint, uint32_t taps,
                         uint32_t channels, PackedDepthwiseFilter* out) {
  out->taps = taps;
  out->channels = channels;
  const size_t count = static_cast<size_t>(taps) * channels;
  out->minusZero.resize(count);
  if (type == OperandType::TENSOR_QUANT8_ASYMM) {
    const uint8_t* f = static_cast<const uint8_t*>(filter);
    for (size_t i = 0; i < count; ++i) out->minusZero[i] = static_cast<int16_t>(f[i] - zeroPoint);
  } else {
    const int8_t* f = static_cast<const int8_t*>(filter);
    for (size_t i = 0; i < count; ++i) out->minusZero[i] = static_cast<int16_t>(f[i] - zeroPoint);
  }
#if NNAPI_CONV_AVX512
  interleaveDepthwise(out);
#else
  out->interleaved.clear();
#endif
}

void fastDepthwiseQuant(const Geometry& g, const QuantParams& q, bool signedData,
                        const void* input, const PackedDepthwiseFilter& filter,
                        const int32_t* bias, void* output, ThreadPool* pool, KernelScratch& ks) {
  if (signedData)
    depthwiseQuantDispatch(g, q, static_cast<const int8_t*>(input), filter, bias,
                           static_cast<int8_t*>(output), pool, ks);
  else
    depthwiseQuantDispatch(g, q, static_cast<const uint8_t*>(input), filter, bias,
                           static_cast<uint8_t*>(output), pool, ks);
}

}  // namespace conv
}  // namespace nn
