#include "cpu/graph_fusion.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cpu/kernels/depthwise_half_narrow.h"
#include "cpu/kernels/gemm_half.h"
#include "cpu/kernels/stem_half.h"
#include "hal/log.h"
#include "spec/ops/common.h"
#include "spec/ops/conv.h"

namespace nn {
namespace {

// The source model's CONSTANT_COPY bytes, seen by the rewritten model as a pool; holds the
// source model so those bytes (and its pools) outlive every prepared model using the copy.
class SourceValues : public Memory {
 public:
  explicit SourceValues(std::shared_ptr<const Model> source)
      : Memory(const_cast<uint8_t*>(source->operandValues.data()), source->operandValues.size()),
        source_(std::move(source)) {}

 private:
  std::shared_ptr<const Model> source_;
};

constexpr uint32_t kNoOperation = UINT32_MAX;

// One subgraph being rewritten in the copy `m`.
class SubgraphFusion {
 public:
  SubgraphFusion(Model* m, Subgraph* sg, bool shapesReliable)
      : m_(*m), sg_(*sg), shapesReliable_(shapesReliable) {
    removed_.assign(sg_.operations.size(), 0);
    producer_.assign(sg_.operands.size(), kNoOperation);
    consumer_.assign(sg_.operands.size(), kNoOperation);
    uses_.assign(sg_.operands.size(), 0);
    for (uint32_t i = 0; i < sg_.operations.size(); ++i) {
      for (uint32_t o : sg_.operations[i].outputs)
        if (o < producer_.size()) producer_[o] = i;
      for (uint32_t in : sg_.operations[i].inputs) {
        if (in >= uses_.size()) continue;
        ++uses_[in];
        consumer_[in] = i;
      }
    }
  }

  void run(FusionCounts* counts) {
    for (uint32_t i = 0; i < sg_.operations.size(); ++i)
      if (fuseActivation(i)) ++counts->activations;
    for (uint32_t i = 0; i < sg_.operations.size(); ++i)
      if (foldPad(i)) ++counts->pads;
    for (uint32_t i = 0; i < sg_.operations.size(); ++i)
      if (fuseHalfFilter(i)) ++counts->halfFilters;
    counts->halfTensors += storeHalf();
    std::vector<Operation> kept;
    kept.reserve(sg_.operations.size());
    for (uint32_t i = 0; i < sg_.operations.size(); ++i)
      if (!removed_[i]) kept.push_back(std::move(sg_.operations[i]));
    sg_.operations = std::move(kept);
  }

 private:
  const Operand& operand(uint32_t i) const { return sg_.operands[i]; }

  // The bytes of constant operand i (exactly `length` of them), or nullptr.
  // A constant TENSOR_FLOAT32 operand whose every value is finite.
  bool finiteFloatConstant(uint32_t i) const {
    if (i >= sg_.operands.size() || operand(i).type != OperandType::TENSOR_FLOAT32) return false;
    const size_t bytes = operand(i).location.length;
    if (bytes % sizeof(float) != 0) return false;
    const uint8_t* p = constant(i, bytes);
    if (p == nullptr) return false;
    for (size_t k = 0; k < bytes; k += sizeof(float)) {
      uint32_t bits;
      memcpy(&bits, p + k, sizeof(bits));
      if ((bits & 0x7f800000u) == 0x7f800000u) return false;  // Inf or NaN
    }
    return true;
  }

  const uint8_t* constant(uint32_t i, size_t length) const {
    if (i >= sg_.operands.size()) return nullptr;
    const Operand& o = operand(i);
    const DataLocation& l = o.location;
    if (l.length != length) return nullptr;
    if (o.lifetime == Lifetime::CONSTANT_COPY) {
      if (static_cast<uint64_t>(l.offset) + l.length > m_.operandValues.size()) return nullptr;
      return m_.operandValues.data() + l.offset;
    }
    if (o.lifetime == Lifetime::CONSTANT_REFERENCE) {
      if (l.poolIndex >= m_.pools.size() || !m_.pools[l.poolIndex] ||
          !m_.pools[l.poolIndex]->contains(l.offset, l.length))
        return nullptr;
      return m_.pools[l.poolIndex]->data() + l.offset;
    }
    return nullptr;
  }
  bool constInt32(uint32_t i, int32_t* v) const {
    if (i >= sg_.operands.size() || operand(i).type != OperandType::INT32) return false;
    const uint8_t* p = constant(i, 4);
    if (p == nullptr) return false;
    memcpy(v, p, 4);
    return true;
  }
  // A new INT32 constant operand (in the copy's own CONSTANT_COPY bytes).
  uint32_t addInt32(int32_t v) {
    std::vector<uint8_t>& values = m_.operandValues;
    const size_t offset = (values.size() + 3) / 4 * 4;
    values.resize(offset + 4);
    memcpy(values.data() + offset, &v, 4);
    Operand o;
    o.type = OperandType::INT32;
    o.lifetime = Lifetime::CONSTANT_COPY;
    o.location.offset = static_cast<uint32_t>(offset);
    o.location.length = 4;
    sg_.operands.push_back(o);
    return static_cast<uint32_t>(sg_.operands.size() - 1);
  }
  // A float32 temporary read by exactly one operation (so not a subgraph input or output).
  bool privateFloatTemporary(uint32_t i) const {
    return i < uses_.size() && operand(i).lifetime == Lifetime::TEMPORARY_VARIABLE &&
           operand(i).type == OperandType::TENSOR_FLOAT32 && uses_[i] == 1;
  }

