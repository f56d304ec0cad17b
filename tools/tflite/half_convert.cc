#include "half_convert.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NNAPI_TFLITE_X86 1
#else
#define NNAPI_TFLITE_X86 0
#endif

namespace nnapi_tflite {

float HalfBitsToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: renormalise
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

namespace {

void WidenScalar(const uint8_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, src + 2 * i, 2);
    dst[i] = HalfBitsToFloat(h);
  }
}

#if NNAPI_TFLITE_X86
// VCVTPH2PS is exact for every half except signalling NaNs, which it quiets (sets the
// float's quiet bit). Blocks of 8 holding one (never in real weights) take the scalar path so
// the result stays bit-identical to HalfBitsToFloat.
__attribute__((target("avx,f16c"))) void WidenF16c(const uint8_t* src, float* dst, size_t n) {
  const __m128i magnitude = _mm_set1_epi16(0x7fff);
  const __m128i infinity = _mm_set1_epi16(0x7c00);
  const __m128i quietBit = _mm_set1_epi16(0x7e00);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
    const __m128i m = _mm_and_si128(h, magnitude);
    // Signalling NaN: 0x7c00 < |h| < 0x7e00 (signed 16-bit compares are fine below 0x8000).
    const __m128i snan = _mm_and_si128(_mm_cmpgt_epi16(m, infinity), _mm_cmplt_epi16(m, quietBit));
    if (_mm_movemask_epi8(snan) != 0) {
      WidenScalar(src + 2 * i, dst + i, 8);
      continue;
    }
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  WidenScalar(src + 2 * i, dst + i, n - i);
}

bool HaveF16c() {
  static const bool have = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  return have;
}
#endif

}  // namespace

void HalfToFloatArray(const uint8_t* src, float* dst, size_t n) {
#if NNAPI_TFLITE_X86
  if (HaveF16c()) {
    WidenF16c(src, dst, n);
    return;
  }
#endif
  WidenScalar(src, dst, n);
}

const char* HalfToFloatPath() {
#if NNAPI_TFLITE_X86
  if (HaveF16c()) return "f16c";
#endif
  return "scalar";
}

void FreeDeleter::operator()(uint8_t* p) const { std::free(p); }

uint8_t* ConstantArena::Allocate(size_t n) {
  constexpr size_t kChunk = size_t{16} << 20;
  constexpr size_t kAlign = 64;
  n = (n + kAlign - 1) / kAlign * kAlign;
  if (n == 0) n = kAlign;
  if (chunks_.empty() || capacity_ - used_ < n) {
    // A constant larger than a chunk gets a chunk of its own.
    const size_t size = std::max(n, kChunk);
    void* p = nullptr;
    if (posix_memalign(&p, 4096, size) != 0 || p == nullptr) return nullptr;
    chunks_.emplace_back(static_cast<uint8_t*>(p));
    used_ = 0;
    capacity_ = size;
  }
  uint8_t* p = chunks_.back().get() + used_;
  used_ += n;
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  // Issue 10 (import time): the caller writes every byte right away (a folded fp16 weight is
  // widened into it), and faulting tens of MB in one 4 KB exception at a time cost more than
  // the widening itself (pose_landmark_heavy: ~55 MB). One madvise(MADV_POPULATE_WRITE) over
  // the block's whole pages maps them in a batch (about half the time); kernels before 5.14
  // refuse it and the pages fault as before. Small blocks are not worth a system call.
  constexpr size_t kPrefaultMin = size_t{64} << 10;
  constexpr uintptr_t kPage = 4096;
  if (n >= kPrefaultMin) {
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + n) & ~(kPage - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
  }
#endif
  return p;
}

}  // namespace nnapi_tflite
