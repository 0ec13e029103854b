#include "app_resources.h"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initGemmscopeResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace gemmscope {
void initResources()
{
    static const bool done = (initGemmscopeResources(), true);
    Q_UNUSED(done);
}
} // namespace gemmscope
