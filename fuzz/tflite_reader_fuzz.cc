// Fuzz target for the .tflite reader: parse, validate and (for valid models) plan the NNAPI
// import, which walks every operator's inputs, options and constant buffers. Nothing here calls
// the NNAPI runtime, so the target runs without libneuralnetworks.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tflite_fuzz_target.h"
#include "tflite_importer.h"
#include "tflite_model.h"

int TfliteFuzzOne(const uint8_t* data, size_t size) {
  nnapi_tflite::Model model;
  std::string error;
  if (!nnapi_tflite::ParseModel(data, size, &model, &error)) {
    // Every rejection must say why; an empty message would be a reader bug.
    if (error.empty()) __builtin_trap();
    return kFuzzParseError;
  }
  if (!nnapi_tflite::ValidateModel(model, &error)) {
    if (error.empty()) __builtin_trap();
    return kFuzzInvalid;
  }
  nnapi_tflite::NnGraph graph;
  nnapi_tflite::ImportReport report;
  nnapi_tflite::ImportOptions options;
  options.allow_partial = true;
  bool ok = nnapi_tflite::PlanImport(model, options, &graph, &report);
  return ok ? kFuzzImported : kFuzzValid;
}

#ifdef NNAPI_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  TfliteFuzzOne(data, size);
  return 0;
}
#endif
