// AVX-512 float32 depthwise convolution (depth multiplier 1, dilation 1, filter width 3 or 5,
// horizontal stride 1 or 2) for narrow maps: the 7- and 14-wide layers of the hand, pose and
// face models. Why: on a 7-wide map with a 5x5 window 4 of 7 output columns touch the padding,
// and the row kernel (conv_direct_avx512.cc) computes those one pixel at a time, each FMA with
// two loads (input and weight): load-bound at half the FMA rate; XNNPACK, which the 7-wide
// layers used, reached ~19 GMAC/s on 7x7x1152 5x5 (this kernel ~50). Here a pass takes a run of up to 8 output columns of one 16-channel
// block, edges included: the weights of a filter row are loaded once per pass, each input
// column once and fed to every output column of the run it is a tap of; taps in the padding are
// skipped by one run-time test per input column (not per FMA).
// Each output starts from the bias and adds its taps in filter order (kh, then kw), padding
// taps left out: the order of the row kernel and of the portable loop, so the results are bit
// for bit the same. Work units are (output row, group of channel blocks), in channel-group-major
// or row-major order (the driver's choice, depthwise_small.cc): two threads split a 7-row map
// evenly instead of 4 rows against 3.
// Compiled with the AVX-512 flags; see conv_isa.h for the include rules.
#include <cstddef>
#include <cstdint>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/conv_isa.h"

