// Test helper: a file of tests/data as text; a missing one ends the test program with its name.
#pragma once

#include <QFile>
#include <QString>

namespace gemmscope::test {

inline QString readTestData(const char *name)
{
    QFile f(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/") + QLatin1String(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data %s", name);
    return QString::fromUtf8(f.readAll());
}

} // namespace gemmscope::test
