// The plugin loader's pure parts: .conf parsing, the required-slot check, result-code mapping.
#include <gtest/gtest.h>

#include "runtime/plugin_loader.h"
#include "runtime/sl_device.h"

namespace nn {
namespace {

TEST(PluginLoader, ParsesConfLinesCommentsAndBlanks) {
  EXPECT_EQ(parseDriverConf("# header\n\n  /a/b.so  \n/c.so # trailing\n\t#only comment\r\n/d e.so\r\n"),
            (std::vector<std::string>{"/a/b.so", "/c.so", "/d e.so"}));
  EXPECT_TRUE(parseDriverConf("").empty());
  EXPECT_TRUE(parseDriverConf("#x\n   \n").empty());
}

TEST(PluginLoader, NamesTheFirstMissingSlot) {
  NnApiSLDriverImplFL8 table{};
  ASSERT_NE(firstMissingSlot(table), nullptr);
  EXPECT_STREQ(firstMissingSlot(table), "ANeuralNetworks_getDeviceCount");
  // Fill every slot with a dummy pointer, then clear one the runtime calls.
  auto** slots = reinterpret_cast<void**>(&table.base.ANeuralNetworksBurst_create);
  for (size_t i = 0; i < 106; ++i) slots[i] = reinterpret_cast<void*>(&table);
  EXPECT_EQ(firstMissingSlot(table), nullptr);
  table.base.ANeuralNetworksExecution_getDuration = nullptr;
  EXPECT_STREQ(firstMissingSlot(table), "ANeuralNetworksExecution_getDuration");
}

TEST(PluginLoader, MapsResultCodes) {
  EXPECT_EQ(errorStatusFromResultCode(ANEURALNETWORKS_NO_ERROR), ErrorStatus::NONE);
  EXPECT_EQ(errorStatusFromResultCode(ANEURALNETWORKS_OP_FAILED), ErrorStatus::GENERAL_FAILURE);
  EXPECT_EQ(errorStatusFromResultCode(ANEURALNETWORKS_BAD_DATA), ErrorStatus::INVALID_ARGUMENT);
  EXPECT_EQ(errorStatusFromResultCode(ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT),
            ErrorStatus::MISSED_DEADLINE_PERSISTENT);
  EXPECT_EQ(errorStatusFromResultCode(ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE),
            ErrorStatus::OUTPUT_INSUFFICIENT_SIZE);
  EXPECT_EQ(errorStatusFromResultCode(12345), ErrorStatus::GENERAL_FAILURE);
}

}  // namespace
}  // namespace nn
