#include "profile_cost.h"

#include "gpu_specs.h"
#include "mapping_model.h"
#include "profile_stalls.h"
#include "stall_reasons.h"

#include <QMap>
#include <algorithm>
#include <cmath>

namespace gemmscope {

using protocol::ProfileEvent;
using namespace profile_values;

namespace {

constexpr const char *kTime = "gpu__time_duration.sum"; // ns
constexpr const char *kClock = "sm__cycles_elapsed.avg.per_second";
constexpr const char *kInstructions = "smsp__inst_executed.sum";

// The units a GEMM can be bound by, as their busy share (% of peak).
struct Unit {
    const char *metric, *name;
};
constexpr Unit kUnits[] = {
    {"sm__inst_issued.avg.pct_of_peak_sustained_active", "issue slots"},
    {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active", "FMA pipe"},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor pipe"},
};

std::optional<double> counterOf(const ProfileEvent &p, const char *metric)
{
    const auto it = p.limiters.constFind(QLatin1String(metric));
    return it == p.limiters.constEnd() ? std::nullopt : usableCount(*it);
}

std::optional<double> busyShare(const ProfileEvent &p, const char *metric)
{
    const auto v = counterOf(p, metric);
    return v ? std::optional<double>(std::clamp(*v / 100.0, 0.0, 1.0)) : std::nullopt;
}

QString costShareText(double share)
{
    return shareText(share);
}

// Samples by stall reason, the two "not waiting" states apart.
struct Waits {
    QMap<QString, double> byReason;
    double waiting = 0; // samples of every reason but issuing and ready
};
Waits waitsOf(const ProfileEvent &p)
{
    Waits w;
    for (const ReasonShare &r : stallBreakdown(p).reasons) {
        if (r.key == QLatin1String("selected") || r.key == QLatin1String("not_selected"))
            continue;
        w.byReason.insert(r.key, r.samples);
        w.waiting += r.samples;
    }
    return w;
}

// "pipelined.cuh:88": the line holding most of the candidate's samples of `reason`.
QString hottestLineOf(const QList<LineProfile> &lines, const QString &reason)
{
    const LineProfile *best = nullptr;
    for (const LineProfile &l : lines)
        if (l.byReason.value(reason) > 0 &&
            (!best || l.byReason.value(reason) > best->byReason.value(reason)))
            best = &l;
    return best ? QStringLiteral("%1:%2").arg(best->file).arg(best->line) : QString();
}

// "pipelined.cuh:73-76", "a.cuh:3, :9": the lines of a group of instructions, runs joined.
QString linesText(QString file, QList<int> lines)
{
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    QStringList runs;
    for (qsizetype i = 0; i < lines.size();) {
        qsizetype j = i;
        while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1)
            ++j;
        const QString run =
            j > i ? QStringLiteral("%1-%2").arg(lines[i]).arg(lines[j]) : QString::number(lines[i]);
        runs << (runs.isEmpty() ? file + QLatin1Char(':') + run : QLatin1Char(':') + run);
        i = j + 1;
    }
    return runs.join(QStringLiteral(", "));
}

struct BankGroup {
    MemoryDirection direction = MemoryDirection::Load;
    std::optional<Operand> operand;
    QString file;
    QList<int> lines;
    double excess = 0, wavefronts = 0, ideal = 0, executions = 0;
};

// The candidate's shared-memory instructions above their ideal, by direction, tile and file.
QList<BankGroup> bankGroupsOf(const QList<MemoryInstruction> &memory, double *total)
{
    QList<BankGroup> groups;
    *total = 0;
    for (const MemoryInstruction &m : memory) {
        if (m.space != MemorySpace::Shared || m.excess() <= 0)
            continue;
        *total += m.excess();
        const QString file = m.instruction->file;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const BankGroup &g) {
            return g.direction == m.direction && g.operand == m.operand && g.file == file;
        });
        if (it == groups.end())
            it = groups.insert(groups.end(), BankGroup{m.direction, m.operand, file, {}, 0, 0, 0, 0});
        if (m.instruction->line > 0)
            it->lines << m.instruction->line;
        it->excess += m.excess();
        it->wavefronts += *m.perRequest * m.executions;
        it->ideal += *m.idealPerRequest * m.executions;
        it->executions += m.executions;
    }
    return groups;
}

double totalBankExcess(const ProfileEvent &p)
{
    double total = 0;
    bankGroupsOf(memoryInstructions(p), &total);
    return total;
}

QString costCountText(double n)
{
    if (n >= 1e9)
        return QString::number(n / 1e9, 'f', 1) + QStringLiteral(" G");
    if (n >= 1e6)
        return QString::number(n / 1e6, 'f', 1) + QStringLiteral(" M");
    if (n >= 1e3)
        return QString::number(n / 1e3, 'f', 1) + QStringLiteral(" k");
    return QString::number(n, 'f', 0);
}