  // Which input of `op` is its fused-activation code (-1: none or an unknown form).
  int32_t activationInput(const Operation& op) const {
    const uint32_t n = static_cast<uint32_t>(op.inputs.size());
    switch (op.type) {
      case OperationType::ADD:
      case OperationType::SUB:
      case OperationType::MUL:
      case OperationType::DIV:
        return n == 3 ? 2 : -1;
      case OperationType::FULLY_CONNECTED:
        return n == 4 ? 3 : -1;
      case OperationType::TRANSPOSE_CONV_2D:
        return n == 11 ? 9 : n == 9 ? 7 : -1;
      case OperationType::AVERAGE_POOL_2D:
      case OperationType::MAX_POOL_2D:
      case OperationType::L2_POOL_2D:
        return n == 10 || n == 11 ? 9 : n == 7 || n == 8 ? 6 : -1;
      case OperationType::CONV_2D:
      case OperationType::DEPTHWISE_CONV_2D: {
        conv::Signature sig;
        return convSignature(op, &sig) ? sig.activation : -1;
      }
      default:
        return -1;
    }
  }
  bool convSignature(const Operation& op, conv::Signature* sig) const {
    const bool depthwise = op.type == OperationType::DEPTHWISE_CONV_2D;
    const uint32_t n = static_cast<uint32_t>(op.inputs.size());
    const uint32_t split = depthwise ? 8 : 7;
    for (uint32_t in : op.inputs)
      if (in >= sg_.operands.size()) return false;
    const OperandType splitType = n > split ? operand(op.inputs[split]).type : OperandType::INT32;
    std::string error;
    return conv::parseSignature(n, depthwise, splitType, sig, &error);
  }

  // RELU* (operation r) of a float32 temporary that only it reads, produced by an operation
  // whose fused activation is a constant NONE: the producer takes the activation and writes
  // the RELU's output. The activation ranges are those of activationRangeFloat in both forms.
  bool fuseActivation(uint32_t r) {
    const Operation& relu = sg_.operations[r];
    int32_t code = 0;
    switch (relu.type) {
      case OperationType::RELU: code = 1; break;
      case OperationType::RELU1: code = 2; break;
      case OperationType::RELU6: code = 3; break;
      default: return false;
    }
    if (relu.inputs.size() != 1 || relu.outputs.size() != 1) return false;
    const uint32_t x = relu.inputs[0], y = relu.outputs[0];
    if (!privateFloatTemporary(x) || y >= sg_.operands.size() ||
        operand(y).type != OperandType::TENSOR_FLOAT32)
      return false;
    const uint32_t p = producer_[x];
    if (p == kNoOperation || removed_[p]) return false;
    Operation& prod = sg_.operations[p];
    if (prod.outputs.size() != 1) return false;
    const int32_t act = activationInput(prod);
    int32_t current = -1;
    if (act < 0 || !constInt32(prod.inputs[act], &current) || current != 0) return false;
    prod.inputs[act] = addInt32(code);
    prod.outputs[0] = y;
    producer_[y] = p;
    uses_[x] = 0;
    removed_[r] = 1;
    return true;
  }

