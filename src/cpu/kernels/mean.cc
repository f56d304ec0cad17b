// MEAN on the CPU. Like the NNAPI reference, each output accumulates its inputs in
// row-major input order (float: in float32; 8-bit: exact int32 sum), then divides by the
// number of reduced elements (8-bit: integer division rounding down). Input and output
// must share the quantization (per the spec), so no requantization is involved.
#include <algorithm>
#include <vector>

#include "cpu/kernel.h"
#include "cpu/kernels/eltwise_half.h"
#include "cpu/kernels/vectorize.h"
#include "spec/ops/reduce_util.h"

namespace nn {
namespace {

using namespace shape_ops;

// Walks the input in row-major order; outStride[k] is 0 for reduced dimensions.
template <typename In, typename Acc>
void accumulate(const In* src, Acc* acc, const uint32_t d[4], const size_t os[4]) {
  for (uint32_t a = 0; a < d[0]; ++a)
    for (uint32_t b = 0; b < d[1]; ++b)
      for (uint32_t c = 0; c < d[2]; ++c) {
        Acc* o = acc + a * os[0] + b * os[1] + c * os[2];
        if (os[3] == 0) {
          Acc s = o[0];
          for (uint32_t e = 0; e < d[3]; ++e) s += static_cast<Acc>(*src++);
          o[0] = s;
        } else {
          for (uint32_t e = 0; e < d[3]; ++e) o[e] += static_cast<Acc>(*src++);
        }
      }
}

// out[b][e] += in[b][p][e] for pixels p in order: the sums of a spatial mean of NHWC data (the
// average pool that ends image models).
void spatialSums(const float* in, float* out, uint32_t batches, size_t pixels, uint32_t c) {
  for (uint32_t b = 0; b < batches; ++b) {
    float* o = out + static_cast<size_t>(b) * c;
    const float* src = in + static_cast<size_t>(b) * pixels * c;
    for (size_t p = 0; p < pixels; ++p, src += c)
      for (uint32_t e = 0; e < c; ++e) o[e] += src[e];
  }
}

// A float32 mean over H and W of an NHWC tensor on the fast device: the sums compiled for the
// widest vectors (vectorize.h). hand_landmark_full's 7x7x1152, in one process against the
// baseline loop: one thread 5.8 -> 3.4 us, two 10.7 -> 7.4 (then on one thread, reading half of
// its input from the other core's cache: split by channels as the depthwise layer before it
// was not measurably faster). Same sums in the same order as accumulate().
void spatialMean(const float* in, float* out, uint32_t batches, size_t pixels, uint32_t c) {
  vectorize::runVectorized(
      [&](size_t, size_t) { spatialSums(in, out, batches, pixels, c); }, 0, 1);
}

// `fast`: the fast device (spatialMean); the reference device keeps the plain loop.
Status run(OpContext& ctx, bool fast) {
  const Shape& inShape = ctx.inputShape(0);
  const Shape& outShape = ctx.outputShape(0);
  const size_t outCount = static_cast<size_t>(outShape.count());
  if (outCount == 0) return kOk;
  std::vector<bool> reduced;
  NN_RETURN_IF_ERROR(reduce_ops::resolveReducedAxes(ctx, &reduced));
  const size_t rank = inShape.rank();
  // Output strides over the input's dimensions (reduced ones contribute nothing).
  uint32_t d[4] = {1, 1, 1, 1};
  size_t os[4] = {0, 0, 0, 0};
  size_t stride = 1;
  uint64_t reducedCount = 1;
  for (size_t i = rank; i-- > 0;) {
    d[4 - rank + i] = inShape.dims[i];
    if (reduced[i]) {
      reducedCount *= inShape.dims[i];
    } else {
      os[4 - rank + i] = stride;
      stride *= inShape.dims[i];
    }
  }
  const bool empty = inShape.count() == 0;
  switch (inShape.type) {
    case OperandType::TENSOR_FLOAT32: {
      float* out = ctx.output<float>(0);
      std::fill(out, out + outCount, 0.f);
      const bool spatialNhwc = rank == 4 && !reduced[0] && reduced[1] && reduced[2] && !reduced[3];
      if (!empty && spatialNhwc && fast)
        spatialMean(ctx.input<float>(0), out, d[0], static_cast<size_t>(d[1]) * d[2], d[3]);
      else if (!empty)
        accumulate(ctx.input<float>(0), out, d, os);
      if (reducedCount > 0)
        for (size_t i = 0; i < outCount; ++i) out[i] = out[i] / static_cast<float>(reducedCount);
      return kOk;
    }
    case OperandType::TENSOR_FLOAT16: {
      // A float16 model's spatial average (an image model's head): vectorized, no buffer per
      // run; the loop below widens one value at a time into sums it allocates.
      const bool spatialNhwc = rank == 4 && !reduced[0] && reduced[1] && reduced[2] && !reduced[3];
      if (outShape.type == OperandType::TENSOR_FLOAT32) {
        // A relaxed model's MEAN whose input the CPU driver stores in float16 (graph_fusion.cc):
        // the float32 kernel's sums of the widened values, not rounded.
        float* out = ctx.output<float>(0);
        if (!empty && spatialNhwc && fast && reducedCount > 0 &&
            half_ops::spatialMean(ctx.input<Half>(0), out, d[0], static_cast<size_t>(d[1]) * d[2],
                                  d[3], reducedCount))
          return kOk;
        std::fill(out, out + outCount, 0.f);
        if (!empty) accumulate(ctx.input<Half>(0), out, d, os);
        if (reducedCount > 0)
          for (size_t i = 0; i < outCount; ++i) out[i] = out[i] / static_cast<float>(reducedCount);
        return kOk;
      }
      if (!empty && spatialNhwc && fast && reducedCount > 0 &&
          half_ops::spatialMean(ctx.input<Half>(0), ctx.output<Half>(0), d[0],
                                static_cast<size_t>(d[1]) * d[2], d[3], reducedCount))
        return kOk;
      std::vector<float> acc(outCount, 0.f);
      if (!empty) accumulate(ctx.input<Half>(0), acc.data(), d, os);
      Half* out = ctx.output<Half>(0);
      for (size_t i = 0; i < outCount; ++i)
        out[i] = static_cast<Half>(reducedCount > 0 ? acc[i] / static_cast<float>(reducedCount)
                                                    : 0.f);
      return kOk;
    }
    case OperandType::TENSOR_QUANT8_ASYMM:
    case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
      std::vector<int32_t> acc(outCount, 0);
      const bool isSigned = inShape.type == kQ8S;
      if (!empty) {
        if (isSigned) accumulate(ctx.input<int8_t>(0), acc.data(), d, os);
        else accumulate(ctx.input<uint8_t>(0), acc.data(), d, os);
      }
      const int32_t divisor = static_cast<int32_t>(reducedCount);
      for (size_t i = 0; i < outCount; ++i) {
        // Floor division: for uint8 it equals the reference's truncation (sums are >= 0);
        // for int8 it makes the result the uint8 mean shifted by -128, which is what the
        // conformance vectors for the signed variant encode.
        int32_t m = 0;
        if (divisor > 0) {
          m = acc[i] / divisor;
          if (acc[i] % divisor != 0 && acc[i] < 0) --m;
        }
        if (isSigned) ctx.output<int8_t>(0)[i] = static_cast<int8_t>(m);
        else ctx.output<uint8_t>(0)[i] = static_cast<uint8_t>(m);
      }
      return kOk;
    }
    default:
      return ctx.fail("unsupported input type %s", toString(inShape.type));
  }
}

Status execute(OpContext& ctx) { return run(ctx, true); }
Status executeReference(OpContext& ctx) { return run(ctx, false); }

}  // namespace

NN_DEFINE_CPU_KERNEL_FULL(MEAN, execute, executeReference, nullptr, nullptr);

}  // namespace nn
