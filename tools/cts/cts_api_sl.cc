// nnapi-cts-sl: the table filled from an NNAPI Support Library, dlopen + the one symbol
// ANeuralNetworks_getSLDriverImpl, read the way loaders do (ABI.md 4.2). This binary does not
// link libneuralnetworks, so every call really goes through the SL table.
#include <android/NeuralNetworksSupportLibraryImpl.h>
#include <dlfcn.h>

#include "cts_api.h"
#include "cts_names.h"

namespace cts {

const char* toolName() { return "nnapi-cts-sl"; }

bool installApi(const std::string& slPath, std::string* error) {
    if (slPath.empty()) {
        *error = "--sl PATH is required (the NNAPI Support Library to test)";
        return false;
    }
    // Never unloaded: the table and the runtime's threads live as long as the process.
    void* handle = dlopen(slPath.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == nullptr) {
        const char* why = dlerror();
        *error = "dlopen " + slPath + ": " + (why ? why : "failed");
        return false;
    }
    using GetImpl = NnApiSLDriverImpl* (*)();
    auto getImpl = reinterpret_cast<GetImpl>(dlsym(handle, "ANeuralNetworks_getSLDriverImpl"));
    if (getImpl == nullptr) {
        *error = slPath + " has no ANeuralNetworks_getSLDriverImpl: not an NNAPI Support Library";
        return false;
    }
    const NnApiSLDriverImpl* impl = getImpl();
    if (impl == nullptr) {
        *error = "ANeuralNetworks_getSLDriverImpl returned NULL";
        return false;
    }
    if (impl->implFeatureLevel < ANEURALNETWORKS_FEATURE_LEVEL_5) {
        *error = "SL implFeatureLevel " + std::to_string(impl->implFeatureLevel) +
                 " is below feature level 5 (31); no table layout exists for it";
        return false;
    }
    // FL5..FL7 tables are NnApiSLDriverImplFL5; FL8 extends it. The runner needs only the FL5
    // part, so both are read through the FL5 layout.
    const auto* t = reinterpret_cast<const NnApiSLDriverImplFL5*>(impl);
    Api a;
    std::string missing;
#define CTS_API_FROM_SL(name)                        \
    a.name = t->name;                                \
    if (a.name == nullptr) missing += " " #name;
    CTS_SL_FUNCTIONS(CTS_API_FROM_SL)
#undef CTS_API_FROM_SL
    if (!missing.empty()) {
        *error = "the SL table has NULL slots:" + missing;
        return false;
    }
    a.resultCodeName = localResultCodeName;
    a.operationCodeFromName = localOperationCodeFromName;
    a.origin = "SL " + slPath + " (implFeatureLevel " + std::to_string(impl->implFeatureLevel) + ")";
    setApi(a);
    return true;
}

bool apiNeedsSupportLibrary() { return true; }

}  // namespace cts
