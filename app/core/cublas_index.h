// The finished cuBLAS runs of a session by what pairs them with a run (CublasPairing), so that
// finding a run's cuBLAS run is a look-up, not a scan of every run: the results table asks once per
// row (sorting or sizing a 50,000-run table was quadratic), the against-cuBLAS views once per
// selection (10-15 ms at 100,000 runs, in the first switch to Counters).
#pragma once

#include "run_against_cublas.h"

#include <QHash>
#include <QList>

namespace gemmscope {

// Whether `run` is one of cuBLAS's (FP32 or TF32): a run others are held against.
bool isCublasRun(const RunRecord &run);

class CublasIndex {
public:
    // The rows of `runs` that are finished cuBLAS runs, by pairing.
    void rebuild(const QList<RunRecord> &runs) { fill(runs); }
    // The list changed: rebuilt at the next look-up.
    void invalidate() { m_valid = false; }

    // Whether a cuBLAS run may be held against itself: the results table's cuBLAS row is 100 % of
    // cuBLAS; the against-cuBLAS views look for another run.
    enum class Itself { Counted, Skipped };
    // The finished run of `baseline` paired with `run` in `runs` (the list this index was built
    // from, or is rebuilt from now), nearest in time; nullptr where there is none.
    const RunRecord *nearest(const RunRecord &run, StageId baseline, const QList<RunRecord> &runs,
                             Itself itself) const;

private:
    void fill(const QList<RunRecord> &runs) const;
    mutable QHash<CublasPairing, QList<qsizetype>> m_rows;
    mutable bool m_valid = false;
};

} // namespace gemmscope
