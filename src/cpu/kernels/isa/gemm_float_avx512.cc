// AVX-512 float32 GEMM with the weight tile stationary (issue 10: XNNPACK's GEMM walks rows in
// its outer loop and re-reads the whole packed weight matrix, 1-2 MB in the low-resolution 1x1
// convolutions of the pose and hand models, from L3 for every few rows). Here the rows are cut
// into blocks that fit L2 with one weight tile; for each block every 32-column tile (k x 32
// floats) is swept over all the block's rows, kMR rows at a time: kMR x 32 accumulators in
// registers, per k one row element broadcast and two weight vectors, 2 * kMR FMAs. The bias is
// the accumulators' start and the activation clamp is the epilogue; the last tile's columns
// past n are masked (nothing is written past a row's n outputs). Float16 weights may stay in
// float16 panels (GemmFloatArgs::packedHalf), widened as they are loaded: the same products
// from half the bytes. The weight packing's full tiles are transposed here too.
// Compiled with the AVX-512 flags; see conv_isa.h for the include rules.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"
#include "cpu/kernels/isa/tile_prefetch.h"

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512 {
namespace {

constexpr uint32_t kTile = kConvTileN;  // 32 output columns per packed tile
constexpr uint32_t kMR = 8;                 // rows per register block (16 accumulators)
// Floats of A per row block: 48K floats = 192 KB, with one weight tile (k x 32 floats) well
// inside the L2 of the processors this targets.
constexpr size_t kBlockFloats = 48 * 1024;

// 16 weights of a packed tile row: float32, or float16 bits (GemmFloatArgs::packedHalf) widened.
inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
// VCVTPH2PS: exact for every half (a signalling NaN comes out quiet, which no weight is).
inline __m512 load16(const uint16_t* p) {
  return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// Rows [0, MR) of a (row r at a + r * lda) times NV vectors (16 columns each) of one packed
// tile; c row r at c + r * ldc. With WINDOW, each row's k values are `spans` runs of k / spans
// floats, run j at row + j * spanStride (an output pixel's filter rows read in place from an
// NHWC image; k then is a multiple of spans).
// With PF, line kk of `pf` (64 bytes each, k lines) is prefetched into L2 at step kk: a slice
// of the next weight tile (see tileRows).
// The residual ADD's epilogue (GemmFloatArgs::res): the block's rows of the residual from
// `res` (row stride ldr, at the tile's first column), lanes rm0 / rm1 read (zero past resC).
struct Residual {
  const float* res = nullptr;
  size_t ldr = 0;
  __mmask16 rm0 = 0, rm1 = 0;
  __m512 lo = _mm512_setzero_ps(), hi = _mm512_setzero_ps();
};

template <int MR, int NV, bool WINDOW = false, bool PF = false, bool RES = false,
          typename W = float>
inline void block(const float* a, size_t lda, const W* w, uint32_t k, __m512 b0, __m512 b1,
                  __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1, float* c, size_t ldc,
                  uint32_t spans = 1, size_t spanStride = 0, const char* pf = nullptr,
                  const Residual* res = nullptr) {
  __m512 acc0[MR], acc1[NV == 2 ? MR : 1];
  const float* row[MR];
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r) {
    acc0[r] = b0;
    if (NV == 2) acc1[r] = b1;
    row[r] = a + r * lda;
  }
  const uint32_t len = WINDOW ? k / spans : k;
  for (uint32_t j = 0; j < (WINDOW ? spans : 1u); ++j) {
#pragma GCC unroll 2
    for (uint32_t kk = 0; kk < len; ++kk) {
      if (PF) _mm_prefetch(pf + static_cast<size_t>(kk) * 64, _MM_HINT_T1);
      const __m512 w0 = load16(w + static_cast<size_t>(kk) * kTile);
      const __m512 w1 = NV == 2 ? load16(w + static_cast<size_t>(kk) * kTile + 16) : w0;
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) {
        const __m512 x = _mm512_set1_ps(row[r][kk]);
        acc0[r] = _mm512_fmadd_ps(x, w0, acc0[r]);
        if (NV == 2) acc1[r] = _mm512_fmadd_ps(x, w1, acc1[r]);
      }
    }
    if (WINDOW) {
      w += static_cast<size_t>(len) * kTile;
#pragma GCC unroll 16
      for (int r = 0; r < MR; ++r) row[r] += spanStride;
    }
  }
  if (RES) {
    // The ADD: the convolution's clamped value plus the residual (the ADD's operands in either
    // order give the same sum), then its clamp, max(lo, s) and min(hi, .) keeping a NaN sum.
#pragma GCC unroll 16
    for (int r = 0; r < MR; ++r) {
      float* out = c + r * ldc;
      const float* rr = res->res + r * res->ldr;
      const __m512 s0 = _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(acc0[r], lo), hi),
                                      _mm512_maskz_loadu_ps(res->rm0, rr));
      _mm512_mask_storeu_ps(out, m0, _mm512_min_ps(res->hi, _mm512_max_ps(res->lo, s0)));
      if (NV == 2) {
        const __m512 s1 = _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(acc1[r], lo), hi),
                                        _mm512_maskz_loadu_ps(res->rm1, rr + 16));
        _mm512_mask_storeu_ps(out + 16, m1, _mm512_min_ps(res->hi, _mm512_max_ps(res->lo, s1)));
      }
    }
    return;
  }
