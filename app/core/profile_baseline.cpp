#include "profile_baseline.h"

#include "profile_stalls.h"
#include "stall_reasons.h"

#include <algorithm>
#include <cmath>

namespace gemmscope {

using protocol::ProfileEvent;
using namespace profile_values;

QString limiterGroupTitle(LimiterGroup group)
{
    switch (group) {
    case LimiterGroup::Occupancy:
        return QStringLiteral("Occupancy and issue");
    case LimiterGroup::Pipes:
        return QStringLiteral("Pipe use");
    case LimiterGroup::Memory:
        return QStringLiteral("Memory throughput (% of peak)");
    case LimiterGroup::Stalls:
        return QStringLiteral("Top stall reasons (% of samples)");
    case LimiterGroup::Mix:
        return QStringLiteral("Instruction mix (% of instructions)");
    }
    return {};
}

namespace {

struct LimiterSpec {
    const char *metric, *label, *meaning;
    LimiterGroup group;
};

constexpr LimiterSpec kPercentLimiters[] = {
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved occupancy",
     "%1 keeps more warps resident to hide latency with", LimiterGroup::Occupancy},
    {"sm__inst_issued.avg.pct_of_peak_sustained_active", "Issue slots used",
     "%1's schedulers issue an instruction in more of their cycles", LimiterGroup::Occupancy},
    {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe busy",
     "%1 keeps its FP32 multiply-add pipe busy for more of the time", LimiterGroup::Pipes},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "Tensor pipe busy",
     "%1 keeps the tensor cores busy for more of the time", LimiterGroup::Pipes},
    {"sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active", "FP16 and tensor (shared) pipe busy",
     "%1 keeps the pipe FP16 and tensor instructions share busy for more of the time", LimiterGroup::Pipes},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", "L1/shared throughput",
     "%1 moves more through L1 and shared memory", LimiterGroup::Memory},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed", "L2 throughput", "%1 moves more through L2",
     LimiterGroup::Memory},
    {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM throughput", "%1 moves more through DRAM",
     LimiterGroup::Memory},
};

struct MixSpec {
    const char *metric, *label;
};
constexpr MixSpec kMix[] = {
    {"smsp__inst_executed_pipe_fma.sum", "FMA-pipe instructions"},
    {"smsp__inst_executed_pipe_tensor.sum", "Tensor-pipe instructions"},
    {"smsp__inst_executed_pipe_alu.sum", "ALU-pipe instructions (integer, logic)"},
    {"smsp__inst_executed_pipe_lsu.sum", "Load/store-pipe instructions"},
    {"smsp__inst_executed_pipe_uniform.sum", "Uniform-pipe instructions"},
    {"smsp__sass_inst_executed_op_shared.sum", "Shared-memory instructions"},
    {"smsp__sass_inst_executed_op_global.sum", "Global-memory instructions"},
};

std::optional<double> limiter(const ProfileEvent &p, const char *metric)
{
    const auto it = p.limiters.constFind(QLatin1String(metric));
    return it == p.limiters.constEnd() ? std::nullopt : usableCount(*it);
}

std::optional<double> mixShare(const ProfileEvent &p, const char *metric)
{
    const auto all = limiter(p, "smsp__inst_executed.sum");
    const auto part = limiter(p, metric);
    if (!all || !part || *all <= 0)
        return std::nullopt;
    return 100.0 * *part / *all;
}

QString notes(const ProfileEvent &p)
{
    QStringList parts;
    if (!p.limitersError.isEmpty())
        parts << p.limitersError;
    if (!p.stallsError.isEmpty())
        parts << p.stallsError;
    return parts.join(QLatin1Char(' '));
}

void appendSentence(QString &text, const QString &sentence)
{
    if (!sentence.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral(" ")) + sentence;
}

QString pct(double v)
{
    return QString::number(v, 'f', v >= 9.95 || v == 0 ? 0 : 1) + QStringLiteral(" %");
}

} // namespace

