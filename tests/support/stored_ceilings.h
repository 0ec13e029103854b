// Test helper: a session's ceilings entry for one GPU (session.h, StoredCeilings) from its figures.
#pragma once

#include "session.h"

namespace gemmscope::test {

inline StoredCeilings storedCeilings(double fmaTflops, double dramGbs, const QString &origin,
                                     const QString &measuredAt = {})
{
    StoredCeilings c;
    c.fmaTflops = fmaTflops;
    c.dramGbs = dramGbs;
    c.origin = origin;
    c.measuredAt = measuredAt;
    return c;
}

} // namespace gemmscope::test
