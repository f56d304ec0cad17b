// The 1x1 CONV_2D + residual ADD pair (conv_add_half.h).
#include "cpu/kernels/conv_add_half.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/thread_pool.h"
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace {

std::atomic<uint64_t> gConvAddRuns{0};

// The elementwise kernels' split (elementwise.h): not below 16K outputs, pieces of 512 pixels.
constexpr size_t kParallelOutputs = 16384;
constexpr size_t kGrainPixels = 512;

bool floatType(OperandType t) {
  return t == OperandType::TENSOR_FLOAT32 || t == OperandType::TENSOR_FLOAT16;
}

uint16_t halfBits(float f) {
  const Half h = static_cast<Half>(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

// Float16 weights [k][nPad] and bias [nPad] (zero past n): at most kConvAddMaxK *
// kConvAddMaxN values.
struct Packed {
  alignas(64) uint16_t w[kConvAddMaxK * kConvAddMaxN];
  alignas(64) uint16_t bias[kConvAddMaxN];
};

template <typename W>
void pack(const W* weights, const float* bias, uint32_t n, uint32_t k, Packed* p) {
  const uint32_t nPad = (n + kConvAddLanes - 1) / kConvAddLanes * kConvAddLanes;
  std::memset(p, 0, sizeof(Packed));
  for (uint32_t o = 0; o < n; ++o) {
    for (uint32_t j = 0; j < k; ++j)
      p->w[j * nPad + o] = halfBits(static_cast<float>(weights[static_cast<size_t>(o) * k + j]));
    p->bias[o] = bias != nullptr ? halfBits(bias[o]) : 0;
  }
}

void run(size_t pixels, const ConvAddHalfArgs& a, ThreadPool* pool) {
  if (pool != nullptr && pool->numThreads() > 1 && pixels * a.n >= kParallelOutputs) {
    pool->parallelFor(pixels, kGrainPixels,
                      [&](size_t b, size_t e) { isa_avx512fp16::convAddHalfRows(a, b, e); });
  } else {
    isa_avx512fp16::convAddHalfRows(a, 0, pixels);
  }
}

// Which ADD input is the CONV_2D's output, or -1.
int convInput(const OpContext& conv, const OpContext& add) {
  const uint32_t t = conv.operation().outputs[0];
  const Operation& op = add.operation();
  if (op.inputs[0] == t && op.inputs[1] != t) return 0;
  if (op.inputs[1] == t && op.inputs[0] != t) return 1;
  return -1;
}

bool describe(const OpContext& conv, const OpContext& add, conv::Geometry* g, int* at) {
  if (!conv::halfGemmAvailable() || !conv.relaxed() || conv.type() != OperationType::CONV_2D ||
      add.type() != OperationType::ADD || conv.numInputs() < 7 || add.numInputs() != 3 ||
      conv.numOutputs() != 1 || add.numOutputs() != 1)
    return false;
  *at = convInput(conv, add);
  if (*at < 0) return false;
  if (!floatType(conv.inputType(0)) || !floatType(conv.inputType(1)) ||
      conv.inputType(2) != OperandType::TENSOR_FLOAT32 || !conv::constantInput(conv, 1) ||
      !conv::constantInput(conv, 2) || !floatType(add.inputType(0)) ||
      !floatType(add.inputType(1)) || !floatType(add.outputShape(0).type) ||
      !conv::constantInput(add, 2) || !add.hasInputData(2))
    return false;
  if (conv::resolveGeometry(conv, false, g) != kOk) return false;
  const conv::Params& p = g->p;
  if (p.nchw || g->filterH != 1 || g->filterW != 1 || p.strideW != 1 || p.strideH != 1 ||
      p.padLeft != 0 || p.padRight != 0 || p.padTop != 0 || p.padBottom != 0 || g->inC == 0 ||
      g->inC > kConvAddMaxK || g->outC == 0 || g->outC > kConvAddMaxN)
    return false;
  const Dims& d = add.outputShape(0).dims;
  return d.size() == 4 && add.inputShape(0).dims == d && add.inputShape(1).dims == d &&
         d[0] == g->batches && d[1] == g->outH && d[2] == g->outW && d[3] == g->outC;
}

}  // namespace

struct ConvAddPlan {
  Packed packed;
  size_t pixels = 0;
  uint32_t n = 0, k = 0;
  uint32_t residualInput = 0;  // the ADD input that is not the convolution's output
  float convMin = 0, convMax = 0, outMin = 0, outMax = 0;
};

std::shared_ptr<const ConvAddPlan> prepareConvAdd(const OpContext& conv, const OpContext& add) {
  conv::Geometry g;
  int at = -1;
  if (!describe(conv, add, &g, &at)) return nullptr;
  auto plan = std::make_shared<ConvAddPlan>();
  const float* bias = conv.input<float>(2);
  if (conv.inputType(1) == OperandType::TENSOR_FLOAT16)
    pack(conv.input<Half>(1), bias, g.outC, g.inC, &plan->packed);
  else
    pack(conv.input<float>(1), bias, g.outC, g.inC, &plan->packed);
  plan->pixels = static_cast<size_t>(g.batches) * g.outH * g.outW;
  plan->n = g.outC;
  plan->k = g.inC;
  plan->residualInput = at == 0 ? 1 : 0;
  activationRangeFloat(g.p.activation, &plan->convMin, &plan->convMax);
  activationRangeFloat(add.scalar<int32_t>(2), &plan->outMin, &plan->outMax);
  return plan;
}

Status runConvAdd(const ConvAddPlan& plan, OpContext& conv, OpContext& add) {
  if (plan.pixels == 0) return kOk;
  ConvAddHalfArgs a{};
  a.n = plan.n;
  a.k = plan.k;
  if (conv.inputType(0) == OperandType::TENSOR_FLOAT16)
    a.xh = reinterpret_cast<const uint16_t*>(conv.input<Half>(0));
  else
    a.xf = conv.input<float>(0);
  a.w = plan.packed.w;
  a.bias = plan.packed.bias;
  a.convMin = plan.convMin;
  a.convMax = plan.convMax;
  const uint32_t res = plan.residualInput;
  if (add.inputType(res) == OperandType::TENSOR_FLOAT16)
    a.rh = reinterpret_cast<const uint16_t*>(add.input<Half>(res));
  else
    a.rf = add.input<float>(res);
  a.outMin = plan.outMin;
  a.outMax = plan.outMax;
  if (add.outputShape(0).type == OperandType::TENSOR_FLOAT16)
    a.oh = reinterpret_cast<uint16_t*>(add.output<Half>(0));
  else
    a.of = add.output<float>(0);
  run(plan.pixels, a, add.threadPool());
  gConvAddRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

uint64_t convAddRuns() { return gConvAddRuns.load(std::memory_order_relaxed); }

namespace conv {
void convAddHalf(size_t pixels, const ConvAddHalfArgs& shape, const float* weights,
                 const float* bias, ThreadPool* pool) {
  auto packed = std::make_unique<Packed>();
  pack(weights, bias, shape.n, shape.k, packed.get());
  ConvAddHalfArgs a = shape;
  a.w = packed->w;
  a.bias = packed->bias;
  run(pixels, a, pool);
}
}  // namespace conv

}  // namespace nn