void addBankTerms(CostRanking &r, const ProfileEvent &candidate, const ProfileEvent &baseline,
                  QStringList &notes)
{
    double total = 0;
    const QList<BankGroup> groups = bankGroupsOf(memoryInstructions(candidate), &total);
    if (groups.isEmpty())
        return;
    const auto sms = smCountOf(candidate.gpu, candidate.arch.isEmpty() ? candidate.gpu.arch : candidate.arch);
    const auto clock = counterOf(candidate, kClock);
    if (!sms || !clock || *clock <= 0) {
        notes << QStringLiteral("The shared-memory bank conflicts are not costed: the profile does not say "
                                "the SM clock or which GPU it ran on.");
        return;
    }
    // The baseline's own conflicts take their share off each group: only the difference costs.
    const double keep = std::max(0.0, 1.0 - totalBankExcess(baseline) / total);
    for (const BankGroup &g : groups) {
        CostTerm t;
        t.kind = CostKind::BankConflicts;
        const bool store = g.direction == MemoryDirection::Store;
        const QString tile =
            g.operand ? QStringLiteral("%1 tile").arg(QString::fromStdString(operandName(*g.operand)))
                      : QString();
        t.key =
            QStringLiteral("bank:%1:%2").arg(store ? QStringLiteral("store") : QStringLiteral("load"), tile);
        t.name = QStringLiteral("shared-%1 bank conflicts%2")
                     .arg(store ? QStringLiteral("store") : QStringLiteral("load"),
                          tile.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(tile));
        t.ms = keep * g.excess / (double(*sms) * *clock) * 1e3;
        const double per = g.wavefronts / g.executions, ideal = g.ideal / g.executions;
        t.measured =
            QStringLiteral("%1 wavefronts per request against an ideal %2 (a %3-way conflict), "
                           "%4 requests")
                .arg(number(per), number(ideal), QString::number(std::lround(per / std::max(ideal, 1e-9))),
                     costCountText(g.executions));
        t.where = g.file.isEmpty() || g.lines.isEmpty() ? QString() : linesText(g.file, g.lines);
        t.remedy = store
                       ? QStringLiteral("pad the %1's rows by one float (or swizzle its columns) so a warp's "
                                        "32 stores fall in 32 banks")
                             .arg(tile.isEmpty() ? QStringLiteral("tile") : tile)
                       : QStringLiteral("pad or swizzle the %1 so a warp's reads fall in different banks, or "
                                        "read it with broadcasts")
                             .arg(tile.isEmpty() ? QStringLiteral("tile") : tile);
        r.terms.append(t);
    }
}

void addStallTerms(CostRanking &r, const ProfileEvent &candidate, const ProfileEvent &baseline, double cIdle,
                   double bIdle)
{
    const Waits cw = waitsOf(candidate), bw = waitsOf(baseline);
    if (cw.waiting <= 0 || bw.waiting <= 0) {
        // The idle time cannot be split without both kernels' waits: it stands whole.
        CostTerm t;
        t.kind = CostKind::Idle;
        t.key = QStringLiteral("idle");
        t.name = QStringLiteral("idle %1").arg(r.boundUnit);
        t.ms = r.idleMs;
        t.measured = QStringLiteral("%1 busy against %2")
                         .arg(costShareText(*r.candidateBusy), costShareText(*r.baselineBusy));
        t.remedy = QStringLiteral("profile both kernels with PC sampling: their stall reasons say what the "
                                  "warps waited for");
        r.terms.append(t);
        return;
    }
    const QList<LineProfile> lines = foldOntoLines(candidate);
    const double cTotal = stallBreakdown(candidate).totalSamples,
                 bTotal = stallBreakdown(baseline).totalSamples;
    QStringList keys = cw.byReason.keys();
    for (const QString &k : bw.byReason.keys())
        if (!keys.contains(k))
            keys << k;
    for (const QString &key : std::as_const(keys)) {
        const double c = cw.byReason.value(key), b = bw.byReason.value(key);
        CostTerm t;
        t.kind = CostKind::Stall;
        t.key = QStringLiteral("stall:") + key;
        t.name = stallReasonName(key);
        const double mine = r.candidateMs * cIdle * c / cw.waiting,
                     theirs = r.baselineMs * bIdle * b / bw.waiting;
        t.ms = mine - theirs;
        // The estimates first, the samples they come from after: a smaller share of more idle time
        // can cost more, which the shares alone would hide.
        const QString samples = QStringLiteral("%1 of the samples against %2")
                                    .arg(costShareText(c / cTotal), costShareText(b / bTotal));
        t.measured =
            r.timesMeasured
                ? QStringLiteral("%1 against %2; %3").arg(durationText(mine), durationText(theirs), samples)
                : samples;
        t.where = hottestLineOf(lines, key);
        t.remedy = stallReason(key).remedy;
        r.terms.append(t);
    }
}

