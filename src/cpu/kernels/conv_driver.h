// What the operations of the convolution family (CONV_2D, DEPTHWISE_CONV_2D, GROUPED_CONV_2D,
// TRANSPOSE_CONV_2D, FULLY_CONNECTED) do alike around their kernels, written once: resolving
// the geometry, NHWC copies of NCHW operands, the float32 / float16 / quant8 dispatch, float16
// as widened float32, XNNPACK with the portable fallback, the per-execution scratch, the quant8
// requantization parameters, and what init prepares. An operation's kernel file states only
// what differs, as an OpKernels table, and registers init<K>, execute<K> and
// executeReference<K> for it (the fast and the reference device keep separate entry points).
//
// Prepared state (built by init) is read-only during execution; everything a computation
// writes lives in the execution's scratch (ctx.scratchAs), so concurrent executions of one
// compilation share nothing mutable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "cpu/kernel.h"
#include "cpu/kernels/conv_common.h"

namespace nn {
namespace conv {

// What the drivers need to know about an operation's data besides its own geometry type.
struct DataLayout {
  const Geometry* spatial;  // 4-D operands (NHWC or NCHW); null: FULLY_CONNECTED's flat ones
  int32_t activation;       // the fused activation, for the quant8 requantization parameters
  uint32_t outChannels;
};
inline DataLayout dataLayout(const Geometry& g) { return {&g, g.p.activation, g.outC}; }
inline DataLayout dataLayout(const GroupedGeometry& gg) { return dataLayout(gg.g); }
inline DataLayout dataLayout(const FcShape& s) { return {nullptr, s.activation, s.units}; }

// Reads an operation's geometry from its operands and scalars, checking every shape rule.
template <typename Geo>
using ResolveFn = Status (*)(const ShapeContext&, Geo*);

// CONV_2D's (depthwise = false) and DEPTHWISE_CONV_2D's as a ResolveFn.
template <bool depthwise>
Status resolveWindowGeometry(const ShapeContext& ctx, Geometry* g) {
  return resolveGeometry(ctx, depthwise, g);
}

// The skeleton of both devices: with NHWC views of input 0 / output 0, the kernel of input 0's
// type: f32(const float*, float*), f16(const Half*, Half*), or quant(const QuantParams&,
// const void*, void*) for both 8-bit types, with the parameters init prepared
// (`preparedQuant`) or, when it did not, computed now.
template <typename F32, typename F16, typename Quant>
Status runByType(OpContext& ctx, const DataLayout& d, ConvScratch& sc,
                 const QuantParams* preparedQuant, const F32& f32, const F16& f16,
                 const Quant& quant) {
  return withNhwcBuffers(ctx, d.spatial, sc, [&](const void* in, void* out) -> Status {
    switch (ctx.inputType(0)) {
      case OperandType::TENSOR_FLOAT32:
        f32(static_cast<const float*>(in), static_cast<float*>(out));
        return kOk;
      case OperandType::TENSOR_FLOAT16:
        f16(static_cast<const Half*>(in), static_cast<Half*>(out));
        return kOk;
      case OperandType::TENSOR_QUANT8_ASYMM:
      case OperandType::TENSOR_QUANT8_ASYMM_SIGNED: {
        QuantParams local;
        const QuantParams* q = nullptr;
        NN_RETURN_IF_ERROR(
            cachedQuantParams(ctx, d.activation, d.outChannels, preparedQuant, &local, &q));
        quant(*q, in, out);
        return kOk;
      }
      default:
        return ctx.fail("unsupported input type %s", toString(ctx.inputType(0)));
    }
  });
}

// ---- reference device ---------------------------------------------------------------------

// An operation's reference kernels (conv_reference.h: NHWC, filter input 1, bias input 2),
// one per data / filter type pair.
template <typename Geo>
struct ReferenceKernels {
  void (*f32)(const Geo&, const float* in, const float* filter, const float* bias, float* out);
  void (*u8)(const Geo&, const QuantParams&, const uint8_t* in, const uint8_t* filter,
             const int32_t* bias, uint8_t* out);
  // uint8 data with a TENSOR_QUANT8_SYMM_PER_CHANNEL filter (validation lets only the 4-D
  // convolutions have one).
  void (*u8PerChannel)(const Geo&, const QuantParams&, const uint8_t* in, const int8_t* filter,
                       const int32_t* bias, uint8_t* out);
  // int8 data: the filter is int8 too (signed, or per-channel).
  void (*s8)(const Geo&, const QuantParams&, const int8_t* in, const int8_t* filter,
             const int32_t* bias, int8_t* out);
};

// The reference device keeps no prepared state: everything is computed per computation.
template <typename Geo>
Status runReference(OpContext& ctx, ResolveFn<Geo> resolve, const ReferenceKernels<Geo>& k) {
  Geo geo;
  NN_RETURN_IF_ERROR(resolve(ctx, &geo));
  if (ctx.outputShape(0).count() == 0) return kOk;
  ConvScratch fallback;
  ConvScratch& sc = scratchOr(ctx, fallback);
  return runByType(
      ctx, dataLayout(geo), sc, /*preparedQuant=*/nullptr,
      [&](const float* in, float* out) {
        k.f32(geo, in, ctx.input<float>(1), ctx.input<float>(2), out);
      },
      [&](const Half* in, Half* out) {
        const float* filter = widenInput(ctx, 1, sc.wideFilter);
        widenedFloat16(ctx, sc, in, out,
                       [&](const float* wideIn, const float* bias, float* wideOut) {
                         k.f32(geo, wideIn, filter, bias, wideOut);
                       });
      },
      [&](const QuantParams& q, const void* in, void* out) {
        const int32_t* bias = ctx.input<int32_t>(2);
        if (signedData(ctx)) {
          k.s8(geo, q, static_cast<const int8_t*>(in), ctx.input<int8_t>(1), bias,
               static_cast<int8_t*>(out));
        } else if (ctx.inputType(1) == OperandType::TENSOR_QUANT8_SYMM_PER_CHANNEL) {
          k.u8PerChannel(geo, q, static_cast<const uint8_t*>(in), ctx.input<int8_t>(1), bias,
                         static_cast<uint8_t*>(out));
        } else {
          k.u8(geo, q, static_cast<const uint8_t*>(in), ctx.input<uint8_t>(1), bias,
               static_cast<uint8_t*>(out));
        }
      });
}

// ---- fast device --------------------------------------------------------------------------

// What every operation's init prepares besides its weights; its State derives from this.
struct PreparedConv : public OpState {
  QuantParams quant;  // quant8: the requantization parameters, when init could compute them
  bool quantReady = false;
  // float32 with constant filter and bias, and XNNPACK takes the configuration: each execution
  // creates its operator (packing the weights) on its first computation.
  bool useXnnpack = false;
};

// float32 data with constant float32 filter and bias: what XNNPACK needs to pack the weights
// itself. (A float16 filter with float32 data, which only the driver's fusion makes, goes to the
// packed GEMM, which widens it while packing.)
inline bool xnnpackCandidate(const OpContext& ctx) {
  return ctx.inputType(0) == OperandType::TENSOR_FLOAT32 &&
         ctx.inputType(1) == OperandType::TENSOR_FLOAT32 && constantInput(ctx, 1) &&
         constantInput(ctx, 2);
}

// What an operation of the family states. `State` is what init builds (a PreparedConv),
// `Scratch` its per-execution scratch (an XnnScratch).
template <typename GeoT, typename StateT, typename ScratchT>
struct OpKernels {
  using Geo = GeoT;
  using State = StateT;
  using Scratch = ScratchT;

