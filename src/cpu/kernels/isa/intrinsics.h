#pragma once

// <immintrin.h> for the ISA-specific kernel files. GCC 12's AVX-512 headers seed unused result
// lanes from a self-initialized variable, which -W(maybe-)uninitialized reports at every inlined
// use (e.g. _mm512_min_ps / _mm512_max_ps); the warnings are silenced for the header only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
