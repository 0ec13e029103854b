// Test helper: an environment variable set for a scope (GEMMSCOPE_RUNNER, say), as it was after.
#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace gemmscope::test {

struct ScopedEnv {
    QByteArray name, old;
    bool had;
    ScopedEnv(const char *n, const QByteArray &value)
        : name(n), old(qgetenv(n)), had(qEnvironmentVariableIsSet(n))
    {
        qputenv(n, value);
    }
    ~ScopedEnv() { had ? qputenv(name, old) : qunsetenv(name); }
};

} // namespace gemmscope::test