  ResolveFn<Geo> resolve;
  const ReferenceKernels<Geo>* reference;  // the reference device's (conv_reference.h)

  // Compilation (init<K>; FULLY_CONNECTED has its own init and leaves these null). Whether
  // XNNPACK takes the geometry (asked for float32 with constant filter and bias only):
  bool (*xnnpackSupported)(const Geo&);
  // and what a constant filter is prepared into: quant8 always; float16, and float32 when
  // XNNPACK does not take it (it packs its own).
  void (*prepareQuantFilter)(OpContext&, const Geo&, State&);
  void (*prepareFloatFilter)(OpContext&, const Geo&, State&);
  // Anything more once the requantization parameters are known; null: nothing.
  void (*prepareQuant)(const Geo&, State&);

  // Execution on the fast device. Creates when needed and runs this execution's XNNPACK operator
  // (sc.xnn) on float32 NHWC data; false with *error set when it cannot.
  bool (*xnnpack)(OpContext&, const Geo&, Scratch&, const float* in, float* out,
                  std::string* error);
  // The portable float32 kernel; float16 runs it on widened copies (`bias` is then widened).
  void (*portableFloat)(OpContext&, const Geo&, const State&, Scratch&, const float* in,
                        const float* bias, float* out);
  // Both 8-bit types (the kernel tells them apart with signedData(ctx)).
  void (*quant)(OpContext&, const Geo&, const State&, Scratch&, const QuantParams&,
                const void* in, void* out);
  // Float16 data in or out on the fast device (null: none): runs the operation and returns true
  // when it has a kernel for the form. Besides TENSOR_FLOAT16 models, the CPU driver's graph
  // pass makes a form of its own (graph_fusion.h): float16 temporaries around CONV_2D /
  // DEPTHWISE_CONV_2D of relaxed models whose filter and bias stay float32, and whose input and
  // output types may differ; what this does not take, runDriverHalfForm runs widened.
  bool (*halfData)(OpContext&, const Geo&, const State&, Scratch&) = nullptr;
};

// The graph pass's float16 form (see OpKernels::halfData): float16 data on one or both sides
// with a float32 bias, or different input and output types.
inline bool driverHalfForm(const OpContext& ctx) {
  const OperandType in = ctx.inputType(0), out = ctx.outputShape(0).type;
  if (in != OperandType::TENSOR_FLOAT16 && out != OperandType::TENSOR_FLOAT16) return false;
  return in != out || (ctx.numInputs() > 2 && ctx.inputType(2) == OperandType::TENSOR_FLOAT32);
}

// The driver's float16 form on the portable float32 kernel: float16 sides widened into
// (and narrowed from) float32 copies. NHWC only (the graph pass makes no other).
template <typename Geo, typename State, typename Scratch>
Status runDriverHalfForm(OpContext& ctx, const OpKernels<Geo, State, Scratch>& k, const Geo& geo,
                         const State& st, Scratch& sc) {
  const DataLayout d = dataLayout(geo);
  if (d.spatial != nullptr && d.spatial->p.nchw)
    return ctx.fail("float16 storage of an NCHW operand");
  const size_t inCount = ctx.inputShape(0).count();
  const size_t outCount = ctx.outputShape(0).count();
  const bool halfIn = ctx.inputType(0) == OperandType::TENSOR_FLOAT16;
  const bool halfOut = ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16;
  const float* in = ctx.input<float>(0);
  if (halfIn) {
    float* wide = sc.wideInput.template get<float>(inCount);
    halfToFloat(ctx.input<Half>(0), wide, inCount);
    in = wide;
  }
  const float* bias = ctx.inputType(2) == OperandType::TENSOR_FLOAT16
                          ? widenInput(ctx, 2, sc.wideBias)
                          : ctx.input<float>(2);
  float* out = halfOut ? sc.wideOutput.template get<float>(outCount) : ctx.output<float>(0);
  k.portableFloat(ctx, geo, st, sc, in, bias, out);
  if (halfOut) floatToHalf(out, ctx.output<Half>(0), outCount);
  return kOk;
}

template <typename Geo, typename State, typename Scratch>
Status runFast(OpContext& ctx, const OpKernels<Geo, State, Scratch>& k) {
  Geo geo;
  NN_RETURN_IF_ERROR(k.resolve(ctx, &geo));
  if (ctx.outputShape(0).count() == 0) return kOk;
  // init builds no state when shapes or scalars are only known at execution: an empty one
  // then says "nothing prepared" and the kernels prepare what they need per computation.
  const State unprepared{};
  const State& st = ctx.state() != nullptr ? *static_cast<const State*>(ctx.state()) : unprepared;
  Scratch fallback;
  Scratch& sc = scratchOr(ctx, fallback);
  if ((ctx.inputType(0) == OperandType::TENSOR_FLOAT16 ||
       ctx.outputShape(0).type == OperandType::TENSOR_FLOAT16)) {
    if (k.halfData != nullptr && k.halfData(ctx, geo, st, sc)) return kOk;
    if (driverHalfForm(ctx)) return runDriverHalfForm(ctx, k, geo, st, sc);
  }
  return runByType(
      ctx, dataLayout(geo), sc, st.quantReady ? &st.quant : nullptr,
      [&](const float* in, float* out) {
        xnnpackOrPortable(
            st.useXnnpack, sc, toString(ctx.type()),
            [&](std::string* error) { return k.xnnpack(ctx, geo, sc, in, out, error); },
            [&] { k.portableFloat(ctx, geo, st, sc, in, ctx.input<float>(2), out); });
      },
      [&](const Half* in, Half* out) {
        widenedFloat16(ctx, sc, in, out,
                       [&](const float* wideIn, const float* bias, float* wideOut) {
                         k.portableFloat(ctx, geo, st, sc, wideIn, bias, wideOut);
                       });
      },
      [&](const QuantParams& q, const void* in, void* out) {
        k.quant(ctx, geo, st, sc, q, in, out);
      });
}

// ---- entry points of an operation's OpKernels K ---------------------------------------------

// The geometry needs the input and filter shapes and every scalar; without them nothing is
// prepared and execution does it all per computation.
template <const auto& K>
Status init(OpContext& ctx) {
  using Kernels = std::remove_cv_t<std::remove_reference_t<decltype(K)>>;
  if (!ctx.inputSlot(0).shapeKnown || !ctx.inputSlot(1).shapeKnown) return kOk;
  typename Kernels::Geo geo;
  if (K.resolve(ctx, &geo) != kOk) return kOk;
  auto st = std::make_unique<typename Kernels::State>();
  const bool filterConst = constantInput(ctx, 1);
  if (isQuant(ctx.inputType(0))) {
    const DataLayout d = dataLayout(geo);
    st->quantReady = quantParamsFor(ctx, d.activation, d.outChannels, &st->quant) == kOk;
    if (st->quantReady && K.prepareQuant != nullptr) K.prepareQuant(geo, *st);
    if (filterConst) K.prepareQuantFilter(ctx, geo, *st);
  } else {
    st->useXnnpack = xnnpackCandidate(ctx) && K.xnnpackSupported(geo);
    if (filterConst && !st->useXnnpack) K.prepareFloatFilter(ctx, geo, *st);
  }
  ctx.setState(std::move(st));
  return kOk;
}

template <const auto& K>
Status execute(OpContext& ctx) {
  return runFast(ctx, K);
}

// The warm hook (CpuKernel::warm): creates this execution's XNNPACK operator (packing the
// weights) and sets it up on the arena buffers, without computing. Only the float32 NHWC form
// init chose XNNPACK for; everything else stays lazy. A failure leaves no scratch behind, so the
// execution takes its usual path (and its usual fallback).
template <const auto& K>
Status warm(OpContext& ctx) {
  using Kernels = std::remove_cv_t<std::remove_reference_t<decltype(K)>>;
  using State = typename Kernels::State;
  const State* st = static_cast<const State*>(ctx.state());
  if (st == nullptr || !st->useXnnpack || K.xnnpack == nullptr ||
      ctx.inputType(0) != OperandType::TENSOR_FLOAT32)
    return kOk;
  typename Kernels::Geo geo;
  if (K.resolve(ctx, &geo) != kOk || ctx.outputShape(0).count() == 0) return kOk;
  const DataLayout d = dataLayout(geo);
  if (d.spatial != nullptr && d.spatial->p.nchw) return kOk;  // runs on per-run NHWC copies
  auto* sc = ctx.scratchAs<typename Kernels::Scratch>();
  if (sc == nullptr) return kOk;
  // A model input or output has no buffer yet: set up on stand-ins of the same size (never
  // touched; setup only records addresses). XNNPACK builds its indirection buffer here, and a
  // later setup with the caller's buffers of the same shape only rebases it.
  const float* in = static_cast<const float*>(ctx.inputData(0));
  float* out = static_cast<float*>(ctx.outputData(0));
  std::unique_ptr<float[]> standInInput, standInOutput;
  if (in == nullptr) {
    standInInput.reset(new float[ctx.inputShape(0).count()]);
    in = standInInput.get();
  }
  if (out == nullptr) {
    standInOutput.reset(new float[ctx.outputShape(0).count()]);
    out = standInOutput.get();
  }
  XnnPrepareOnly prepareOnly;
  std::string error;
  if (!K.xnnpack(ctx, geo, *sc, in, out, &error)) {
    logInfo("%s (operation #%u): not warmed at compilation (%s)", toString(ctx.type()),
            ctx.operationIndex(), error.c_str());
    ctx.resetScratch();
  }
  return kOk;
}

template <const auto& K>
Status executeReference(OpContext& ctx) {
  return runReference(ctx, K.resolve, *K.reference);
}

}  // namespace conv
}  // namespace nn

// Registers convolution-family operation `opType` (in namespace nn) with its OpKernels
// `kernels`: init<kernels> to prepare, and the separate entry points of the fast device
// (execute<kernels>) and of the reference device (executeReference<kernels>), and warm<kernels>.
#define NN_DEFINE_CONV_KERNEL(opType, kernels)                                                \
  NN_DEFINE_CPU_KERNEL_WARM(opType, ::nn::conv::execute<kernels>,                             \
                            ::nn::conv::executeReference<kernels>, ::nn::conv::init<kernels>, \
                            nullptr, ::nn::conv::warm<kernels>)
