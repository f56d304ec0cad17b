// Seed programs for the model-building fuzzer: known-valid graphs in the fuzzer's byte format.
#pragma once

#include <string>

namespace modelfuzz {

// Writes the seed corpus into `dir` (one file per graph and execution mode); false on error.
bool writeSeeds(const std::string& dir);

}  // namespace modelfuzz