  // PAD / PAD_V2 (operation q) adding zeros only along H and W of a float32 NHWC tensor, whose
  // output only input 0 of a CONV_2D / DEPTHWISE_CONV_2D reads: the convolution reads the
  // unpadded tensor with the paddings added to its own (its padding taps read zeros, as the
  // padded input's elements are). Implicit padding becomes explicit when the sizes are known.
  bool foldPad(uint32_t q) {
    const Operation& pad = sg_.operations[q];
    const bool v2 = pad.type == OperationType::PAD_V2;
    if (pad.type != OperationType::PAD && !v2) return false;
    if (pad.inputs.size() != (v2 ? 3u : 2u) || pad.outputs.size() != 1) return false;
    const uint32_t in = pad.inputs[0], t = pad.outputs[0];
    if (in >= sg_.operands.size() || operand(in).type != OperandType::TENSOR_FLOAT32 ||
        !privateFloatTemporary(t))
      return false;
    if (v2) {
      const uint32_t value = pad.inputs[2];
      if (value >= sg_.operands.size() || operand(value).type != OperandType::FLOAT32)
        return false;
      const uint8_t* bytes = constant(value, 4);
      uint32_t bits = 1;
      if (bytes != nullptr) memcpy(&bits, bytes, 4);
      if (bits != 0) return false;  // only +0.0 (a -0.0 pad would change signed zeros)
    }
    const uint32_t paddings = pad.inputs[1];
    if (paddings >= sg_.operands.size() || operand(paddings).type != OperandType::TENSOR_INT32 ||
        operand(paddings).dimensions != Dims{4, 2})
      return false;
    const uint8_t* pb = constant(paddings, 32);
    if (pb == nullptr) return false;
    int32_t pv[8];
    memcpy(pv, pb, sizeof(pv));
    if (pv[0] != 0 || pv[1] != 0 || pv[6] != 0 || pv[7] != 0) return false;
    for (int32_t v : pv)
      if (v < 0 || v > (1 << 20)) return false;
    const int32_t top = pv[2], bottom = pv[3], left = pv[4], right = pv[5];

    const uint32_t c = consumer_[t];
    if (c == kNoOperation || removed_[c]) return false;
    Operation& cv = sg_.operations[c];
    const bool depthwise = cv.type == OperationType::DEPTHWISE_CONV_2D;
    if (cv.type != OperationType::CONV_2D && !depthwise) return false;
    if (cv.inputs.empty() || cv.inputs[0] != t) return false;
    conv::Signature sig;
    if (!convSignature(cv, &sig)) return false;
    if (sig.layout >= 0 && operand(cv.inputs[sig.layout]).lifetime != Lifetime::NO_VALUE) {
      const uint8_t* layout = constant(cv.inputs[sig.layout], 1);
      if (layout == nullptr || *layout != 0) return false;  // NCHW, or known only at execution
    }
    int32_t strideW = 0, strideH = 0, dilationW = 1, dilationH = 1;
    if (!constInt32(cv.inputs[sig.strideW], &strideW) ||
        !constInt32(cv.inputs[sig.strideH], &strideH) || strideW < 1 || strideH < 1)
      return false;
    if (sig.dilationW >= 0 && (!constInt32(cv.inputs[sig.dilationW], &dilationW) ||
                               !constInt32(cv.inputs[sig.dilationH], &dilationH) ||
                               dilationW < 1 || dilationH < 1))
      return false;
    const Dims& filter = operand(cv.inputs[1]).dimensions;
    const bool filterKnown = filter.size() == 4 && filter[1] > 0 && filter[2] > 0;
    // The PAD's zeros are multiplied by the weights (0 * Inf = NaN) while a convolution's own
    // padding positions may be skipped: fold only over a constant filter of finite values.
    if (!finiteFloatConstant(cv.inputs[1])) return false;

    int64_t pads[4];  // left, right, top, bottom of the convolution itself
    if (sig.explicitPadding) {
      int32_t v[4];
      const int32_t at[4] = {sig.padLeft, sig.padRight, sig.padTop, sig.padBottom};
      for (int k = 0; k < 4; ++k)
        if (!constInt32(cv.inputs[at[k]], &v[k]) || v[k] < 0) return false;
      for (int k = 0; k < 4; ++k) pads[k] = v[k];
    } else {
      // The padded sizes decide SAME padding: only with the input's size known for certain
      // (declared in full in the main graph, where execution checks it).
      const Dims& d = operand(in).dimensions;
      int32_t code = 0;
      if (!shapesReliable_ || !filterKnown || !isFullySpecified(operand(in).type, d) ||
          d.size() != 4 || !constInt32(cv.inputs[sig.padding], &code) ||
          (code != kPaddingSame && code != kPaddingValid))
        return false;
      uint32_t head = 0, tail = 0;
      implicitPadding(d[2] + left + right, strideW, dilationW, filter[2], code, &head, &tail);
      pads[0] = head;
      pads[1] = tail;
      implicitPadding(d[1] + top + bottom, strideH, dilationH, filter[1], code, &head, &tail);
      pads[2] = head;
      pads[3] = tail;
    }
    pads[0] += left;
    pads[1] += right;
    pads[2] += top;
    pads[3] += bottom;
    if (!depthwise) {
      // CONV_2D's rule: each padding smaller than the dilated filter window.
      if (!filterKnown) return false;
      const int64_t effW = (static_cast<int64_t>(filter[2]) - 1) * dilationW + 1;
      const int64_t effH = (static_cast<int64_t>(filter[1]) - 1) * dilationH + 1;
      if (pads[0] >= effW || pads[1] >= effW || pads[2] >= effH || pads[3] >= effH) return false;
    }
    for (int64_t v : pads)
      if (v > std::numeric_limits<int32_t>::max()) return false;

    std::vector<uint32_t> inputs = {in, cv.inputs[1], cv.inputs[2]};
    for (int64_t v : pads) inputs.push_back(addInt32(static_cast<int32_t>(v)));
    inputs.push_back(cv.inputs[sig.strideW]);
    inputs.push_back(cv.inputs[sig.strideH]);
    if (depthwise) inputs.push_back(cv.inputs[sig.depthMultiplier]);
    inputs.push_back(cv.inputs[sig.activation]);
    if (sig.layout >= 0) inputs.push_back(cv.inputs[sig.layout]);
    if (sig.dilationW >= 0) {
      inputs.push_back(cv.inputs[sig.dilationW]);
      inputs.push_back(cv.inputs[sig.dilationH]);
    }
    cv.inputs = std::move(inputs);
    uses_[t] = 0;
    removed_[q] = 1;
    return true;
  }

