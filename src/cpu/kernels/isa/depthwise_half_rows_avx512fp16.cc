// The float16 depthwise convolution by channel group (gemm_half_isa.h,
// depthwiseHalfChannelRows): for one 32-channel vector, whole output rows of up to 16 columns
// in registers (one accumulator per column, the row's filter weights loaded once per filter
// row, each input vector loaded once per filter row and fed to every output column it is a tap
// of), the channel group outermost and its rows inside, so that the group's input columns
// (a few KB) stay in L1 from one output row to the next. depthwise_half_avx512fp16.cc instead
// sweeps all channels at each block of output columns: on the 7- and 14-wide maps of the hand
// and pose landmark models its window of the input (5 rows x 12 columns x all channels, 50-100
// KB) did not fit L1 and its edge blocks branch per tap. The taps of padding columns are
// loaded as zero (masked loads) and still summed, which leaves every sum unchanged: the
// results are bit-identical with depthwise_half_avx512fp16.cc's float16 form (same filter
// order, one float16 accumulator, the same clamped rounding).
// Compiled with the AVX-512 and AVX512-FP16 flags; include rules as in conv_isa.h.
#include <cstddef>
#include <cstdint>
#include <utility>

#include "cpu/kernels/isa/intrinsics.h"
#include "cpu/kernels/isa/lane_mask.h"

#include "cpu/kernels/isa/gemm_half_isa.h"

