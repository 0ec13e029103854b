// What gemmscope-bench says: the report on standard output (flushed at once, so that a long run
// shows its progress), refusals and failures on standard error, one line each.
#pragma once

#include <QString>
#include <cstdio>

namespace gemmscope::bench {

inline void print(const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stdout);
    std::fflush(stdout);
}

inline void printError(const QString &text)
{
    std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
}

} // namespace gemmscope::bench
