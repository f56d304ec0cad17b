// Upper bound on the bytes of one operand the CPU driver allocates at execution time.
// Shapes computed from run-time values (TILE multiples, FILL dims, PAD amounts, ...) can ask
// for absurd sizes; checking them against this bound turns them into a clean error before
// any allocation instead of an exhausted process.
#pragma once

#include <cstddef>

namespace nn {

// $NNAPI_MAX_OPERAND_BYTES if set (bytes, > 0); else half of the physical memory, lowered to
// half of RLIMIT_AS when the process has an address-space limit.
size_t maxOperandBytes();

}  // namespace nn