  // CAST (operation q) of a constant TENSOR_FLOAT16 tensor into a float32 temporary that only
  // input 1 (the filter) of a CONV_2D on float32 data reads: the convolution takes the float16
  // constant itself and its packed GEMM widens it while packing (conv_fast.h), so no float32
  // copy of the weights is ever made (the TFLite importer leaves float16 1x1 filters this way
  // instead of widening them at import; issue 10, compilation time). Widening is exact, and
  // both forms take the packed GEMM (a filter that is not a float32 constant never goes to
  // XNNPACK; 1-2 output channels, the direct kernel's, are left alone), so the bits are the same.
  bool fuseHalfFilter(uint32_t q) {
    const Operation& cast = sg_.operations[q];
    if (cast.type != OperationType::CAST || cast.inputs.size() != 1 || cast.outputs.size() != 1)
      return false;
    const uint32_t h = cast.inputs[0], t = cast.outputs[0];
    if (h >= sg_.operands.size() || operand(h).type != OperandType::TENSOR_FLOAT16 ||
        !privateFloatTemporary(t) || operand(h).dimensions.size() != 4 ||
        operand(h).dimensions[0] <= 2 ||  // the narrow direct kernel's (float32 weights only)
        !isFullySpecified(operand(h).type, operand(h).dimensions) ||
        operand(t).dimensions != operand(h).dimensions)
      return false;
    size_t count = 1;
    for (uint32_t d : operand(h).dimensions) count *= d;
    if (constant(h, count * sizeof(uint16_t)) == nullptr) return false;
    const uint32_t c = consumer_[t];
    if (c == kNoOperation || removed_[c]) return false;
    Operation& cv = sg_.operations[c];
    if (cv.type != OperationType::CONV_2D || cv.inputs.size() < 3 || cv.inputs[1] != t ||
        cv.inputs[0] >= sg_.operands.size() ||
        operand(cv.inputs[0]).type != OperandType::TENSOR_FLOAT32)
      return false;
    for (size_t k = 0; k < cv.inputs.size(); ++k)
      if (k != 1 && cv.inputs[k] == t) return false;
    cv.inputs[1] = h;
    uses_[t] = 0;
    removed_[q] = 1;
    return true;
  }

  // ---- float16 storage of relaxed models' temporaries ----

  // What an operation does with float16 data in a relaxed model on a processor with the float16
  // kernels: kGemm and kDepthwise read a float16 input 0 (a depthwise layer only that way: its
  // kernel needs float16 input, and may then write either type), kAdd reads either input in
  // either type and writes either type, kPassThrough (PAD, MAX_POOL_2D) copies or compares values
  // and keeps the type (input 0 and output both float16 or both float32).
  // kStem (an image model's first convolution, stem_half.h) reads float32 and may write
  // float16.
  enum class HalfKind { kNone, kGemm, kDepthwise, kAdd, kPassThrough, kStem, kMean };

