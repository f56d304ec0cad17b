// Run-time ISA selection for plain C++ loops. The library is compiled for baseline x86-64, so
// simple elementwise loops would only get SSE2. runVectorized(fn, begin, end) calls fn inside a
// function compiled for AVX2+FMA or AVX-512 (whichever isaLevel() allows, NNAPI_CPU_ISA caps
// it) with everything fn calls flattened into it, so the compiler vectorizes the loop for that
// ISA. Only these wrappers carry the target attribute; no baseline caller can end up in wide
// code, because the wrappers are entered only after the run-time check.
#pragma once

#include <cstddef>

#include "cpu/isa.h"

namespace nn {
namespace vectorize {

template <typename Fn>
__attribute__((target("avx2,fma,avx512f,avx512bw,avx512vl,avx512dq"), flatten)) void
runAvx512(const Fn& fn, size_t begin, size_t end) {
  fn(begin, end);
}

template <typename Fn>
__attribute__((target("avx2,fma"), flatten)) void runAvx2(const Fn& fn, size_t begin,
                                                          size_t end) {
  fn(begin, end);
}

template <typename Fn>
inline void runVectorized(const Fn& fn, size_t begin, size_t end) {
  switch (isaLevel()) {
    case IsaLevel::kAvx512:
      runAvx512(fn, begin, end);
      return;
    case IsaLevel::kAvx2:
      runAvx2(fn, begin, end);
      return;
    default:
      fn(begin, end);
  }
}

}  // namespace vectorize
}  // namespace nn
