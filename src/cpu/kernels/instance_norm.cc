// INSTANCE_NORMALIZATION kernel (API level 29): normalizes every (batch, channel) plane of a
// 4-D tensor to zero mean and unit variance over its spatial positions, then applies the
// scalar gamma and beta. Statistics are accumulated in double (two passes) so float16 and
// float32 results are as close to the exact value as their storage allows.
#include <cmath>

#include "cpu/kernel.h"
#include "spec/ops/detection.h"
#include "spec/ops/shape_util.h"

namespace nn {
namespace {

using namespace detection;  // NOLINT: type names and floatScalar

template <typename T>
void instanceNorm(const T* in, T* out, const shape_ops::Image4& d, float gamma, float beta,
                  float epsilon) {
  const size_t plane = static_cast<size_t>(d.h) * d.w;
  for (uint32_t n = 0; n < d.n; ++n) {
    for (uint32_t c = 0; c < d.c; ++c) {
      const size_t base = n * d.sn + c * d.sc;
      auto index = [&](size_t i) { return base + (i / d.w) * d.sh + (i % d.w) * d.sw; };
      double sum = 0;
      for (size_t i = 0; i < plane; ++i) sum += static_cast<double>(in[index(i)]);
      const double mean = sum / static_cast<double>(plane);
      double sq = 0;
      for (size_t i = 0; i < plane; ++i) {
        const double x = static_cast<double>(in[index(i)]) - mean;
        sq += x * x;
      }
      const double var = sq / static_cast<double>(plane);
      const double scale = static_cast<double>(gamma) / std::sqrt(var + epsilon);
      for (size_t i = 0; i < plane; ++i) {
        const size_t at = index(i);
        out[at] = static_cast<T>(static_cast<float>(
            (static_cast<double>(in[at]) - mean) * scale + static_cast<double>(beta)));
      }
    }
  }
}

Status execute(OpContext& ctx) {
  const Shape& shape = ctx.inputShape(0);
  if (shape.count() == 0) return kOk;
  const bool nchw = ctx.scalar<uint8_t>(4) != 0;
  const shape_ops::Image4 d = shape_ops::image4(shape.dims, nchw);
  const float gamma = floatScalar(ctx, 1), beta = floatScalar(ctx, 2), eps = floatScalar(ctx, 3);
  if (shape.type == kF16)
    instanceNorm(ctx.input<Half>(0), ctx.output<Half>(0), d, gamma, beta, eps);
  else
    instanceNorm(ctx.input<float>(0), ctx.output<float>(0), d, gamma, beta, eps);
  return kOk;
}

}  // namespace

NN_DEFINE_CPU_KERNEL(INSTANCE_NORMALIZATION, execute);

}  // namespace nn
