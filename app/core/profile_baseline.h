// "Why not cuBLAS?": a profile's limiters (occupancy, issue slots, pipes, memory throughput, top
// stall reasons, instruction mix) beside its cuBLAS baseline's, and the differences ranked by their
// estimated cost in time (profile_cost.h) with a sentence naming the costliest.
#pragma once

#include "profile_cost.h"
#include "profile_values.h"

#include <QList>
#include <QString>
#include <optional>

namespace gemmscope {

enum class LimiterGroup { Occupancy, Pipes, Memory, Stalls, Mix };

struct LimiterRow {
    QString key;   // the CUPTI metric, "stall:<reason>" or "mix:<pipe>"
    QString label; // "Achieved occupancy"
    LimiterGroup group = LimiterGroup::Occupancy;
    std::optional<double> candidate, baseline; // % (0..100 for the views; a file may say more)
    QString meaning;                           // what a higher value says, for the sentence and tooltips
};

struct BaselineComparison {
    QList<LimiterRow> rows; // in the groups' order
    CostRanking costs;      // the differences by estimated cost in time, costliest first
    // The sentence over the bars: the costliest term (costs.headline); where nothing can be costed
    // (no bound unit measured), the largest difference of occupancy, issue, pipes, stalls or mix —
    // never a throughput, which limits nothing far below its peak. Empty: nothing to compare.
    QString largestDifference;
    QString candidateNotes, baselineNotes; // the parts that failed (their error sentences)
};
BaselineComparison compareWithBaseline(const protocol::ProfileEvent &candidate,
                                       const protocol::ProfileEvent &baseline, const QString &candidateName,
                                       const QString &baselineName);
QString limiterGroupTitle(LimiterGroup group);

} // namespace gemmscope
