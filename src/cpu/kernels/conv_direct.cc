// Which float32 convolutions the AVX-512 direct kernels (isa/conv_direct_avx512.cc) take
// instead of XNNPACK, and the driver of the narrow CONV_2D kernel. The shape rules follow
// measurements (bench/direct_bench.cc: each kernel against XNNPACK on the MediaPipe models'
// layers, same process); a shape is taken only where the direct kernel was faster.
#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

#include <algorithm>

namespace nn {
namespace conv {

// From nnapi_bench_direct (1 thread; pose, hand and MobileNet v1 layers). 5x5: 0.3-0.65x
// XNNPACK's time from 8x8 up (7x7x1152: about 1x). 3x3 stride 1: 0.2-0.8x with up to 192
// channels on maps of 56 and more, 0.92x at 28x28x256; with many channels on a small map
// XNNPACK's one-pixel-at-a-time order is as fast (14x14x512 1.0x, 7x7x1024 1-1.2x). 3x3 stride
// 2: 0.5-0.9x up to 32 channels, 1-1.7x with 128 channels and more; with 64 channels 0.5-0.9x
// on the AMD machines measured first but 1.10-1.18x on a Sapphire Rapids core (112x112x64 and
// 130x130x64), so XNNPACK keeps those.
bool directDepthwisePreferred(const Geometry& g) {
  if (convIsaKernels().depthwiseFloatRowsDirect == nullptr) return false;
  if (g.p.depthMultiplier != 1 || g.p.dilationH != 1 || g.p.dilationW != 1) return false;
  if (smallMapDepthwisePreferred(g)) return true;
  if (g.filterH == 5 && g.filterW == 5 && g.p.strideH <= 2 && g.p.strideW <= 2)
    return g.outW >= 8;
  if (g.filterH != 3 || g.filterW != 3) return false;
  if (g.p.strideH == 1 && g.p.strideW == 1) return g.inC <= 96 || g.outW >= 28;
  if (g.p.strideH == 2 && g.p.strideW == 2) return g.inC <= 32;
  return false;
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

// With 2 threads the surrounding convolutions and ADDs split their rows, so a depthwise kept on
// one thread first pulls the other thread's half of its input from that core's cache
// (face_detection_short_range, float32: 16x16x64-80 and 64x64x28 stride 2 took longer on 2
// threads than on 1; relaxed float16 3x3, 2 threads against 1 while these kept to one thread
// below 400K multiply-accumulates: 32x32x32-36 1.15-1.5x, 16x16x64-88 1.3-1.7x, 64x64x28 and
// 32x32x42 stride 2 1.25-1.5x; split: 0.7-0.93x, 16x16x64-80 1.1-1.4x (0.3-0.7 us less than
// kept on one thread). Below 16K elements the hand-off costs more than it saves: 8x8x96 split
// took 2.9x the one-thread time).
ThreadPool* depthwisePool(ThreadPool* pool, const Geometry& g) {
  constexpr double kMinParallelElements = 16384.0;
  const double outputs = static_cast<double>(g.batches) * g.outH * g.outW * g.outC;
  const double inputs = static_cast<double>(g.batches) * g.inH * g.inW * g.inC;
  return std::max(outputs, inputs) >= kMinParallelElements ? pool : nullptr;
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
