// The stem convolution with a float16 output (stem_half.h) on the float32 im2col GEMM
// (isa/gemm_float_avx512.cc, convIm2colFloatRows with outputHalf).
#include "cpu/kernels/stem_half.h"

#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/gemm_half.h"

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
  ConvIm2colFloatArgs a{};
  setFloatArgs(g, input, nullptr, bias, nullptr, &a.conv);
  a.conv.outC = g.outC;
  a.packed = w.data.data();
  a.outputHalf = reinterpret_cast<uint16_t*>(output);
  ConvIm2colFloatRowsFn* rows = convIsaKernels().im2colFloatRows;
  runSlotted<float>(directPool(pool, g, g.filterH * g.filterW * g.inC), ks,
                    static_cast<size_t>(g.batches) * g.outH,
                    static_cast<size_t>(g.outW) * (w.k + g.outC),
                    [&](size_t begin, size_t end, float* panel) { rows(a, begin, end, panel); });
}

}  // namespace conv
}  // namespace nn
