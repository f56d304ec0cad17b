// Masks of the first n lanes of a 16- or 32-lane vector (all lanes from 16 or 32 on), for the
// ISA files' tails. Internal linkage (the ISA files' ODR rule, conv_isa.h): each file that
// includes this, compiled with its own target flags, keeps its own copy.
#pragma once

#include <cstddef>

#include "cpu/kernels/isa/intrinsics.h"

namespace nn {
namespace {

inline __mmask16 laneMask16(size_t n) {
  return n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
}
inline __mmask32 laneMask32(size_t n) {
  return n >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << n) - 1);
}

}  // namespace
}  // namespace nn
