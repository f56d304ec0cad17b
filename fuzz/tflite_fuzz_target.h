#pragma once
#include <cstddef>
#include <cstdint>

// Outcome of one fuzz input, for the smoke driver's statistics.
enum { kFuzzParseError = 0, kFuzzInvalid = 1, kFuzzValid = 2, kFuzzImported = 3 };
int TfliteFuzzOne(const uint8_t* data, size_t size);