namespace nn {
namespace isa_avx512 {
namespace {

constexpr int kMaxRun = 8;  // output columns per pass (8 accumulator chains cover FMA latency)

// Output columns [ow0, ow0 + NB) of one channel block (lanes m). `row0` is input row
// ih0 + khBegin at column 0 and the block's first channel; x0 = ow0 * S - padLeft is the input
// column of output ow0's tap kw = 0; `filter` is the block's first channel of tap 0.
template <int NB, int FW, int S>
inline void pass(const float* row0, size_t rowStep, size_t C, int32_t khBegin, int32_t khEnd,
                 int32_t x0, int32_t inW, __mmask16 m, __m512 bias, const float* filter,
                 __m512 lo, __m512 hi, float* out) {
  __m512 acc[NB];
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j) acc[j] = bias;
  for (int32_t kh = khBegin; kh < khEnd; ++kh) {
    const float* row = row0 + static_cast<size_t>(kh - khBegin) * rowStep;
    __m512 w[FW];
#pragma GCC unroll 8
    for (int kw = 0; kw < FW; ++kw)
      w[kw] = _mm512_maskz_loadu_ps(m, filter + static_cast<size_t>(kh * FW + kw) * C);
#pragma GCC unroll 32
    for (int x = 0; x < S * (NB - 1) + FW; ++x) {
      const int32_t xi = x0 + x;
      if (xi < 0 || xi >= inW) continue;  // a padding column: no tap
      const __m512 v = _mm512_maskz_loadu_ps(m, row + static_cast<ptrdiff_t>(xi) * C);
#pragma GCC unroll 8
      for (int kw = 0; kw < FW; ++kw) {
        const int j = (x - kw) / S;
        if (x >= kw && (x - kw) % S == 0 && j < NB) acc[j] = _mm512_fmadd_ps(v, w[kw], acc[j]);
      }
    }
  }
#pragma GCC unroll 8
  for (int j = 0; j < NB; ++j)
    _mm512_mask_storeu_ps(out + static_cast<size_t>(j) * C, m,
                          _mm512_min_ps(_mm512_max_ps(acc[j], lo), hi));
}

template <int FW, int S, int NB = kMaxRun>
inline void passUpTo(int nb, const float* row0, size_t rowStep, size_t C, int32_t khBegin,
                     int32_t khEnd, int32_t x0, int32_t inW, __mmask16 m, __m512 bias,
                     const float* filter, __m512 lo, __m512 hi, float* out) {
  if constexpr (NB > 1) {
    if (nb < NB)
      return passUpTo<FW, S, NB - 1>(nb, row0, rowStep, C, khBegin, khEnd, x0, inW, m, bias,
                                     filter, lo, hi, out);
  }
  pass<NB, FW, S>(row0, rowStep, C, khBegin, khEnd, x0, inW, m, bias, filter, lo, hi, out);
}

// Channel blocks [blockBegin, blockEnd) of output row `row` (= batch * outH + oh).
template <int FW, int S>
void rowBlocks(const ConvDepthwiseFloatArgs& g, size_t row, uint32_t blockBegin,
               uint32_t blockEnd) {
  const uint32_t C = g.channels, outH = g.outH, outW = g.outW;
  const size_t b = row / outH;
  const int32_t oh = static_cast<int32_t>(row % outH);
  const float* image = g.input + b * g.inH * g.inW * C;
  float* outRow = g.output + row * outW * C;
  const int32_t ih0 = oh * g.strideH - g.padTop;
  int32_t khBegin = ih0 < 0 ? -ih0 : 0;
  int32_t khEnd = static_cast<int32_t>(g.inH) - ih0;
  if (khEnd > static_cast<int32_t>(g.filterH)) khEnd = static_cast<int32_t>(g.filterH);
  if (khEnd < khBegin) khEnd = khBegin;  // the whole window in padding: bias only
  const size_t rowStep = static_cast<size_t>(g.inW) * C;
  // Rows above the image are never read (khBegin skips them), so the pointer starts at the
  // first row that exists.
  const float* row0 =
      khBegin < khEnd ? image + static_cast<size_t>(ih0 + khBegin) * rowStep : image;
  const __m512 lo = _mm512_set1_ps(g.outputMin), hi = _mm512_set1_ps(g.outputMax);
  const int32_t inW = static_cast<int32_t>(g.inW);
  for (uint32_t blk = blockBegin; blk < blockEnd; ++blk) {
    const uint32_t c0 = blk * 16;
    const __mmask16 m = laneMask16(C - c0);
    const __m512 bias = _mm512_maskz_loadu_ps(m, g.bias + c0);
    // Runs of at most kMaxRun columns, their lengths evened out (14: 7 + 7, not 8 + 6).
    for (uint32_t ow = 0; ow < outW;) {
      const uint32_t left = outW - ow, runs = (left + kMaxRun - 1) / kMaxRun;
      const int nb = static_cast<int>((left + runs - 1) / runs);
      passUpTo<FW, S>(nb, row0 + c0, rowStep, C, khBegin, khEnd,
                      static_cast<int32_t>(ow) * S - g.padLeft, inW, m, bias, g.filter + c0, lo,
                      hi, outRow + static_cast<size_t>(ow) * C + c0);
      ow += static_cast<uint32_t>(nb);
    }
  }
}

}  // namespace

void convDepthwiseFloatSmallMap(const ConvDepthwiseFloatArgs& g, uint32_t groupBlocks,
                                bool rowMajor, size_t unitBegin, size_t unitEnd) {
  const uint32_t blocks = (g.channels + 15) / 16;
  const size_t groups = (blocks + groupBlocks - 1) / groupBlocks;
  const int key = static_cast<int>(g.filterW) * 10 + g.strideW;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  for (size_t u = unitBegin; u < unitEnd; ++u) {
    const size_t row = rowMajor ? u / groups : u % rows;
    const uint32_t b0 = static_cast<uint32_t>(rowMajor ? u % groups : u / rows) * groupBlocks;
    const uint32_t b1 = b0 + groupBlocks < blocks ? b0 + groupBlocks : blocks;
    if (key == 31)
      rowBlocks<3, 1>(g, row, b0, b1);
    else if (key == 32)
      rowBlocks<3, 2>(g, row, b0, b1);
    else if (key == 51)
      rowBlocks<5, 1>(g, row, b0, b1);
    else
      rowBlocks<5, 2>(g, row, b0, b1);
  }
}

}  // namespace isa_avx512
}  // namespace nn
