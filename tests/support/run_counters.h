// Test helper: give a RunRecord the hardware counters a runner's result carries (docs/protocol.md,
// "counters"), both as the typed field the views read and in `raw`, as a session stores them.
#pragma once

#include "run_record.h"

#include <QJsonObject>

namespace gemmscope::test {

inline void setCounters(RunRecord &run, const QJsonObject &counters)
{
    run.raw.insert(QStringLiteral("counters"), counters);
    protocol::Counters typed;
    protocol::fromJson(counters, typed);
    run.counters = typed;
}

inline void clearCounters(RunRecord &run)
{
    run.raw.remove(QStringLiteral("counters"));
    run.counters.reset();
}

} // namespace gemmscope::test