namespace nn {
namespace isa_avx512fp16 {
namespace {

inline int32_t clampTo(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : (v > hi ? hi : v); }

// OW output columns of one 32-channel vector (lanes m) at stride S with a filter FW wide
// (dilation 1): `in` is the input row of the first valid filter row at the input column col0 of
// the first output column (col0 may be negative: only offsets are formed there, masked loads
// read nothing outside [0, inW)), `w` that filter row's weights; pixels `pix` elements apart,
// rows `rowStep`, output columns `outStep`.
template <int OW, int FW, int S>
void rowRun(const uint16_t* in, size_t pix, size_t rowStep, int32_t khCount, const uint16_t* w,
            size_t wStride, __m512h bias, __mmask32 m, __m512h lo, __m512h hi, uint16_t* out,
            size_t outStep, int32_t col0, int32_t inW) {
  constexpr int kInputs = S * (OW - 1) + FW;
  __mmask32 valid[kInputs];
#pragma GCC unroll 40
  for (int i = 0; i < kInputs; ++i)
    valid[i] = col0 + i >= 0 && col0 + i < inW ? m : __mmask32(0);
  __m512h acc[OW];
#pragma GCC unroll 16
  for (int j = 0; j < OW; ++j) acc[j] = bias;
  for (int32_t kh = 0; kh < khCount; ++kh) {
    const uint16_t* row = in + static_cast<ptrdiff_t>(kh) * static_cast<ptrdiff_t>(rowStep);
    const uint16_t* wr = w + static_cast<size_t>(kh) * FW * wStride;
    __m512h wv[FW];
#pragma GCC unroll 5
    for (int kw = 0; kw < FW; ++kw)
      wv[kw] = _mm512_castsi512_ph(_mm512_loadu_si512(wr + kw * wStride));
#pragma GCC unroll 40
    for (int i = 0; i < kInputs; ++i) {
      const __m512h x = _mm512_castsi512_ph(
          _mm512_maskz_loadu_epi16(valid[i], row + static_cast<ptrdiff_t>(i) * static_cast<ptrdiff_t>(pix)));
#pragma GCC unroll 16
      for (int j = 0; j < OW; ++j) {
        const int kw = i - j * S;
        if (kw >= 0 && kw < FW) acc[j] = _mm512_fmadd_ph(x, wv[kw], acc[j]);
      }
    }
  }
#pragma GCC unroll 16
  for (int j = 0; j < OW; ++j)
    _mm512_mask_storeu_epi16(out + j * outStep, m,
                             _mm512_castph_si512(_mm512_min_ph(_mm512_max_ph(acc[j], lo), hi)));
}

using RunFn = void (*)(const uint16_t*, size_t, size_t, int32_t, const uint16_t*, size_t,
                       __m512h, __mmask32, __m512h, __m512h, uint16_t*, size_t, int32_t, int32_t);

// rowRun for 1..16 columns ([OW - 1]).
struct Runs {
  RunFn fn[kHalfDwRowMaxRun] = {};
};
template <int FW, int S, int... OW>
Runs makeRuns(std::integer_sequence<int, OW...>) {
  Runs r;
  ((r.fn[OW] = rowRun<OW + 1, FW, S>), ...);
  return r;
}
template <int FW, int S>
const Runs& runs() {
  static const Runs r = makeRuns<FW, S>(std::make_integer_sequence<int, kHalfDwRowMaxRun>());
  return r;
}
const Runs* runsFor(uint32_t filterW, int32_t strideW) {
  if (filterW == 3) return strideW == 1 ? &runs<3, 1>() : strideW == 2 ? &runs<3, 2>() : nullptr;
  if (filterW == 5) return strideW == 1 ? &runs<5, 1>() : strideW == 2 ? &runs<5, 2>() : nullptr;
  return nullptr;
}

}  // namespace

void depthwiseHalfChannelRows(const DepthwiseHalfArgs& a, uint32_t rowBegin, uint32_t rowEnd,
                              uint32_t groupBegin, uint32_t groupEnd) {
  const Runs* runTable = runsFor(a.filterW, a.strideW);
  if (runTable == nullptr || a.dilationW != 1 || a.out == nullptr) return;
  const uint32_t C = a.channels;
  const size_t wStride = (C + kHalfDwLanes - 1) / kHalfDwLanes * kHalfDwLanes;
  const __m512h lo = _mm512_set1_ph(static_cast<_Float16>(a.outputMin));
  const __m512h hi = _mm512_set1_ph(static_cast<_Float16>(a.outputMax));
  const size_t rowStep = static_cast<size_t>(a.dilationH) * a.inW * C;
  // A row in runs of at most kHalfDwRowMaxRun columns, as even as possible (28 -> 14 + 14).
  const uint32_t pieces = (a.outW + kHalfDwRowMaxRun - 1) / kHalfDwRowMaxRun;
  for (uint32_t group = groupBegin; group < groupEnd; ++group) {
    const uint32_t c = group * kHalfDwLanes;
    if (c >= C) break;
    const __mmask32 m = laneMask32(C - c);
    const __m512h bias = _mm512_castsi512_ph(_mm512_loadu_si512(a.bias + c));
    for (uint32_t row = rowBegin; row < rowEnd; ++row) {
      const uint32_t b = row / a.outH, oh = row % a.outH;
      const int32_t ih0 = static_cast<int32_t>(oh) * a.strideH - a.padTop;
      const int32_t khBegin = clampTo(ih0 >= 0 ? 0 : (-ih0 + a.dilationH - 1) / a.dilationH, 0,
                                      static_cast<int32_t>(a.filterH));
      const int32_t khEnd = clampTo(
          ih0 >= static_cast<int32_t>(a.inH) ? 0
                                             : (static_cast<int32_t>(a.inH) - 1 - ih0) / a.dilationH + 1,
          khBegin, static_cast<int32_t>(a.filterH));
      uint16_t* outRow = a.out + static_cast<size_t>(row) * a.outW * C + c;
      const uint16_t* base = a.in + static_cast<size_t>(b) * a.inH * a.inW * C +
                             static_cast<size_t>(ih0 + khBegin * a.dilationH) * a.inW * C + c;
      const uint16_t* w = a.filter + static_cast<size_t>(khBegin) * a.filterW * wStride + c;
      uint32_t o = 0;
      for (uint32_t p = 0; p < pieces; ++p) {
        const uint32_t end = static_cast<uint32_t>(static_cast<uint64_t>(a.outW) * (p + 1) / pieces);
        const uint32_t count = end - o;
        const int32_t col0 = static_cast<int32_t>(o) * a.strideW - a.padLeft;
        // khBegin == khEnd (the window wholly in the padding): no taps, the clamped bias.
        runTable->fn[count - 1](base + static_cast<ptrdiff_t>(col0) * static_cast<ptrdiff_t>(C), C,
                                rowStep, khEnd - khBegin, w, wStride, bias, m, lo, hi,
                                outRow + static_cast<size_t>(o) * C, C, col0,
                                static_cast<int32_t>(a.inW));
        o = end;
      }
    }
  }
}

}  // namespace isa_avx512fp16
}  // namespace nn
