// The stem convolution of relaxed models (stem_half.h): the float16 kernel's driver
// (isa/stem_half_avx512fp16.cc), and the float32 im2col GEMM with a float16 output
// (isa/gemm_float_avx512.cc, convIm2colFloatRows with outputHalf).
#include "cpu/kernels/stem_half.h"

#include <algorithm>
#include <cstring>

#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/stem_half_isa.h"

namespace nn {
namespace conv {

bool halfStemShapePreferred(uint32_t outC, uint32_t inC, uint32_t filterH, uint32_t filterW,
                            int32_t dilationH, int32_t dilationW) {
  // As stemGemmPreferred. (A float16 GEMM after an im2col into float32 rows took 1.5-2.4x the
  // float32 kernel's time on the face detectors' stems: rounding each short row of k = 27 or
  // 75 values costs as much as its products.)
  return halfGemmAvailable() && convIsaKernels().im2colFloatRows != nullptr &&
         dilationH == 1 && dilationW == 1 && !(filterH == 1 && filterW == 1) && inC >= 1 &&
         inC <= 4 && outC >= 8 && filterH * filterW * inC <= 256;
}

bool halfStemPreferred(const OpContext& ctx, const Geometry& g) {
  return ctx.relaxed() && !g.p.nchw && ctx.inputType(0) == OperandType::TENSOR_FLOAT32 &&
         ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16 &&
         halfStemShapePreferred(g.outC, g.inC, g.filterH, g.filterW, g.p.dilationH,
                                g.p.dilationW) &&
         stemGemmPreferred(g);
}

void stemGemmHalfOut(const Geometry& g, const float* input, const PackedFloatWeights& w,
                     const float* bias, Half* output, ThreadPool* pool, KernelScratch& ks) {
  stemGemmFloat(g, input, w, bias, nullptr, pool, ks, reinterpret_cast<uint16_t*>(output));
}

bool halfStemKernelPreferred(const OpContext& ctx, const Geometry& g) {
  // One thread, interleaved in one process against the float32 im2col GEMM (with its float16
  // output where the graph pass stores one): face_detection_short_range's 5x5 stride 2 stem to
  // 24 channels (k = 75) 0.78x its time, face_detection_full_range's 3x3 to 32 (k = 27) 0.84x
  // (with the padded input copied whole in L2 first, 0.77x and 0.96x). With a float32 output
  // only from k = 48: the 3x3 stems to 24 channels of the hand models (k = 27, float32 output)
  // would gain little, and their relaxed outputs moved from float32 by 1.7% (hand_landmark_lite)
  // and 1.0% (full) on tests/tflite_e2e_test.cc's input with this kernel.
  const OperandType out = ctx.outputShape(0).type;
  const bool halfOut = out == OperandType::TENSOR_FLOAT16;
  return ctx.relaxed() && !g.p.nchw && ctx.inputType(0) == OperandType::TENSOR_FLOAT32 &&
         (halfOut || (out == OperandType::TENSOR_FLOAT32 &&
                      g.filterH * g.filterW * g.inC >= kHalfStemFloatOutMinK)) &&
         g.outC <= kStemHalfLanes &&
         halfStemShapePreferred(g.outC, g.inC, g.filterH, g.filterW, g.p.dilationH,
                                g.p.dilationW);
}

void packHalfStem(const float* filter, uint32_t n, uint32_t filterH, uint32_t filterW,
                  uint32_t channels, PackedHalfStem* out) {
  out->n = n;
  out->filterH = filterH;
  out->filterW = filterW;
  out->channels = channels;
  const size_t taps = static_cast<size_t>(filterH) * filterW * channels;
  out->w.assign(taps * kStemHalfLanes, 0);
  for (uint32_t o = 0; o < n && o < kStemHalfLanes; ++o)
    for (size_t t = 0; t < taps; ++t) {
      const Half h = static_cast<Half>(filter[o * taps + t]);
      std::memcpy(&out->w[t * kStemHalfLanes + o], &h, sizeof(uint16_t));
    }
}

void halfStemConv(const Geometry& g, const float* in, const PackedHalfStem& w, const float* bias,
                  Half* out, float* outF, ThreadPool* pool, KernelScratch& ks) {
  const uint32_t c = g.inC;
  alignas(64) float bias32[kStemHalfLanes] = {};
  if (bias != nullptr) std::memcpy(bias32, bias, sizeof(float) * g.outC);
  StemHalfArgs a{};
  a.inH = g.inH;
  a.inW = g.inW;
  a.channels = c;
  a.padTop = g.p.padTop;
  a.padLeft = g.p.padLeft;
  a.padW = (g.outW - 1) * g.p.strideW + g.filterW;
  a.outW = g.outW;
  a.n = g.outC;
  a.filterH = g.filterH;
  a.filterW = g.filterW;
  a.strideH = static_cast<uint32_t>(g.p.strideH);
  a.strideW = static_cast<uint32_t>(g.p.strideW);
  a.w = w.w.data();
  a.bias = bias32;
  activationRangeFloat(g.p.activation, &a.outputMin, &a.outputMax);
  const size_t imageIn = static_cast<size_t>(g.inH) * g.inW * c;
  const size_t imageOut = static_cast<size_t>(g.outH) * g.outW * g.outC;
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  runSlotted<uint32_t>(directPool(pool, g, g.filterH * g.filterW * c), ks, rows,
                       stemHalfScratchWords(a), [&](size_t begin, size_t end, uint32_t* scratch) {
    // Row ranges may span images.
    for (size_t r = begin; r < end;) {
      const size_t b = r / g.outH, r1 = std::min(end, (b + 1) * g.outH);
      StemHalfArgs ab = a;
      ab.image = in + b * imageIn;
      ab.out = out != nullptr ? reinterpret_cast<uint16_t*>(out) + b * imageOut : nullptr;
      ab.outF = out == nullptr ? outF + b * imageOut : nullptr;
      isa_avx512fp16::stemHalfRows(ab, static_cast<uint32_t>(r - b * g.outH),
                                   static_cast<uint32_t>(r1 - b * g.outH), scratch);
      r = r1;
    }
  });
}

}  // namespace conv
}  // namespace nn
