#include "runtime/memory_desc.h"

#include <android/NeuralNetworks.h>

#include "runtime/compilation.h"

namespace nn {

bool combineDimensions(const Dims& a, const Dims& b, Dims* out) {
  if (a.empty()) {
    *out = b;
    return true;
  }
  if (b.empty()) {
    *out = a;
    return true;
  }
  if (a.size() != b.size()) return false;
  Dims r(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != 0 && b[i] != 0 && a[i] != b[i]) return false;
    r[i] = a[i] != 0 ? a[i] : b[i];
  }
  *out = std::move(r);
  return true;
}

ApiResult RuntimeMemoryDesc::addRole(const RuntimeCompilation* compilation, bool isInput,
                                     uint32_t index, float frequency) {
  const char* fn = isInput ? "ANeuralNetworksMemoryDesc_addInputRole"
                           : "ANeuralNetworksMemoryDesc_addOutputRole";
  if (finished_) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the descriptor is already finished", fn);
  }
  if (!compilation->isValid()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the compilation is not finished or failed", fn);
  }
  const Subgraph& sg = compilation->canonicalModel()->main;
  const std::vector<uint32_t>& list = isInput ? sg.inputIndexes : sg.outputIndexes;
  if (index >= list.size()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: index %u out of range (%zu %s)", fn, index,
                    list.size(), isInput ? "inputs" : "outputs");
  }
  if (!(frequency > 0.f && frequency <= 1.f)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: frequency %g must be in (0, 1]", fn, frequency);
  }
  const MemoryRole role{compilation, isInput, index};
  for (const MemoryRole& r : info_.roles) {
    if (r == role) {
      return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the same role was added twice", fn);
    }
  }
  const Operand& o = sg.operands[list[index]];
  // A scalar role takes no dimensions: refuse one after setDimensions gave a rank (the other
  // order is refused by setDimensions).
  if (isScalarType(o.type) && haveDims_ && !info_.dimensions.empty()) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: the operand is a %s scalar but the descriptor has dimensions %s", fn,
                    toString(o.type), toString(info_.dimensions).c_str());
  }
  // Per-channel quantized roles (e.g. a convolution filter given at execution) are plain
  // bytes in memory; every role must agree on the channel dimension and scales.
  auto sameChannelQuant = [&](const std::shared_ptr<ChannelQuant>& a,
                              const std::shared_ptr<ChannelQuant>& b) {
    if (!a || !b) return a == b;
    return a->channelDim == b->channelDim && a->scales == b->scales;
  };
  if (info_.roles.empty()) {
    info_.type = o.type;
    scale_ = o.scale;
    zeroPoint_ = o.zeroPoint;
    channelQuant_ = o.channelQuant;
  } else if (o.type == info_.type && !sameChannelQuant(o.channelQuant, channelQuant_)) {
    return apiError(ANEURALNETWORKS_BAD_DATA,
                    "%s: the operand's per-channel quantization (channel dimension and scales) "
                    "differs from earlier roles",
                    fn);
  } else if (o.type != info_.type || o.scale != scale_ || o.zeroPoint != zeroPoint_) {
    return apiError(
        ANEURALNETWORKS_BAD_DATA,
        "%s: the operand (%s, scale %g, zeroPoint %d) differs from earlier roles (%s, scale "
        "%g, zeroPoint %d)",
        fn, toString(o.type), o.scale, o.zeroPoint, toString(info_.type), scale_, zeroPoint_);
  }
  Dims combined;
  if (!combineDimensions(haveDims_ ? info_.dimensions : Dims{}, o.dimensions, &combined)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: operand dimensions %s are incompatible with %s",
                    fn, toString(o.dimensions).c_str(), toString(info_.dimensions).c_str());
  }
  info_.dimensions = std::move(combined);
  haveDims_ = true;
  info_.roles.push_back(role);
  return apiOk();
}

ApiResult RuntimeMemoryDesc::setDimensions(uint32_t rank, const uint32_t* dimensions) {
  const char* fn = "ANeuralNetworksMemoryDesc_setDimensions";
  if (finished_) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the descriptor is already finished", fn);
  }
  const Dims dims(dimensions, dimensions + rank);
  if (!info_.roles.empty() && isScalarType(info_.type) && rank != 0) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: the roles are scalars but rank %u was given", fn,
                    rank);
  }
  Dims combined;
  if (!combineDimensions(haveDims_ ? info_.dimensions : Dims{}, dims, &combined)) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: %s is incompatible with the roles' %s", fn,
                    toString(dims).c_str(), toString(info_.dimensions).c_str());
  }
  info_.dimensions = std::move(combined);
  haveDims_ = true;
  return apiOk();
}

ApiResult RuntimeMemoryDesc::finish() {
  const char* fn = "ANeuralNetworksMemoryDesc_finish";
  if (finished_) {
    return apiError(ANEURALNETWORKS_BAD_STATE, "%s: the descriptor is already finished", fn);
  }
  if (info_.roles.empty()) {
    return apiError(ANEURALNETWORKS_BAD_DATA, "%s: no role was added", fn);
  }
  finished_ = true;
  return apiOk();
}

}  // namespace nn