  bool constantOperand(uint32_t i) const {
    if (i >= sg_.operands.size()) return false;
    const Lifetime l = operand(i).lifetime;
    return l == Lifetime::CONSTANT_COPY || l == Lifetime::CONSTANT_REFERENCE;
  }
  bool nhwc(const Operation& op, const conv::Signature& sig) const {
    if (sig.layout < 0 || operand(op.inputs[sig.layout]).lifetime == Lifetime::NO_VALUE)
      return true;
    const uint8_t* layout = constant(op.inputs[sig.layout], 1);
    return layout != nullptr && *layout == 0;
  }
  // A 4-D float32 tensor whose dims are all known.
  bool knownFloat4d(uint32_t i) const {
    return i < sg_.operands.size() && operand(i).type == OperandType::TENSOR_FLOAT32 &&
           operand(i).dimensions.size() == 4 &&
           isFullySpecified(operand(i).type, operand(i).dimensions);
  }

  // Whether operation `op` has a kernel reading and writing float16 data directly: a CONV_2D
  // the float16 GEMM takes (1x1, stride 1, no padding, constant filter: halfGemmPreferred), a
  // DEPTHWISE_CONV_2D the float16 depthwise kernel takes (halfDepthwisePreferred), an ADD of
  // three tensors of one shape (half_ops::addTakes), a PAD (type-blind copies) or an NHWC
  // MAX_POOL_2D (half_ops::maxPoolTakes). The kernels decide again from the same facts; a
  // convolution they do not take runs widened (conv_driver.h, runDriverHalfForm) with the same
  // result.
  HalfKind halfKind(const Operation& op) const {
    if (op.outputs.size() != 1) return HalfKind::kNone;
    for (uint32_t in : op.inputs)
      if (in >= sg_.operands.size()) return HalfKind::kNone;
    switch (op.type) {
      case OperationType::ADD:
        if (op.inputs.size() != 3 || !knownFloat4d(op.inputs[0]) || !knownFloat4d(op.inputs[1]) ||
            !knownFloat4d(op.outputs[0]) ||
            operand(op.inputs[0]).dimensions != operand(op.outputs[0]).dimensions ||
            operand(op.inputs[1]).dimensions != operand(op.outputs[0]).dimensions)
          return HalfKind::kNone;
        return HalfKind::kAdd;
      case OperationType::MEAN:
        // Reads float16 (input 0), writes float32 (mean.cc): the spatial average ending image
        // models, so that the depthwise layer before it writes float16 (the float16 depthwise
        // kernels for small maps take only float16 outputs: hand_landmark's 7x7x1152 / x672
        // layer one thread 25 -> 11 us).
        return op.inputs.size() == 3 && knownFloat4d(op.inputs[0]) &&
                       operand(op.outputs[0]).type == OperandType::TENSOR_FLOAT32
                   ? HalfKind::kMean
                   : HalfKind::kNone;
      case OperationType::PAD:
        return op.inputs.size() == 2 && knownFloat4d(op.inputs[0]) && knownFloat4d(op.outputs[0])
                   ? HalfKind::kPassThrough
                   : HalfKind::kNone;
      case OperationType::MAX_POOL_2D: {
        const size_t n = op.inputs.size();
        if ((n != 10 && n != 11 && n != 7 && n != 8) || !knownFloat4d(op.inputs[0]) ||
            !knownFloat4d(op.outputs[0]))
          return HalfKind::kNone;
        if (n == 11 || n == 8) {
          const uint32_t layout = op.inputs[n - 1];
          const uint8_t* v = constant(layout, 1);
          if (v == nullptr || *v != 0) return HalfKind::kNone;
        }
        return HalfKind::kPassThrough;
      }
      default:
        break;
    }
    const bool depthwise = op.type == OperationType::DEPTHWISE_CONV_2D;
    if (op.type != OperationType::CONV_2D && !depthwise) return HalfKind::kNone;
    conv::Signature sig;
    if (!convSignature(op, &sig) || !nhwc(op, sig)) return HalfKind::kNone;
    const uint32_t in = op.inputs[0], filter = op.inputs[1], bias = op.inputs[2];
    if (!knownFloat4d(in) || !knownFloat4d(op.outputs[0]) || !constantOperand(filter) ||
        operand(bias).type != OperandType::TENSOR_FLOAT32)
      return HalfKind::kNone;
    const Dims& f = operand(filter).dimensions;
    const uint32_t c = operand(in).dimensions[3];
    if (f.size() != 4) return HalfKind::kNone;
    if (depthwise) {
      int32_t multiplier = 0;
      if (operand(filter).type != OperandType::TENSOR_FLOAT32 || !constantOperand(bias) ||
          !constInt32(op.inputs[sig.depthMultiplier], &multiplier) || multiplier != 1 ||
          f[0] != 1 || f[3] != c)
        return HalfKind::kNone;
      if (c < conv::kHalfDwMinChannels) {
        // Fewer channels: only the narrow kernel's shapes (depthwise_half_narrow.h).
        int32_t strideW = 0, strideH = 0, dilationW = 1, dilationH = 1;
        if (!constInt32(op.inputs[sig.strideW], &strideW) ||
            !constInt32(op.inputs[sig.strideH], &strideH) ||
            (sig.dilationW >= 0 && (!constInt32(op.inputs[sig.dilationW], &dilationW) ||
                                    !constInt32(op.inputs[sig.dilationH], &dilationH))) ||
            !conv::halfDepthwiseNarrowShape(c, f[1], f[2], strideH, strideW, dilationH,
                                            dilationW))
          return HalfKind::kNone;
      }
      return HalfKind::kDepthwise;
    }
    const OperandType ft = operand(filter).type;
    if (ft != OperandType::TENSOR_FLOAT32 && ft != OperandType::TENSOR_FLOAT16)
      return HalfKind::kNone;
    if (f[3] != c) return HalfKind::kNone;
    if (f[1] != 1 || f[2] != 1) {
      int32_t dilationW = 1, dilationH = 1;
      if (sig.dilationW >= 0 && (!constInt32(op.inputs[sig.dilationW], &dilationW) ||
                                 !constInt32(op.inputs[sig.dilationH], &dilationH)))
        return HalfKind::kNone;
      return ft == OperandType::TENSOR_FLOAT32 && constantOperand(bias) &&
                     conv::halfStemShapePreferred(f[0], c, f[1], f[2], dilationH, dilationW)
                 ? HalfKind::kStem
                 : HalfKind::kNone;
    }
    int32_t strideW = 0, strideH = 0;
    if (!constInt32(op.inputs[sig.strideW], &strideW) ||
        !constInt32(op.inputs[sig.strideH], &strideH) || strideW != 1 || strideH != 1)
      return HalfKind::kNone;
    if (sig.explicitPadding) {
      const int32_t at[4] = {sig.padLeft, sig.padRight, sig.padTop, sig.padBottom};
      for (int32_t a : at) {
        int32_t v = -1;
        if (!constInt32(op.inputs[a], &v) || v != 0) return HalfKind::kNone;
      }
    }
    return conv::halfGemmShapePreferred(f[0], c) ? HalfKind::kGemm : HalfKind::kNone;
  }
  // Whether input `position` of an operation of kind `k` may be float16.
  static bool halfReadable(HalfKind k, size_t position) {
    switch (k) {
      case HalfKind::kAdd: return position <= 1;
      case HalfKind::kGemm:
      case HalfKind::kDepthwise:
      case HalfKind::kPassThrough:
      case HalfKind::kMean: return position == 0;
      default: return false;
    }
  }

