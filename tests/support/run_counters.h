// Test helper: give a RunRecord the hardware counters a runner's result carries (docs/protocol.md,
// "counters"), both as the typed field the views read and in its stored result event, as a session
// stores them.
#pragma once

#include "run_record.h"

#include <QJsonObject>

namespace gemmscope::test {

inline void storeCounters(RunRecord &run)
{
    protocol::ResultEvent result = run.event.result() ? *run.event.result() : protocol::ResultEvent{};
    result.counters = run.counters;
    run.event.setResult(result);
}

inline void setCounters(RunRecord &run, const QJsonObject &counters)
{
    protocol::Counters typed;
    protocol::fromJson(counters, typed);
    run.counters = typed;
    storeCounters(run);
}

inline void clearCounters(RunRecord &run)
{
    run.counters.reset();
    storeCounters(run);
}

} // namespace gemmscope::test
