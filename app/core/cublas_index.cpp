#include "cublas_index.h"

#include <cstdlib>

namespace gemmscope {

bool isCublasRun(const RunRecord &run)
{
    return run.stage == StageId::CublasFp32 || run.stage == StageId::CublasTf32;
}

void CublasIndex::fill(const QList<RunRecord> &runs) const
{
    m_rows.clear();
    for (qsizetype i = 0; i < runs.size(); ++i)
        if (isCublasRun(runs[i]) && runs[i].isOk())
            m_rows[cublasPairingOf(runs[i], runs[i].stage)].append(i);
    m_valid = true;
}

const RunRecord *CublasIndex::nearest(const RunRecord &run, StageId baseline, const QList<RunRecord> &runs,
                                      Itself itself) const
{
    if (!m_valid)
        fill(runs);
    const RunRecord *best = nullptr;
    qint64 bestDistance = 0;
    for (const qsizetype row : m_rows.value(cublasPairingOf(run, baseline))) {
        if (row >= runs.size() || runs[row].stage != baseline)
            continue; // a change whose signal has not arrived yet
        const RunRecord &c = runs[row];
        if (itself == Itself::Skipped && c.runId == run.runId)
            continue;
        const qint64 distance = c.timestamp.isValid() && run.timestamp.isValid()
                                    ? std::abs(c.timestamp.msecsTo(run.timestamp))
                                    : 0;
        if (!best || distance < bestDistance) {
            best = &c;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace gemmscope