  // In a relaxed model on a processor with the float16 kernels: the float32 temporaries that
  // an operation with a float16 kernel writes and only operations with float16 kernels read (at
  // the inputs those kernels read in float16) become TENSOR_FLOAT16. Relaxed precision allows
  // float16 storage as well as arithmetic; the kernels read and write half the bytes. This
  // covers inverted bottlenecks (expansion 1x1 -> depthwise -> projection 1x1) and residual
  // blocks, whose ADD output feeds the next depthwise layer and the next ADD (and a PAD /
  // MAX_POOL_2D on the shortcut where the block changes size), so that a backbone's tensors
  // stay float16 from one convolution to the next; conversions remain only at operations
  // without a float16 kernel (and at model outputs, which are never retyped). Returns the
  // number of tensors retyped.
  static constexpr uint32_t kHalfStoreMinColumns = 32;
  static constexpr uint32_t kHalfStoreMaxShortK = 32;
  static constexpr uint32_t kHalfStoreShortMinColumns = 24;
  uint32_t storeHalf() {
    if (!shapesReliable_ || !m_.relaxComputationFloat32toFloat16 || !conv::halfGemmAvailable())
      return 0;
    const size_t nOps = sg_.operations.size(), nOperands = sg_.operands.size();
    std::vector<uint32_t> producer(nOperands, kNoOperation), uses(nOperands, 0);
    std::vector<HalfKind> kind(nOps, HalfKind::kNone);
    for (uint32_t i = 0; i < nOps; ++i)
      if (!removed_[i]) kind[i] = halfKind(sg_.operations[i]);
    // half[t]: may be float16 so far (every reader reads it at a float16-capable input).
    std::vector<uint8_t> half(nOperands, 1);
    // depthwiseOnly[t]: every reader is a depthwise layer's input.
    std::vector<uint8_t> depthwiseOnly(nOperands, 1);
    for (uint32_t i = 0; i < nOps; ++i) {
      if (removed_[i]) continue;
      const Operation& op = sg_.operations[i];
      for (uint32_t o : op.outputs)
        if (o < nOperands) producer[o] = i;
      for (size_t k = 0; k < op.inputs.size(); ++k) {
        const uint32_t in = op.inputs[k];
        if (in >= nOperands) continue;
        ++uses[in];
        if (!halfReadable(kind[i], k)) half[in] = 0;
        if (kind[i] != HalfKind::kDepthwise || k != 0) depthwiseOnly[in] = 0;
      }
    }
    for (uint32_t t = 0; t < nOperands; ++t) {
      if (!half[t]) continue;
      half[t] = operand(t).lifetime == Lifetime::TEMPORARY_VARIABLE && uses[t] > 0 &&
                knownFloat4d(t) && producer[t] != kNoOperation &&
                kind[producer[t]] != HalfKind::kNone && kind[producer[t]] != HalfKind::kMean;
    }
    // The narrow float16 GEMM (fewer than 32 output columns) reads float16 but writes float32.
    // Those layers are the residual stream's projections in MobileNetV3-style models; rounding
    // their outputs to float16 as well moved hand_landmark_lite's relaxed presence score 1.9%
    // from float32 (tests/tflite_e2e_test.cc allows 1%; 0.8% this way), for a speed difference
    // within the noise of nnapi bench. (Over 8 random inputs the hand models' worst output moved
    // up to 2.9% with float16 outputs, up to 2.0% without; it is a sigmoid near 0.08 there.)
    // The same for a stem convolution (kStem) computed in float32 (stem_half.h: fewer than
    // kHalfStemFloatOutMinK taps): the hand models' 3x3 stems to 24 channels with float16
    // outputs moved hand_landmark_lite's relaxed output 1.5% from float32. With 32 output
    // channels (face_detection_full_range) the float16 output lets the first depthwise layer and
    // the 1x1 after it run on float16 (one thread: 82 -> 26 and 81 -> 43 us); so does
    // face_detection_short_range's 5x5 stem to 24 channels, computed in float16 anyway (whole
    // model 0.88x, one and two threads; worst output over `nnapi run` seeds 1-8 0.0082 of
    // max |fp32|, 0.0066 with a float32 output).
    // A narrow GEMM whose output only depthwise layers read (a bottleneck's narrow middle, not
    // a residual stream: face_detection_full_range's 48->16, 64->24 and 48->24 1x1s before
    // 16- and 24-channel depthwise layers) does write float16: the depthwise layer then runs in
    // float16 (one thread 12 -> 7, 7 -> 2.5 and 23 -> 8 us) and the 1x1 after it reads float16.
    // Relaxed real-model test: face_detection_full_range 0.0030 -> 0.0047 of max |fp32| (with
    // the stem's shorter float16 sums of 16 terms, kStemHalfKBlock), the other models unchanged
    // (no such layers); astronaut.png outputs within 0.51% (0.36% before).
    // A narrow GEMM with a short k (kHalfStoreMaxShortK) to 24 or more columns writes float16
    // too: BlazeFace's 64x64 24 -> 24 and 24 -> 28 1x1 layers before their residual ADDs, whose
    // outputs (float16) the small-n kernel then computes with the ADD in its epilogue
    // (gemm_half_small_isa.h): face_detection_short_range one thread 0.94x. Relaxed agreement:
    // tests/tflite_e2e_test.cc 0.0048 -> 0.0052 of max |fp32|; `nnapi run` seeds 1-12 worst
    // 0.0100 -> 0.0109 (0.0106 with the narrow kernel before the small-n one took these
    // layers). Not the hand models' residual projections (k 64-240): with float16 outputs
    // hand_landmark_full moved 1.26% from float32.
    for (uint32_t i = 0; i < nOps; ++i) {
      if (removed_[i] || (kind[i] != HalfKind::kGemm && kind[i] != HalfKind::kStem)) continue;
      const uint32_t out = sg_.operations[i].outputs[0];
      if (operand(out).dimensions[3] >= kHalfStoreMinColumns) continue;
      if (kind[i] == HalfKind::kGemm && depthwiseOnly[out]) continue;
      if (kind[i] == HalfKind::kGemm &&
          operand(sg_.operations[i].inputs[0]).dimensions[3] <= kHalfStoreMaxShortK &&
          operand(out).dimensions[3] >= kHalfStoreShortMinColumns)
        continue;
      if (kind[i] == HalfKind::kStem) {
        const Dims& f = operand(sg_.operations[i].inputs[1]).dimensions;
        if (f[1] * f[2] * f[3] >= conv::kHalfStemFloatOutMinK) continue;
      }
      half[out] = 0;
    }
    // A depthwise layer computes in float16 only from a float16 input (its float32 kernel
    // writes float32). A PAD / MAX_POOL_2D keeps its type. Demote until both hold everywhere.
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = 0; i < nOps; ++i) {
        if (removed_[i] || (kind[i] != HalfKind::kDepthwise && kind[i] != HalfKind::kPassThrough))
          continue;
        const uint32_t in = sg_.operations[i].inputs[0], out = sg_.operations[i].outputs[0];
        if (kind[i] == HalfKind::kDepthwise && !half[in] && half[out]) {
          half[out] = 0;
          changed = true;
        } else if (kind[i] == HalfKind::kPassThrough && half[in] != half[out]) {
          half[in] = half[out] = 0;
          changed = true;
        }
      }
    }
    uint32_t n = 0;
    for (uint32_t t = 0; t < nOperands; ++t) {
      if (!half[t]) continue;
      sg_.operands[t].type = OperandType::TENSOR_FLOAT16;
      ++n;
    }
    return n;
  }