QString headlineOf(const CostRanking &r, const QString &candidateName, const QString &baselineName)
{
    if (!r.hasCost()) {
        if (r.terms.isEmpty())
            return {};
        return QStringLiteral("No measured difference is estimated to cost %1 any time against %2.")
            .arg(candidateName, baselineName);
    }
    const CostTerm &top = r.terms.first();
    const QString amount =
        r.timesMeasured
            ? QStringLiteral("about %1 of its %2").arg(durationText(top.ms), durationText(r.candidateMs))
            : QStringLiteral("about %1 of its time").arg(costShareText(top.share));
    QString what;
    switch (top.kind) {
    case CostKind::Stall:
        what = QStringLiteral("waits on \"%1\": %2 (%3)").arg(top.name, amount, top.measured);
        break;
    case CostKind::BankConflicts:
        what = QStringLiteral("spends on %1: %2 (%3)").arg(top.name, amount, top.measured);
        break;
    case CostKind::Idle:
        what = QStringLiteral("leaves its %1 idle longer: %2 (%3)").arg(r.boundUnit, amount, top.measured);
        break;
    case CostKind::Instructions:
        what = QStringLiteral("spends issuing extra instructions: %1 (%2)").arg(amount, top.measured);
        break;
    }
    QString s = QStringLiteral("Estimated largest cost: %1 %2").arg(candidateName, what);
    if (!top.where.isEmpty())
        s += (top.kind == CostKind::Stall ? QStringLiteral(", most at %1") : QStringLiteral(", at %1"))
                 .arg(top.where);
    s += QStringLiteral(". To change it: %1.").arg(top.remedy);
    if (r.timesMeasured)
        s += QStringLiteral(" (%1 takes %2.)").arg(baselineName, durationText(r.baselineMs));
    return s;
}

} // namespace

QString durationText(double ms)
{
    const double a = std::abs(ms);
    if (a >= 9.95)
        return QString::number(ms, 'f', 0) + QStringLiteral(" ms");
    if (a >= 0.0995)
        return QString::number(ms, 'f', 2) + QStringLiteral(" ms");
    return QString::number(ms * 1000.0, 'f', a * 1000 >= 9.95 ? 0 : 1) + QStringLiteral(" µs");
}

std::optional<int> smCountOf(const protocol::GpuInfo &gpu, const QString &arch)
{
    if (gpu.sms && *gpu.sms > 0)
        return gpu.sms;
    for (const GpuSpec &spec : knownGpus())
        if (gpu.name.contains(QString::fromStdString(spec.key), Qt::CaseInsensitive))
            return spec.sms;
    if (const auto cc = parseSmArch(arch.toStdString()))
        if (const GpuSpec *spec = findGpuForArch(*cc))
            return spec->sms;
    return std::nullopt;
}

CostRanking rankCosts(const ProfileEvent &candidate, const ProfileEvent &baseline,
                      const QString &candidateName, const QString &baselineName)
{
    CostRanking r;
    const auto cT = counterOf(candidate, kTime), bT = counterOf(baseline, kTime);
    r.timesMeasured = cT && bT && *cT > 0 && *bT > 0;
    r.candidateMs = r.timesMeasured ? *cT / 1e6 : 1.0;
    r.baselineMs = r.timesMeasured ? *bT / 1e6 : 1.0;

    // The bound unit: the one the baseline keeps busiest.
    const Unit *bound = nullptr;
    for (const Unit &u : kUnits) {
        const auto b = busyShare(baseline, u.metric);
        if (b && busyShare(candidate, u.metric) && (!bound || *b > *busyShare(baseline, bound->metric)))
            bound = &u;
    }
    QStringList notes;
    if (bound) {
        r.boundUnit = QString::fromLatin1(bound->name);
        r.candidateBusy = busyShare(candidate, bound->metric);
        r.baselineBusy = busyShare(baseline, bound->metric);
        const double cIdle = 1.0 - *r.candidateBusy, bIdle = 1.0 - *r.baselineBusy;
        r.idleMs = r.candidateMs * cIdle - r.baselineMs * bIdle;
        addStallTerms(r, candidate, baseline, cIdle, bIdle);
        const auto cI = counterOf(candidate, kInstructions), bI = counterOf(baseline, kInstructions);
        if (bound == &kUnits[0] && cI && bI && *bI > 0) {
            CostTerm t;
            t.kind = CostKind::Instructions;
            t.key = QStringLiteral("instructions");
            t.name = QStringLiteral("extra instructions");
            t.ms = r.candidateMs * *r.candidateBusy - r.baselineMs * *r.baselineBusy;
            t.measured =
                QStringLiteral("%1x the warp instructions of %2").arg(number(*cI / *bI, 2), baselineName);
            t.remedy =
                QStringLiteral("fewer instructions per FMA: wider (128-bit) loads, larger register tiles, "
                               "index arithmetic out of the inner loop");
            r.terms.append(t);
        }
    }
    addBankTerms(r, candidate, baseline, notes);
    for (CostTerm &t : r.terms)
        t.share = r.candidateMs > 0 ? t.ms / r.candidateMs : 0.0;
    std::stable_sort(r.terms.begin(), r.terms.end(),
                     [](const CostTerm &a, const CostTerm &b) { return a.ms > b.ms; });
    r.headline = headlineOf(r, candidateName, baselineName);
    r.notes = notes.join(QLatin1Char(' '));
    return r;
}

} // namespace gemmscope
