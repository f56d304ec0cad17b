#include "cts_api.h"

#include "cts_names.h"

namespace cts {

namespace {

Api initialApi() {
    Api a;
    a.resultCodeName = localResultCodeName;
    a.operationCodeFromName = localOperationCodeFromName;
    return a;
}

Api& current() {
    static Api table = initialApi();
    return table;
}

}  // namespace

const Api& api() { return current(); }
void setApi(const Api& table) { current() = table; }

}  // namespace cts
