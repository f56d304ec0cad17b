// The 1x1 CONV_2D + residual ADD pair (conv_add.h).
#include "cpu/kernels/conv_add.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include "cpu/kernels/conv_common.h"
#include "cpu/kernels/conv_fast.h"
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

// Float32 weights [k][nPad] and bias [nPad] (zero past n) for the float32 kernel.
template <typename W>
void packFloat(const W* weights, const float* bias, uint32_t n, uint32_t k, std::vector<float>* w,
               std::vector<float>* b) {
  const uint32_t nPad = (n + kConvAddFloatLanes - 1) / kConvAddFloatLanes * kConvAddFloatLanes;
  w->assign(static_cast<size_t>(k) * nPad, 0.0f);
  b->assign(nPad, 0.0f);
  for (uint32_t o = 0; o < n; ++o) {
    for (uint32_t j = 0; j < k; ++j)
      (*w)[static_cast<size_t>(j) * nPad + o] =
          static_cast<float>(weights[static_cast<size_t>(o) * k + j]);
    (*b)[o] = bias != nullptr ? bias[o] : 0.0f;
  }
}

template <typename Args, typename Rows>
void run(size_t pixels, const Args& a, ThreadPool* pool, Rows rows) {
  if (pool != nullptr && pool->numThreads() > 1 && pixels * a.n >= kParallelOutputs) {
    pool->parallelFor(pixels, kGrainPixels, [&](size_t b, size_t e) { rows(a, b, e); });
  } else {
    rows(a, 0, pixels);
  }
}

enum class Form { kNone, kHalf, kFloat };

// Which kernel takes the pair: float16 in a relaxed model with AVX512-FP16; else float32 with
// AVX-512 where the CONV_2D alone would run on the panel GEMM (whose sums the float32 kernel
// repeats) and every tensor is float32 (the filter may be float16: widened exactly, as the
// CONV_2D alone widens it).
Form describe(const OpContext& conv, const OpContext& add, conv::Geometry* g, int* shortcut) {
  if (conv.type() != OperationType::CONV_2D || add.type() != OperationType::ADD ||
      conv.numInputs() < 7 || add.numInputs() != 3 || conv.numOutputs() != 1 ||
      add.numOutputs() != 1)
    return Form::kNone;
  *shortcut = conv::shortcutInput(conv, add);
  if (*shortcut < 0) return Form::kNone;
  const bool half = conv.relaxed() && conv::halfGemmAvailable();
  if (!half && !conv::panelGemmAvailable()) return Form::kNone;
  if (!floatType(conv.inputType(0)) || !floatType(conv.inputType(1)) ||
      conv.inputType(2) != OperandType::TENSOR_FLOAT32 || !conv::constantInput(conv, 1) ||
      !conv::constantInput(conv, 2) || !floatType(add.inputType(0)) ||
      !floatType(add.inputType(1)) || !floatType(add.outputShape(0).type) ||
      !conv::constantInput(add, 2) || !add.hasInputData(2))
    return Form::kNone;
  if (!half && (conv.inputType(0) != OperandType::TENSOR_FLOAT32 ||
                add.inputType(0) != OperandType::TENSOR_FLOAT32 ||
                add.inputType(1) != OperandType::TENSOR_FLOAT32 ||
                add.outputShape(0).type != OperandType::TENSOR_FLOAT32))
    return Form::kNone;
  if (conv::resolveGeometry(conv, false, g) != kOk) return Form::kNone;
  const conv::Params& p = g->p;
  if (p.nchw || g->filterH != 1 || g->filterW != 1 || p.strideW != 1 || p.strideH != 1 ||
      p.padLeft != 0 || p.padRight != 0 || p.padTop != 0 || p.padBottom != 0 || g->inC == 0 ||
      g->inC > kConvAddMaxK || g->outC == 0 || g->outC > kConvAddMaxN)
    return Form::kNone;
  if (!half && (g->inC > kConvAddFloatMaxK || !conv::panelGemmPreferred(*g))) return Form::kNone;
  const Dims& d = add.outputShape(0).dims;
  const bool shapes = d.size() == 4 && add.inputShape(0).dims == d &&
                      add.inputShape(1).dims == d && d[0] == g->batches && d[1] == g->outH &&
                      d[2] == g->outW && d[3] == g->outC;
  if (!shapes) return Form::kNone;
  return half ? Form::kHalf : Form::kFloat;
}

}  // namespace

