#include "run_choice.h"

#include "mapping_model.h"
#include "session.h"

namespace gemmscope {

QString runToExplain(const Session &session)
{
    const auto modelledWithCounters = [](const RunRecord &run) {
        const StageInfo *stage = findStage(run.stage.key());
        return run.isOk() && run.counters && !run.counters->hasError() && run.counters->access && stage &&
               kernelShape(stage->id, paramValuesOf(run)).shape.has_value();
    };
    QString chosen, lastOk;
    for (const RunRecord &run : session.runs()) {
        if (run.isOk())
            lastOk = run.runId;
        if (!modelledWithCounters(run))
            continue;
        if (run.presetKey == QLatin1String("worklog-3"))
            return run.runId;
        chosen = run.runId;
    }
    return chosen.isEmpty() ? lastOk : chosen;
}

} // namespace gemmscope
