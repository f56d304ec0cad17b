// Helpers shared by the data-movement operations (reshape, concatenation, transpose, pad,
// strided slice, mean, space/batch/depth rearrangements, lookups, resize).
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "spec/ops/common.h"
#include "spec/operation.h"

namespace nn {
namespace shape_ops {

constexpr OperandType kF32 = OperandType::TENSOR_FLOAT32;
constexpr OperandType kF16 = OperandType::TENSOR_FLOAT16;
constexpr OperandType kQ8 = OperandType::TENSOR_QUANT8_ASYMM;
constexpr OperandType kQ8S = OperandType::TENSOR_QUANT8_ASYMM_SIGNED;
constexpr OperandType kI32 = OperandType::TENSOR_INT32;

// One accepted tensor type and the feature level that introduced it for an operation.
struct TypeSince {
  OperandType type;
  int64_t level;
};

inline bool isQuant8(OperandType t) { return t == kQ8 || t == kQ8S; }

// Input i must be present (not an omitted optional operand).
inline Status requirePresent(ValidationContext& c, uint32_t i) {
  if (i >= c.numInputs()) return c.fail("missing input %u", i);
  if (c.isOmitted(i))
    return c.fail("input %u (operand %u) is required but has no value", i, c.inputOperandIndex(i));
  return kOk;
}

// Input i must have one of `allowed`; records the feature level its type needs.
inline Status checkTensorTypeSince(ValidationContext& c, uint32_t i,
                                   std::initializer_list<TypeSince> allowed) {
  NN_RETURN_IF_ERROR(requirePresent(c, i));
  const OperandType t = c.inputType(i);
  for (const TypeSince& a : allowed) {
    if (a.type == t) {
      c.requireFeatureLevel(a.level);
      return kOk;
    }
  }
  std::string names;
  for (const TypeSince& a : allowed) {
    if (!names.empty()) names += ", ";
    names += toString(a.type);
  }
  return c.fail("input %u (operand %u): unsupported type %s (expected one of %s)", i,
                c.inputOperandIndex(i), toString(t), names.c_str());
}

// Output o must have the type of input i and, for 8-bit asymmetric types, the same
// scale and zero point (the operation only moves bytes).
inline Status checkOutputLikeInput(ValidationContext& c, uint32_t o, uint32_t i,
                                   bool requireSameQuant = true) {
  if (o >= c.numOutputs()) return c.fail("missing output %u", o);
  const Operand& in = c.input(i);
  const Operand& out = c.output(o);
  if (out.type != in.type)
    return c.fail("output %u: type %s differs from input %u type %s", o, toString(out.type), i,
                  toString(in.type));
  if (requireSameQuant && isQuant8(in.type) &&
      (out.scale != in.scale || out.zeroPoint != in.zeroPoint))
    return c.fail("output %u: scale/zeroPoint (%g, %d) must equal input %u's (%g, %d)", o,
                  out.scale, out.zeroPoint, i, in.scale, in.zeroPoint);
  return kOk;
}

// Optional trailing BOOL scalar input (e.g. the NCHW layout flag, API level 29+).
inline bool hasOptionalInput(const ValidationContext& c, uint32_t i) {
  return i < c.numInputs() && !c.isOmitted(i);
}
inline Status checkOptionalBool(ValidationContext& c, uint32_t i, int64_t since) {
  if (!hasOptionalInput(c, i)) return kOk;
  NN_RETURN_IF_ERROR(c.checkInputType(i, OperandType::BOOL));
  c.requireFeatureLevel(since);
  return kOk;
}

// Reads an optional BOOL scalar during prepare/execute. Returns false when the value is
// needed but not available yet (non-constant at compile time).
inline bool readOptionalBool(const ShapeContext& ctx, uint32_t i, bool* value) {
  *value = false;
  if (i >= ctx.numInputs() || ctx.isOmitted(i)) return true;
  if (!ctx.hasInputData(i)) return false;
  *value = ctx.scalar<uint8_t>(i) != 0;
  return true;
}

// Runs fn(T{}) with an unsigned integer type of the element's byte size, so one kernel
// serves every tensor type of that width.
template <typename F>
Status withElementType(uint32_t bytes, F&& fn) {
  switch (bytes) {
    case 1: return fn(uint8_t{});
    case 2: return fn(uint16_t{});
    case 4: return fn(uint32_t{});
    default: return ErrorStatus::GENERAL_FAILURE;
  }
}

inline std::vector<int32_t> readInt32Vector(const ShapeContext& ctx, uint32_t i) {
  const size_t n = static_cast<size_t>(ctx.inputShape(i).count());
  std::vector<int32_t> v(n);
  if (n) memcpy(v.data(), ctx.inputData(i), n * sizeof(int32_t));
  return v;
}

// Row-major strides of dims (in elements).
inline std::vector<size_t> stridesOf(const Dims& d) {
  std::vector<size_t> s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return s;
}

// Logical N/H/W/C extents and element strides of a 4-D tensor in NHWC or NCHW layout.
struct Image4 {
  uint32_t n, h, w, c;
  size_t sn, sh, sw, sc;
};
inline Image4 image4(const Dims& d, bool nchw) {
  Image4 r{};
  if (nchw) {
    r.n = d[0]; r.c = d[1]; r.h = d[2]; r.w = d[3];
    r.sw = 1; r.sh = r.w; r.sc = size_t(r.h) * r.w; r.sn = r.sc * r.c;
  } else {
    r.n = d[0]; r.h = d[1]; r.w = d[2]; r.c = d[3];
    r.sc = 1; r.sw = r.c; r.sh = size_t(r.w) * r.c; r.sn = r.sh * r.h;
  }
  return r;
}
inline Dims makeImageDims(uint32_t n, uint32_t h, uint32_t w, uint32_t c, bool nchw) {
  return nchw ? Dims{n, c, h, w} : Dims{n, h, w, c};
}

// Copies `count` channel values between two images with possibly different channel strides.
template <typename T>
inline void copyChannels(T* dst, size_t dstStride, const T* src, size_t srcStride, uint32_t count) {
  if (dstStride == 1 && srcStride == 1) {
    memcpy(dst, src, count * sizeof(T));
  } else {
    for (uint32_t i = 0; i < count; ++i) dst[i * dstStride] = src[i * srcStride];
  }
}
template <typename T>
inline void fillChannels(T* dst, size_t dstStride, T value, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) dst[i * dstStride] = value;
}

// The byte pattern of "logical zero" for a tensor: the zero point for 8-bit asymmetric
// types, all-zero bits otherwise.
inline uint8_t zeroByte(const Shape& s) {
  return isQuant8(s.type) ? static_cast<uint8_t>(s.zeroPoint) : 0;
}

}  // namespace shape_ops
}  // namespace nn