#pragma GCC unroll 16
  for (int r = 0; r < MR; ++r) {
    float* out = c + r * ldc;
    _mm512_mask_storeu_ps(out, m0, _mm512_min_ps(_mm512_max_ps(acc0[r], lo), hi));
    if (NV == 2)
      _mm512_mask_storeu_ps(out + 16, m1, _mm512_min_ps(_mm512_max_ps(acc1[r], lo), hi));
  }
}

// block<mr, NV> for a run-time mr in [1, M].
template <int NV, int M, bool WINDOW = false, bool PF = false, bool RES = false,
          typename W = float>
inline void blockUpTo(uint32_t mr, const float* a, size_t lda, const W* w, uint32_t k,
                      __m512 b0, __m512 b1, __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1,
                      float* c, size_t ldc, uint32_t spans = 1, size_t spanStride = 0,
                      const char* pf = nullptr, const Residual* res = nullptr) {
  if constexpr (M > 1) {
    if (mr < static_cast<uint32_t>(M))
      return blockUpTo<NV, M - 1, WINDOW, PF, RES, W>(mr, a, lda, w, k, b0, b1, lo, hi, m0, m1,
                                                      c, ldc, spans, spanStride, pf, res);
  }
  block<M, NV, WINDOW, PF, RES, W>(a, lda, w, k, b0, b1, lo, hi, m0, m1, c, ldc, spans,
                                   spanStride, pf, res);
}

// Rows [r0, r1) of one tile in as few register blocks as MR allows, their sizes evened out
// (49 rows: 7 x 7, not 6 x 8 + 1: a one-row block reads the whole tile for 2 FMAs per k).
// A tile with at most 16 columns left (the last one) takes one vector per row and twice the
// rows per block.
// `next` (may be null): the weight tile the caller takes after this one, prefetched by the first
// two register blocks (TilePrefetch). Without it the 7x7 layers of hand_landmark_full (192x1152
// and 1152x192 weights, 884 KB, 49 rows: each tile swept by 7 blocks) took about a third more
// time than the same GEMM with the weights already in L2.
template <int NV, bool RES = false, typename W = float>
inline void tileRows(const GemmFloatArgs& g, uint32_t r0, uint32_t r1, const W* w,
                     uint32_t c0, __m512 b0, __m512 b1, __m512 lo, __m512 hi, __mmask16 m0,
                     __mmask16 m1, const W* next) {
  constexpr uint32_t MR = NV == 2 ? kMR : 2 * kMR;
  const uint32_t k = g.k, n = g.n;
  Residual res;
  if (RES) {
    res.ldr = g.resC;
    res.rm0 = m0 & laneMask16(g.resC > c0 ? g.resC - c0 : 0);
    res.rm1 = m1 & laneMask16(g.resC > c0 + 16 ? g.resC - c0 - 16 : 0);
    res.lo = _mm512_set1_ps(g.addMin);
    res.hi = _mm512_set1_ps(g.addMax);
  }
  // The next tile: 2 * k lines of 64 bytes in float32, k in float16.
  TilePrefetch prefetch(next, k, sizeof(W) == 2 ? k : 2 * k);
  for (uint32_t r = r0; r < r1;) {
    const uint32_t left = r1 - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    const float* a = g.a + r * g.lda;
    float* c = g.c + static_cast<size_t>(r) * n + c0;
    if (RES) res.res = g.res + static_cast<size_t>(r) * g.resC + c0;
    if (const char* pf = prefetch.take()) {
      blockUpTo<NV, MR, false, true, RES, W>(mr, a, g.lda, w, k, b0, b1, lo, hi, m0, m1, c, n, 1,
                                             0, pf, &res);
    } else {
      blockUpTo<NV, MR, false, false, RES, W>(mr, a, g.lda, w, k, b0, b1, lo, hi, m0, m1, c, n,
                                              1, 0, nullptr, &res);
    }
    r += mr;
  }
}

