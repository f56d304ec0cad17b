// Run-time instruction-set selection. The library is compiled for baseline x86-64; kernels
// built for wider ISAs (per file, with target flags) are chosen here at run time from what the
// processor and OS support, capped by NNAPI_CPU_ISA=baseline|avx2|avx512 so tests can cover
// every path on one machine (avx512novnni: AVX-512 without VNNI; avx512vnni: AVX-512 + VNNI
// without AMX and AVX512-FP16; avx512fp16: AVX-512 + VNNI + AVX512-FP16 without AMX).
#pragma once

namespace nn {

enum class IsaLevel : int {
  kBaseline = 0,  // x86-64 (SSE2)
  kAvx2 = 1,      // AVX2 + FMA (Haswell)
  kAvx512 = 2,    // AVX-512 F/BW/VL/DQ (Skylake-SP)
};

struct CpuFeatures {
  // Usable features after the NNAPI_CPU_ISA cap (a feature above the cap reads false).
  bool avx2 = false;
  bool fma = false;
  bool f16c = false;
  bool avx512f = false;
  bool avx512bw = false;
  bool avx512vl = false;
  bool avx512dq = false;
  bool avx512vnni = false;
  bool avx512fp16 = false;
  bool amxTile = false;
  bool amxInt8 = false;
  bool amxBf16 = false;
};

// Detected once (cpuid + xgetbv), then capped by NNAPI_CPU_ISA.
const CpuFeatures& cpuFeatures();
IsaLevel isaLevel();
const char* isaLevelName(IsaLevel level);

// AMX-INT8 tiles usable by this process: the processor has them, NNAPI_CPU_ISA does not cap
// them (avx512vnni or lower), NNAPI_CPU_AMX is not 0, and Linux granted the XTILEDATA
// permission (arch_prctl ARCH_REQ_XCOMP_PERM, asked once per process on first call). False
// otherwise, never an error.
bool amxInt8Usable();
// NNAPI_CPU_AMX=all: the AMX GEMM also for GEMMs with few rows, where VNNI is as fast (so that
// the conformance vectors, all small, run on the tiles; tests/CMakeLists.txt nnapi_cts_amx).
bool amxForAllSizes();

}  // namespace nn
