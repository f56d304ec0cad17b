#include "cpu/kernels/eltwise_half.h"

#include <algorithm>

#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/isa/eltwise_half_isa.h"
#include "cpu/thread_pool.h"
#include "spec/ops/common.h"

namespace nn {
namespace half_ops {
namespace {

bool floatType(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

// The elementwise kernels' split (elementwise.h): not below 16K elements, 4K-element pieces.
constexpr size_t kParallelThreshold = 16384;
constexpr size_t kParallelGrain = 4096;

}  // namespace

bool available() { return conv::halfGemmAvailable(); }

bool addTakes(const OpContext& ctx) {
  if (ctx.type() != OperationType::ADD || ctx.numInputs() != 3 || !available()) return false;
  const Shape& a = ctx.inputShape(0);
  const Shape& b = ctx.inputShape(1);
  const Shape& o = ctx.outputShape(0);
  if (!floatType(a.type) || !floatType(b.type) || !floatType(o.type)) return false;
  const int halves = (a.type == OperandType::TENSOR_FLOAT16) + (b.type == OperandType::TENSOR_FLOAT16) +
                     (o.type == OperandType::TENSOR_FLOAT16);
  if (halves == 0 || (halves == 3 && !ctx.relaxed())) return false;
  return a.dims == o.dims && b.dims == o.dims;
}

void add(const OpContext& ctx, int32_t activation) {
  AddHalfArgs args{};
  const bool ah = ctx.inputType(0) == OperandType::TENSOR_FLOAT16;
  const bool bh = ctx.inputType(1) == OperandType::TENSOR_FLOAT16;
  const bool oh = ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  if (ah) args.ah = reinterpret_cast<const uint16_t*>(ctx.input<Half>(0));
  else args.af = ctx.input<float>(0);
  if (bh) args.bh = reinterpret_cast<const uint16_t*>(ctx.input<Half>(1));
  else args.bf = ctx.input<float>(1);
  if (oh) args.oh = reinterpret_cast<uint16_t*>(ctx.output<Half>(0));
  else args.of = ctx.output<float>(0);
  activationRangeFloat(activation, &args.outputMin, &args.outputMax);
  const size_t n = ctx.outputShape(0).count();
  ThreadPool* pool = ctx.threadPool();
  if (pool != nullptr && pool->numThreads() > 1 && n >= kParallelThreshold) {
    pool->parallelFor(n, kParallelGrain,
                      [&](size_t b, size_t e) { isa_avx512fp16::addHalf(args, b, e); });
  } else {
    isa_avx512fp16::addHalf(args, 0, n);
  }
}

bool maxPoolTakes(const OpContext& ctx, const pooling::PoolParams& p) {
  return available() && !p.nchw && ctx.inputType(0) == OperandType::TENSOR_FLOAT16 &&
         ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
}

void maxPool(const OpContext& ctx, const pooling::PoolParams& p, const pooling::PoolGeometry& g) {
  MaxPoolHalfArgs a{};
  a.inH = g.inH;
  a.inW = g.inW;
  a.channels = g.channels;
  a.outH = g.outH;
  a.outW = g.outW;
  a.filterH = static_cast<uint32_t>(p.filterH);
  a.filterW = static_cast<uint32_t>(p.filterW);
  a.strideH = p.strideH;
  a.strideW = p.strideW;
  a.padTop = p.padTop;
  a.padLeft = p.padLeft;
  a.in = reinterpret_cast<const uint16_t*>(ctx.input<Half>(0));
  a.out = reinterpret_cast<uint16_t*>(ctx.output<Half>(0));
  activationRangeFloat(p.activation, &a.outputMin, &a.outputMax);
  const size_t rows = static_cast<size_t>(g.batches) * g.outH;
  const size_t rowElems = static_cast<size_t>(g.outW) * g.channels * p.filterH * p.filterW;
  ThreadPool* pool = ctx.threadPool();
  if (pool != nullptr && pool->numThreads() > 1 && rows > 1 && rows * rowElems >= kParallelThreshold) {
    pool->parallelFor(rows, std::max<size_t>(1, kParallelGrain / std::max<size_t>(rowElems, 1)),
                      [&](size_t b, size_t e) {
                        isa_avx512fp16::maxPoolHalfRows(a, static_cast<uint32_t>(b),
                                                        static_cast<uint32_t>(e));
                      });
  } else {
    isa_avx512fp16::maxPoolHalfRows(a, 0, static_cast<uint32_t>(rows));
  }
}

namespace {
// The float16 or the float32 output (exactly one set).
bool spatialMeanInto(const Half* in, Half* out, float* outF, uint32_t batches, size_t pixels,
                     uint32_t channels, uint64_t count) {
  if (!available()) return false;
  SpatialMeanHalfArgs a{};
  a.in = reinterpret_cast<const uint16_t*>(in);
  a.out = reinterpret_cast<uint16_t*>(out);
  a.outF = outF;
  a.batches = batches;
  a.channels = channels;
  a.pixels = pixels;
  a.count = static_cast<float>(count);
  isa_avx512fp16::spatialMeanHalf(a);
  return true;
}
}  // namespace

bool spatialMean(const Half* in, Half* out, uint32_t batches, size_t pixels, uint32_t channels,
                 uint64_t count) {
  return spatialMeanInto(in, out, nullptr, batches, pixels, channels, count);
}

bool spatialMean(const Half* in, float* out, uint32_t batches, size_t pixels, uint32_t channels,
                 uint64_t count) {
  return spatialMeanInto(in, nullptr, out, batches, pixels, channels, count);
}

}  // namespace half_ops
}  // namespace nn