struct ConvAddPlan {
  bool half = true;
  Packed packed;                     // the float16 kernel's
  std::vector<float> wF, biasF;      // the float32 kernel's
  size_t pixels = 0;
  uint32_t n = 0, k = 0;
  uint32_t residualInput = 0;  // the ADD input that is not the convolution's output
  float convMin = 0, convMax = 0, outMin = 0, outMax = 0;
};

std::shared_ptr<const ConvAddPlan> prepareConvAdd(const OpContext& conv, const OpContext& add) {
  conv::Geometry g;
  int shortcut = -1;
  const Form form = describe(conv, add, &g, &shortcut);
  if (form == Form::kNone) return nullptr;
  auto plan = std::make_shared<ConvAddPlan>();
  const float* bias = conv.input<float>(2);
  plan->half = form == Form::kHalf;
  const bool halfFilter = conv.inputType(1) == OperandType::TENSOR_FLOAT16;
  if (plan->half && halfFilter)
    pack(conv.input<Half>(1), bias, g.outC, g.inC, &plan->packed);
  else if (plan->half)
    pack(conv.input<float>(1), bias, g.outC, g.inC, &plan->packed);
  else if (halfFilter)
    packFloat(conv.input<Half>(1), bias, g.outC, g.inC, &plan->wF, &plan->biasF);
  else
    packFloat(conv.input<float>(1), bias, g.outC, g.inC, &plan->wF, &plan->biasF);
  plan->pixels = static_cast<size_t>(g.batches) * g.outH * g.outW;
  plan->n = g.outC;
  plan->k = g.inC;
  plan->residualInput = static_cast<uint32_t>(shortcut);
  activationRangeFloat(g.p.activation, &plan->convMin, &plan->convMax);
  activationRangeFloat(add.scalar<int32_t>(2), &plan->outMin, &plan->outMax);
  return plan;
}

Status runConvAdd(const ConvAddPlan& plan, OpContext& conv, OpContext& add) {
  if (plan.pixels == 0) return kOk;
  if (!plan.half) {
    ConvAddFloatArgs a{};
    a.n = plan.n;
    a.k = plan.k;
    a.x = conv.input<float>(0);
    a.w = plan.wF.data();
    a.bias = plan.biasF.data();
    a.convMin = plan.convMin;
    a.convMax = plan.convMax;
    a.res = add.input<float>(plan.residualInput);
    a.outMin = plan.outMin;
    a.outMax = plan.outMax;
    a.out = add.output<float>(0);
    run(plan.pixels, a, add.threadPool(), isa_avx512::convAddFloatRows);
    gConvAddRuns.fetch_add(1, std::memory_order_relaxed);
    return kOk;
  }
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
  run(plan.pixels, a, add.threadPool(), isa_avx512fp16::convAddHalfRows);
  gConvAddRuns.fetch_add(1, std::memory_order_relaxed);
  return kOk;
}

bool convAddIsFloat32(const ConvAddPlan& plan) { return !plan.half; }

uint64_t convAddRuns() { return gConvAddRuns.load(std::memory_order_relaxed); }

namespace conv {
void convAddHalf(size_t pixels, const ConvAddHalfArgs& shape, const float* weights,
                 const float* bias, ThreadPool* pool) {
  auto packed = std::make_unique<Packed>();
  pack(weights, bias, shape.n, shape.k, packed.get());
  ConvAddHalfArgs a = shape;
  a.w = packed->w;
  a.bias = packed->bias;
  run(pixels, a, pool, isa_avx512fp16::convAddHalfRows);
}
}  // namespace conv

}  // namespace nn
