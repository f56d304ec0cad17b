// Which float32 convolutions the AVX-512 direct kernels (isa/conv_direct_avx512.cc) take
// instead of XNNPACK, and the driver of the narrow CONV_2D kernel. The shape rules follow
// measurements (bench/direct_bench.cc: each kernel against XNNPACK on the MediaPipe models'
// layers, same process); a shape is taken only where the direct kernel was faster.
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {

// Measured (1 thread, 3x3 and 5x5, stride 1 and 2, 8 to 1152 channels, 7x7 to 256x256):
// 0.17-0.95x XNNPACK's time. Other windows keep XNNPACK (not measured).
bool directDepthwisePreferred(const Geometry& g) {
  if (convIsaKernels().depthwiseFloatRowsDirect == nullptr) return false;
  const auto measured = [](uint32_t k) { return k == 3 || k == 5; };
  return g.p.depthMultiplier == 1 && g.p.dilationH == 1 && g.p.dilationW == 1 &&
         g.p.strideH <= 2 && g.p.strideW <= 2 && measured(g.filterH) && measured(g.filterW);
}

bool narrowConvAvailable(const Geometry& g) {
  return convIsaKernels().narrowConvFloatRows != nullptr && g.p.dilationH == 1 &&
         g.p.dilationW == 1;
}

bool narrowConvPreferred(const Geometry& g) {
  if (!narrowConvAvailable(g)) return false;
  // Each output value reduces filterW * inC lanes per filter row, and XNNPACK's 16-wide output
  // tiles stay mostly empty. Measured: 1-2 output channels 0.1-0.9x XNNPACK's time (8 to 288
  // input channels, 1x1 to 3x3); 4 output channels about 1x, 8 channels 1.8x.
  return g.outC <= 2 && g.filterW * g.inC >= 8;
}

ThreadPool* directPool(ThreadPool* pool, const Geometry& g, uint32_t macsPerOutput) {
  constexpr double kMinParallelMacs = 400000.0;  // as xnnpack_util.h
  const double macs = static_cast<double>(g.batches) * g.outH * g.outW * g.outC * macsPerOutput;
  return macs >= kMinParallelMacs ? pool : nullptr;
}

void fastNarrowConvFloat(const Geometry& g, const float* input, const float* filter,
                         const float* bias, float* output, ThreadPool* pool, KernelScratch& ks) {
  ConvDirectFloatArgs a{};
  setFloatArgs(g, input, filter, bias, output, &a);
  a.outC = g.outC;
  runFloatRows(convIsaKernels().narrowConvFloatRows, a, g,
               directPool(pool, g, g.filterH * g.filterW * g.inC), ks);
}

}  // namespace conv
}  // namespace nn
