// The conformance runner's own name tables (used by nnapi-cts-sl, which cannot call the
// runtime's ANNLinux_* functions) must say exactly what the runtime says, for every code.
#include <android/NeuralNetworksDiagnostics.h>
#include <gtest/gtest.h>

#include <string>

#include "cts_names.h"

namespace {

std::string orNull(const char* s) { return s ? s : "(null)"; }

TEST(CtsNames, OperationNamesMatchTheRuntime) {
  int named = 0;
  for (int32_t code = -2; code <= 20010; ++code) {
    const char* runtime = ANNLinux_operationName(code);
    EXPECT_EQ(orNull(cts::localOperationName(code)), orNull(runtime)) << "code " << code;
    if (runtime == nullptr) continue;
    ++named;
    EXPECT_EQ(cts::localOperationCodeFromName(runtime), code) << runtime;
    EXPECT_EQ(ANNLinux_operationCodeFromName(runtime), code) << runtime;
  }
  EXPECT_GE(named, 106);
  EXPECT_EQ(cts::localOperationCodeFromName("NOT_AN_OPERATION"), -1);
  EXPECT_EQ(cts::localOperationCodeFromName(nullptr), -1);
}

TEST(CtsNames, ResultCodeNamesMatchTheRuntime) {
  for (int code = -1; code <= 20; ++code)
    EXPECT_STREQ(cts::localResultCodeName(code), ANNLinux_resultCodeName(code)) << code;
}

}  // namespace