BaselineComparison compareWithBaseline(const ProfileEvent &candidate, const ProfileEvent &baseline,
                                       const QString &candidateName, const QString &baselineName)
{
    BaselineComparison c;
    for (const LimiterSpec &s : kPercentLimiters) {
        LimiterRow row{
            QString::fromLatin1(s.metric), QString::fromLatin1(s.label), s.group,
            limiter(candidate, s.metric),  limiter(baseline, s.metric),  QString::fromLatin1(s.meaning)};
        if (row.candidate || row.baseline)
            c.rows.append(row);
    }
    // The reasons that lead either kernel's samples, up to five.
    const StallBreakdown cs = stallBreakdown(candidate), bs = stallBreakdown(baseline);
    QStringList reasons;
    for (int rank = 0; rank < 4; ++rank)
        for (const StallBreakdown *b : {&cs, &bs})
            if (rank < b->reasons.size() && !reasons.contains(b->reasons.at(rank).key) && reasons.size() < 5)
                reasons << b->reasons.at(rank).key;
    const auto shareIn = [](const StallBreakdown &b, const QString &key) -> std::optional<double> {
        if (b.totalSamples <= 0)
            return std::nullopt;
        for (const ReasonShare &r : b.reasons)
            if (r.key == key)
                return 100.0 * r.share;
        return 0.0;
    };
    for (const QString &key : reasons)
        c.rows.append({QStringLiteral("stall:") + key, stallReasonName(key), LimiterGroup::Stalls,
                       shareIn(cs, key), shareIn(bs, key), QString()});
    for (const MixSpec &m : kMix) {
        LimiterRow row{QStringLiteral("mix:") + QString::fromLatin1(m.metric),
                       QString::fromLatin1(m.label),
                       LimiterGroup::Mix,
                       mixShare(candidate, m.metric),
                       mixShare(baseline, m.metric),
                       QString()};
        if (row.candidate || row.baseline)
            c.rows.append(row);
    }

    c.costs = rankCosts(candidate, baseline, candidateName, baselineName);
    c.candidateNotes = notes(candidate);
    c.baselineNotes = notes(baseline);
    if (!c.costs.headline.isEmpty()) {
        c.largestDifference = c.costs.headline;
        appendSentence(c.largestDifference, c.costs.notes);
        return c;
    }
    const LimiterRow *largest = nullptr;
    for (const LimiterRow &row : std::as_const(c.rows))
        if (row.candidate && row.baseline && row.group != LimiterGroup::Memory &&
            (!largest ||
             std::abs(*row.candidate - *row.baseline) > std::abs(*largest->candidate - *largest->baseline)))
            largest = &row;
    if (largest && std::abs(*largest->candidate - *largest->baseline) > 0) {
        const double a = *largest->candidate, b = *largest->baseline;
        const QString points = QString::number(std::abs(a - b), 'f', std::abs(a - b) >= 9.95 ? 0 : 1);
        if (largest->group == LimiterGroup::Stalls)
            c.largestDifference =
                QStringLiteral("The largest difference: %1 takes %2 of %3's samples against %4 of "
                               "%5's (%6 percentage points).")
                    .arg(largest->label, pct(a), candidateName, pct(b), baselineName, points);
        else if (largest->group == LimiterGroup::Mix)
            c.largestDifference =
                QStringLiteral("The largest difference: %1 are %2 of %3's instructions against %4 "
                               "of %5's (%6 percentage points).")
                    .arg(largest->label, pct(a), candidateName, pct(b), baselineName, points);
        else {
            // "Issue slots used" reads "issue slots used" mid-sentence; "FMA", "L2", "DRAM" stay.
            QString label = largest->label;
            if (label.size() > 1 && label.at(1).isLower())
                label[0] = label.at(0).toLower();
            const QString &ahead = a > b ? candidateName : baselineName;
            c.largestDifference =
                QStringLiteral("The largest difference is in %1: %2 for %3 against %4 for %5 (%6 "
                               "percentage points): %7.")
                    .arg(label, pct(a), candidateName, pct(b), baselineName, points,
                         largest->meaning.arg(ahead));
        }
        const auto all = limiter(candidate, "smsp__inst_executed.sum");
        const auto base = limiter(baseline, "smsp__inst_executed.sum");
        if (all && base && *base > 0)
            c.largestDifference +=
                QStringLiteral(" %1 executes %2x the warp instructions of %3.")
                    .arg(candidateName, QString::number(*all / *base, 'f', 2), baselineName);
    }
    if (!c.largestDifference.isEmpty())
        appendSentence(c.largestDifference, c.costs.notes);
    return c;
}

} // namespace gemmscope