  Model& m_;
  Subgraph& sg_;
  const bool shapesReliable_;
  std::vector<uint8_t> removed_;     // per operation
  std::vector<uint32_t> producer_;   // per operand: the operation writing it
  std::vector<uint32_t> consumer_;   // per operand: an operation reading it
  std::vector<uint32_t> uses_;       // per operand: how many operation inputs read it
};

}  // namespace

bool cpuFusionEnabled() {
  const char* v = getenv("NNAPI_CPU_FUSION");
  return v == nullptr || strcmp(v, "0") != 0;
}

std::shared_ptr<const Model> fuseForCpu(const std::shared_ptr<const Model>& model,
                                        FusionCounts* counts) {
  FusionCounts local;
  FusionCounts& n = counts ? *counts : local;
  n = FusionCounts{};
  if (model == nullptr) return nullptr;
  auto copy = std::make_shared<Model>();
  copy->relaxComputationFloat32toFloat16 = model->relaxComputationFloat32toFloat16;
  copy->pools = model->pools;
  copy->pools.push_back(std::make_shared<SourceValues>(model));
  const uint32_t sourcePool = static_cast<uint32_t>(copy->pools.size() - 1);
  copy->main = model->main;
  copy->referenced = model->referenced;
  // The source's CONSTANT_COPY bytes are read in place (the copy's own operandValues holds
  // only the constants the fusions add).
  auto rebase = [&](Subgraph& sg) {
    for (Operand& o : sg.operands) {
      if (o.lifetime != Lifetime::CONSTANT_COPY) continue;
      o.lifetime = Lifetime::CONSTANT_REFERENCE;
      o.location.poolIndex = sourcePool;
    }
  };
  rebase(copy->main);
  for (Subgraph& sg : copy->referenced) rebase(sg);
  // Referenced subgraphs take their input shapes from their callers at execution.
  SubgraphFusion(copy.get(), &copy->main, /*shapesReliable=*/true).run(&n);
  for (Subgraph& sg : copy->referenced)
    SubgraphFusion(copy.get(), &sg, /*shapesReliable=*/false).run(&n);
  if (n.activations == 0 && n.pads == 0 && n.halfFilters == 0 && n.halfTensors == 0)
    return nullptr;
  logInfo("CPU driver: fused %u activations, %u paddings and %u float16 filters into their "
          "neighbours; %u temporaries stored in float16", n.activations, n.pads, n.halfFilters,
          n.halfTensors);
  return copy;
}

}  // namespace nn
