#include "cpu/isa.h"

#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "hal/log.h"

namespace nn {
namespace {

uint64_t xgetbv0() {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<uint64_t>(edx) << 32) | eax;
}

CpuFeatures detect() {
  CpuFeatures f;
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  const bool osxsave = (c >> 27) & 1;
  const bool avx = (c >> 28) & 1;
  const bool fma = (c >> 12) & 1;
  const bool f16c = (c >> 29) & 1;
  if (!osxsave || !avx) return f;
  const uint64_t xcr0 = xgetbv0();
  const bool ymmState = (xcr0 & 0x6) == 0x6;
  const bool zmmState = (xcr0 & 0xe6) == 0xe6;
  const bool amxState = (xcr0 & 0x60000) == 0x60000;
  if (!ymmState) return f;
  unsigned maxLeaf = __get_cpuid_max(0, nullptr);
  if (maxLeaf < 7) return f;
  __cpuid_count(7, 0, a, b, c, d);
  f.fma = fma;
  f.f16c = f16c;
  f.avx2 = (b >> 5) & 1;
  if (zmmState) {
    f.avx512f = (b >> 16) & 1;
    f.avx512dq = (b >> 17) & 1;
    f.avx512bw = (b >> 30) & 1;
    f.avx512vl = (b >> 31) & 1;
    f.avx512vnni = (c >> 11) & 1;
    f.avx512fp16 = (d >> 23) & 1;
  }
  if (amxState) {
    f.amxBf16 = (d >> 22) & 1;
    f.amxTile = (d >> 24) & 1;
    f.amxInt8 = (d >> 25) & 1;
  }
  return f;
}

IsaLevel levelOf(const CpuFeatures& f) {
  if (f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq && f.avx2 && f.fma)
    return IsaLevel::kAvx512;
  if (f.avx2 && f.fma) return IsaLevel::kAvx2;
  return IsaLevel::kBaseline;
}

// NNAPI_CPU_ISA caps the level; an unknown value is ignored (the detected level stays).
CpuFeatures capped(CpuFeatures f) {
  const char* v = getenv("NNAPI_CPU_ISA");
  if (v == nullptr || *v == '\0') return f;
  IsaLevel cap;
  if (strcmp(v, "baseline") == 0 || strcmp(v, "sse2") == 0) cap = IsaLevel::kBaseline;
  else if (strcmp(v, "avx2") == 0) cap = IsaLevel::kAvx2;
  else if (strcmp(v, "avx512") == 0) cap = IsaLevel::kAvx512;
  else if (strcmp(v, "avx512novnni") == 0) {
    // AVX-512 without the int8 dot-product extension (Skylake-SP), to cover that path here.
    cap = IsaLevel::kAvx512;
    f.avx512vnni = false;
    f.avx512fp16 = false;
    f.amxTile = f.amxInt8 = f.amxBf16 = false;
  } else if (strcmp(v, "avx512vnni") == 0) {
    // AVX-512 + VNNI without the AMX tiles (nor AVX512-FP16: Ice Lake / Zen 4), to compare and
    // cover the VNNI int8 path here.
    cap = IsaLevel::kAvx512;
    f.amxTile = f.amxInt8 = f.amxBf16 = false;
    f.avx512fp16 = false;
  } else if (strcmp(v, "avx512fp16") == 0) {
    // AVX-512 + VNNI + AVX512-FP16 without the AMX tiles.
    cap = IsaLevel::kAvx512;
    f.amxTile = f.amxInt8 = f.amxBf16 = false;
  } else {
    return f;
  }
  if (cap < IsaLevel::kAvx512) {
    f.avx512f = f.avx512bw = f.avx512vl = f.avx512dq = f.avx512vnni = f.avx512fp16 = false;
    f.amxTile = f.amxInt8 = f.amxBf16 = false;
  }
  if (cap < IsaLevel::kAvx2) f.avx2 = f.fma = f.f16c = false;
  return f;
}

}  // namespace

const CpuFeatures& cpuFeatures() {
  static const CpuFeatures features = capped(detect());
  return features;
}

IsaLevel isaLevel() {
  static const IsaLevel level = levelOf(cpuFeatures());
  return level;
}

bool amxInt8Usable() {
  static const bool usable = [] {
    const CpuFeatures& f = cpuFeatures();
    if (!f.amxTile || !f.amxInt8 || isaLevel() < IsaLevel::kAvx512) return false;
    // On by default (checked on Sapphire Rapids tiles: bit-identical with VNNI, 2.4-4.6x its
    // speed on the MobileNet 1x1 / FULLY_CONNECTED GEMMs); NNAPI_CPU_AMX=0 turns it off.
    const char* setting = getenv("NNAPI_CPU_AMX");
    if (setting != nullptr && strcmp(setting, "0") == 0) {
      logInfo("AMX-INT8 present but not used (NNAPI_CPU_AMX=0)");
      return false;
    }
    // Linux (5.16+) keeps the 8 KiB tile data state off until a process asks for it; without
    // the grant the first tile instruction faults. 0x1023 = ARCH_REQ_XCOMP_PERM,
    // 18 = XFEATURE_XTILEDATA (spelled out: older headers lack the names).
    const long r = syscall(SYS_arch_prctl, 0x1023, 18);
    if (r != 0) {
      logInfo("AMX-INT8 not used: the kernel refused the XTILEDATA permission");
      return false;
    }
    return true;
  }();
  return usable;
}

bool amxForAllSizes() {
  static const bool all = [] {
    const char* setting = getenv("NNAPI_CPU_AMX");
    return setting != nullptr && strcmp(setting, "all") == 0;
  }();
  return all;
}

const char* isaLevelName(IsaLevel level) {
  switch (level) {
    case IsaLevel::kBaseline: return "baseline";
    case IsaLevel::kAvx2: return "avx2";
    case IsaLevel::kAvx512: return "avx512";
  }
  return "unknown";
}

}  // namespace nn