// Rows [0, m) of a window GEMM (block's WINDOW form), all tiles, the register blocks evened out
// as in tileRows.
template <int NV>
inline void windowTileRows(const float* a, size_t lda, uint32_t spans, size_t spanStride,
                           uint32_t m, const float* w, uint32_t k, __m512 b0, __m512 b1,
                           __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1, float* c,
                           size_t ldc) {
  constexpr uint32_t MR = NV == 2 ? kMR : 2 * kMR;
  for (uint32_t r = 0; r < m;) {
    const uint32_t left = m - r, blocks = (left + MR - 1) / MR;
    const uint32_t mr = (left + blocks - 1) / blocks;
    blockUpTo<NV, MR, true>(mr, a + r * lda, lda, w, k, b0, b1, lo, hi, m0, m1, c + r * ldc, ldc,
                            spans, spanStride);
    r += mr;
  }
}

// r[i] = row i of a 16 x 16 block of floats; on return r[j] = its column j. Unpacks pair rows
// within 128-bit lanes, shuffle_ps gathers each lane's column of 4 rows, and two rounds of
// 128-bit lane shuffles bring a column's four lanes together.
inline void transpose16x16(__m512 r[16]) {
  __m512 a[16], b[16];
  for (int i = 0; i < 16; i += 2) {
    a[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    a[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  // b[i + j] (i a multiple of 4), lane L: rows i..i+3 of column 4L + j.
  for (int i = 0; i < 16; i += 4) {
    b[i] = _mm512_shuffle_ps(a[i], a[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    b[i + 1] = _mm512_shuffle_ps(a[i], a[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    b[i + 2] = _mm512_shuffle_ps(a[i + 1], a[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    b[i + 3] = _mm512_shuffle_ps(a[i + 1], a[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int j = 0; j < 4; ++j) {
    const __m512 even0 = _mm512_shuffle_f32x4(b[j], b[4 + j], 0x88);  // lanes 0, 2 of each
    const __m512 odd0 = _mm512_shuffle_f32x4(b[j], b[4 + j], 0xDD);   // lanes 1, 3 of each
    const __m512 even1 = _mm512_shuffle_f32x4(b[8 + j], b[12 + j], 0x88);
    const __m512 odd1 = _mm512_shuffle_f32x4(b[8 + j], b[12 + j], 0xDD);
    r[j] = _mm512_shuffle_f32x4(even0, even1, 0x88);
    r[4 + j] = _mm512_shuffle_f32x4(odd0, odd1, 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(even0, even1, 0xDD);
    r[12 + j] = _mm512_shuffle_f32x4(odd0, odd1, 0xDD);
  }
}

inline void store16(float* p, __m512 v) { _mm512_storeu_ps(p, v); }
// Narrowing a widened half gives back its bits (NaNs aside, which no weight is).
inline void store16(uint16_t* p, __m512 v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                      _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
}
// One weight for the tail: the same value in the destination's form.
inline float convert1(float v, float*) { return v; }
inline float convert1(uint16_t v, float*) {
  return _mm512_cvtss_f32(_mm512_cvtph_ps(_mm256_set1_epi16(static_cast<short>(v))));
}
inline uint16_t convert1(uint16_t v, uint16_t*) { return v; }

// One full tile (kTile source rows of k weights at src, row c at src + c * k) into
// dst[k][kTile], 16 k at a time: each 16-column half of the tile, its rows' runs of 16
// transposed in registers, gives 16 destination half-rows.
// Each source row is prefetched this many weights ahead: the tile's 32 rows are 32 streams, more
// than the hardware prefetcher follows (a layer of 444K float16 weights from a cold model file:
// 0.32 -> 0.23 ms).
constexpr uint32_t kPackAhead = 64;
template <typename S, typename D>
void packTile(const S* src, uint32_t k, D* dst) {
  uint32_t kk = 0;
  for (; kk + 16 <= k; kk += 16) {
    for (uint32_t half = 0; half < 2; ++half) {
      __m512 r[16];
      for (uint32_t c = 0; c < 16; ++c) {
        const S* row = src + static_cast<size_t>(half * 16 + c) * k;
        if (kk + kPackAhead < k)
          _mm_prefetch(reinterpret_cast<const char*>(row + kk + kPackAhead), _MM_HINT_T0);
        r[c] = load16(row + kk);
      }
      transpose16x16(r);
      for (uint32_t j = 0; j < 16; ++j)
        store16(dst + static_cast<size_t>(kk + j) * kTile + half * 16, r[j]);
    }
  }
  for (; kk < k; ++kk)
    for (uint32_t c = 0; c < kTile; ++c)
      dst[static_cast<size_t>(kk) * kTile + c] =
          convert1(src[static_cast<size_t>(c) * k + kk], dst);
}

// Tile t of `packed` (float32 or float16 panels) over rows [r0, r1): with or without the
// residual epilogue, two vectors per row or (the last tile's at most 16 columns) one.
template <typename W>
inline void tileForm(const GemmFloatArgs& g, uint32_t r0, uint32_t r1, const W* packed,
                     uint32_t t, uint32_t tileEnd, bool l1Weights, uint32_t c0, uint32_t cols,
                     __m512 b0, __m512 b1, __m512 lo, __m512 hi, __mmask16 m0, __mmask16 m1) {
  const uint32_t k = g.k;
  const W* w = packed + static_cast<size_t>(t) * k * kTile;
  const W* next = t + 1 < tileEnd && !l1Weights ? w + static_cast<size_t>(k) * kTile : nullptr;
  if (g.res != nullptr && cols > 16)
    tileRows<2, true>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1, next);
  else if (g.res != nullptr)
    tileRows<1, true>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1, next);
  else if (cols > 16)
    tileRows<2>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1, next);
  else
    tileRows<1>(g, r0, r1, w, c0, b0, b1, lo, hi, m0, m1, next);
}

}  // namespace

void packFloatTile(const float* src, uint32_t k, float* dst) { packTile(src, k, dst); }
void packHalfTile(const uint16_t* src, uint32_t k, float* dst) { packTile(src, k, dst); }
void packHalfTileBits(const uint16_t* src, uint32_t k, uint16_t* dst) { packTile(src, k, dst); }

void gemmFloatPanels(const GemmFloatArgs& g, uint32_t rowBegin, uint32_t rowEnd,
                     uint32_t tileBegin, uint32_t tileEnd) {
  const uint32_t k = g.k, n = g.n;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  size_t blockRows = kBlockFloats / (k > 0 ? k : 1) / kMR * kMR;
  if (blockRows < static_cast<size_t>(kMR)) blockRows = kMR;
  // Weights that fit L1 with room to spare (the small-k, high-resolution 1x1 layers): 16 rows
  // at a time through every tile, so each output row is written whole while its lines are
  // in L1 instead of in one partial pass per tile over rows that no longer are.
  const bool l1Weights = weightsStayInL1(static_cast<size_t>(k) * (tileEnd - tileBegin) * kTile *
                                         (g.packedHalf != nullptr ? 2 : sizeof(float)));
  if (tileEnd - tileBegin >= 2 && l1Weights) blockRows = 2 * kMR;
  // With lastBlockFirst, groups of blocks (at least 128 rows, so the hardware prefetchers
  // still see ascending addresses within one) are taken from the last group to the first.
  const uint32_t rows = rowEnd > rowBegin ? rowEnd - rowBegin : 0;
  const uint32_t blockCount = static_cast<uint32_t>((rows + blockRows - 1) / blockRows);
  const uint32_t groupBlocks =
      blockRows >= 128 ? 1u : static_cast<uint32_t>((128 + blockRows - 1) / blockRows);
  const uint32_t groupCount = (blockCount + groupBlocks - 1) / groupBlocks;
  for (uint32_t gi = 0; gi < groupCount; ++gi) {
    const uint32_t group = g.lastBlockFirst ? groupCount - 1 - gi : gi;
    const uint32_t bEnd = group * groupBlocks + groupBlocks < blockCount
                              ? group * groupBlocks + groupBlocks : blockCount;
    for (uint32_t b = group * groupBlocks; b < bEnd; ++b) {
      const uint32_t r0 = rowBegin + b * static_cast<uint32_t>(blockRows);
      const uint32_t r1 =
          rowEnd - r0 > blockRows ? r0 + static_cast<uint32_t>(blockRows) : rowEnd;
      for (uint32_t t = tileBegin; t < tileEnd; ++t) {
        const uint32_t c0 = t * kTile, cols = n - c0 < kTile ? n - c0 : kTile;
        const __mmask16 m0 = laneMask16(cols), m1 = laneMask16(cols > 16 ? cols - 16 : 0);
        const __m512 b0 = g.bias ? _mm512_maskz_loadu_ps(m0, g.bias + c0) : _mm512_setzero_ps();
        const __m512 b1 =
            g.bias ? _mm512_maskz_loadu_ps(m1, g.bias + c0 + 16) : _mm512_setzero_ps();
        if (g.packedHalf != nullptr)
          tileForm(g, r0, r1, g.packedHalf, t, tileEnd, l1Weights, c0, cols, b0, b1, lo, hi, m0,
                   m1);
        else
          tileForm(g, r0, r1, g.packed, t, tileEnd, l1Weights, c0, cols, b0, b1, lo, hi, m0, m1);
      }
    }
  }
}

namespace {

// dst[0, count) = src[0, count), 16 floats per (masked) load and store.
inline void copySpan(const float* src, float* dst, uint32_t count) {
  for (uint32_t i = 0; i < count; i += 16) {
    const __mmask16 m = laneMask16(count - i);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
}

inline void zeroSpan(float* dst, uint32_t count) {
  for (uint32_t i = 0; i < count; i += 16)
    _mm512_mask_storeu_ps(dst + i, laneMask16(count - i), _mm512_setzero_ps());
}

// The im2col rows of output pixels [owBegin, owEnd) of output row oh into dst ([pixel][k]),
// zeros where a tap falls in the padding.
void im2colPixels(const ConvDirectFloatArgs& a, const float* image, int32_t oh, uint32_t owBegin,
                  uint32_t owEnd, float* dst) {
  const uint32_t inC = a.inC, span = a.filterW * inC;
  for (uint32_t ow = owBegin; ow < owEnd; ++ow) {
    const int32_t iw0 = static_cast<int32_t>(ow) * a.strideW - a.padLeft;
    const bool inside =
        iw0 >= 0 && iw0 + static_cast<int32_t>(a.filterW) <= static_cast<int32_t>(a.inW);
    for (uint32_t kh = 0; kh < a.filterH; ++kh, dst += span) {
      const int32_t ih = oh * a.strideH - a.padTop + static_cast<int32_t>(kh);
      if (ih < 0 || ih >= static_cast<int32_t>(a.inH)) {
        zeroSpan(dst, span);
        continue;
      }
      const float* src = image + (static_cast<size_t>(ih) * a.inW) * inC;
      if (inside) {
        copySpan(src + static_cast<size_t>(iw0) * inC, dst, span);
        continue;
      }
      for (uint32_t kw = 0; kw < a.filterW; ++kw) {  // the left or right edge
        const int32_t iw = iw0 + static_cast<int32_t>(kw);
        if (iw < 0 || iw >= static_cast<int32_t>(a.inW))
          zeroSpan(dst + kw * inC, inC);
        else
          copySpan(src + static_cast<size_t>(iw) * inC, dst + kw * inC, inC);
      }
    }
  }
}

}  // namespace

// Output pixels whose whole window lies in the image read their filter rows in place (block's
// WINDOW form: equally spaced pixels, filterH runs of filterW * inC floats); the few at the
// edges, and whole output rows whose window leaves the image at the top or bottom, go through
// `panel` (im2col) and the plain panel GEMM. Same sums in the same order either way.
void convIm2colFloatRows(const ConvIm2colFloatArgs& args, size_t rowBegin, size_t rowEnd,
                         float* panel) {
  const ConvDirectFloatArgs& a = args.conv;
  const uint32_t inC = a.inC, span = a.filterW * inC, k = a.filterH * span, n = a.outC;
  GemmFloatArgs g{};
  g.n = n;
  g.k = k;
  g.lda = k;
  g.packed = args.packed;
  g.bias = a.bias;
  g.outputMin = a.outputMin;
  g.outputMax = a.outputMax;
  const uint32_t tiles = (n + kTile - 1) / kTile;
  // Interior output columns [owL, owR): iw0 = ow * strideW - padLeft >= 0 and
  // iw0 + filterW <= inW.
  const int32_t sw = a.strideW, padL = a.padLeft;
  uint32_t owL = padL > 0 ? static_cast<uint32_t>((padL + sw - 1) / sw) : 0;
  if (owL > a.outW) owL = a.outW;
  const int32_t lastStart = static_cast<int32_t>(a.inW) + padL - static_cast<int32_t>(a.filterW);
  uint32_t owR = lastStart >= 0 ? static_cast<uint32_t>(lastStart / sw) + 1 : 0;
  if (owR > a.outW) owR = a.outW;
  if (owR < owL) owR = owL;
  const __m512 lo = _mm512_set1_ps(a.outputMin), hi = _mm512_set1_ps(a.outputMax);
  for (size_t row = rowBegin; row < rowEnd; ++row) {
    const size_t b = row / a.outH;
    const int32_t oh = static_cast<int32_t>(row % a.outH);
    const float* image = a.input + b * a.inH * a.inW * inC;
    // With a float16 output: the row in float32 after the im2col panel, narrowed below.
    float* out = args.outputHalf != nullptr ? panel + static_cast<size_t>(a.outW) * k
                                            : a.output + row * a.outW * n;
    const int32_t ih0 = oh * a.strideH - a.padTop;
    const bool rowsInside =
        ih0 >= 0 && ih0 + static_cast<int32_t>(a.filterH) <= static_cast<int32_t>(a.inH);
    const uint32_t l = rowsInside ? owL : a.outW, r = rowsInside ? owR : a.outW;
    g.a = panel;
    if (l > 0) {  // left edge (or the whole row)
      im2colPixels(a, image, oh, 0, l, panel);
      g.m = l;
      g.c = out;
      gemmFloatPanels(g, 0, l, 0, tiles);
    }
    if (r < a.outW) {  // right edge
      im2colPixels(a, image, oh, r, a.outW, panel);
      g.m = a.outW - r;
      g.c = out + static_cast<size_t>(r) * n;
      gemmFloatPanels(g, 0, a.outW - r, 0, tiles);
    }
    if (r > l) {
      const float* first =
          image + (static_cast<size_t>(ih0) * a.inW + (static_cast<int32_t>(l) * sw - padL)) * inC;
      const size_t lda = static_cast<size_t>(sw) * inC;
      const size_t spanStride = static_cast<size_t>(a.inW) * inC;
      for (uint32_t t = 0; t < tiles; ++t) {
        const uint32_t c0 = t * kTile, cols = n - c0 < kTile ? n - c0 : kTile;
        const __mmask16 m0 = laneMask16(cols), m1 = laneMask16(cols > 16 ? cols - 16 : 0);
        const __m512 b0 = a.bias ? _mm512_maskz_loadu_ps(m0, a.bias + c0) : _mm512_setzero_ps();
        const __m512 b1 =
            a.bias ? _mm512_maskz_loadu_ps(m1, a.bias + c0 + 16) : _mm512_setzero_ps();
        const float* w = args.packed + static_cast<size_t>(t) * k * kTile;
        float* c = out + static_cast<size_t>(l) * n + c0;
        if (cols > 16)
          windowTileRows<2>(first, lda, a.filterH, spanStride, r - l, w, k, b0, b1, lo, hi, m0, m1,
                            c, n);
        else
          windowTileRows<1>(first, lda, a.filterH, spanStride, r - l, w, k, b0, b1, lo, hi, m0, m1,
                            c, n);
      }
    }
    if (args.outputHalf != nullptr) {
      // Round-to-nearest-even, as static_cast<_Float16> (the reference device's narrowing).
      const size_t count = static_cast<size_t>(a.outW) * n;
      uint16_t* dst = args.outputHalf + row * count;
      size_t i = 0;
      for (; i + 16 <= count; i += 16)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                            _mm512_cvtps_ph(_mm512_loadu_ps(out + i), _MM_FROUND_TO_NEAREST_INT));
      if (i < count) {
        const __mmask16 m = laneMask16(static_cast<uint32_t>(count - i));
        _mm256_mask_storeu_epi16(dst + i, m,
                                 _mm512_cvtps_ph(_mm512_maskz_loadu_ps(m, out + i),
                                                 _MM_FROUND_TO_NEAREST_INT));
      }
    }
  }
}

}  // namespace isa_avx512
}  // namespace nn
