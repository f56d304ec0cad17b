// The driver of the weight-stationary float32 GEMM (isa/gemm_float_avx512.cc): which 1x1
// convolutions take it instead of XNNPACK, and how it is split over threads.
#include <algorithm>

#include "cpu/kernels/conv_dispatch.h"
#include "cpu/kernels/conv_fast.h"

namespace nn {
namespace conv {

bool panelGemmAvailable() { return convIsaKernels().gemmFloatPanels != nullptr; }

bool panelGemmPreferred(const Geometry& g) {
  if (!panelGemmAvailable()) return false;
  const Params& p = g.p;
  if (g.filterH != 1 || g.filterW != 1 || p.strideH != 1 || p.strideW != 1 || p.padTop != 0 ||
      p.padLeft != 0 || p.padBottom != 0 || p.padRight != 0)
    return false;
  // nnapi_bench_direct, one thread, on every 1x1 layer of pose_landmark_heavy/full,
  // hand_landmark_full/lite and face_detection_full_range: 0.53-0.94x XNNPACK's time (8 to 1632
  // output channels, 2x2 to 256x256 maps). 1-2 output channels stay with the narrow kernel.
  return !narrowConvPreferred(g);
}

void panelGemmFloat(uint32_t m, const float* a, size_t lda, const PackedFloatWeights& w,
                    const float* bias, int32_t activation, float* c, ThreadPool* pool) {
  GemmFloatArgs args{};
  args.m = m;
  args.n = w.n;
  args.k = w.k;
  args.lda = lda;
  args.a = a;
  args.packed = w.data.data();
  args.bias = bias;
  activationRangeFloat(activation, &args.outputMin, &args.outputMax);
  args.c = c;
  GemmFloatPanelsFn* run = convIsaKernels().gemmFloatPanels;
  const uint32_t tiles = (w.n + kConvTileN - 1) / kConvTileN;
  constexpr double kMinParallelMacs = 400000.0;  // as xnnpack_util.h
  const int threads = pool != nullptr ? pool->numThreads() : 1;
  if (threads <= 1 || static_cast<double>(m) * w.n * w.k < kMinParallelMacs) {
    run(args, 0, m, 0, tiles);
    return;
  }
  // Threads take whole weight tiles when these are full and divide evenly, or are many, and
  // the weights are the larger operand (m < n: each thread then reads only its share of the
  // weights and all of A); else row ranges in multiples of 8 rows (each thread reads its
  // share of A, mostly in its own cache since the producing operation split the same rows,
  // and all the weights). hand_landmark_lite, 2 threads: 14x14x288->64 took as long as on one
  // thread with tiles (each thread pulled all of A from the other core's cache).
  const size_t slots = static_cast<size_t>(threads);
  if (((w.n % kConvTileN == 0 && tiles % slots == 0) || tiles >= 4 * slots) && m < w.n) {
    runSlots(pool, tiles, std::min<size_t>(slots, tiles), [&](size_t b, size_t e, size_t) {
      run(args, 0, m, static_cast<uint32_t>(b), static_cast<uint32_t>(e));
    });
    return;
  }
  const size_t units = (m + 7) / 8;
  runSlots(pool, units, std::min(slots, units), [&](size_t b, size_t e, size_t) {
    run(args, static_cast<uint32_t>(b * 8), static_cast<uint32_t>(std::min<size_t>(m, e * 8)), 0,
        tiles);
  });
}

}  // namespace conv
}  // namespace nn
