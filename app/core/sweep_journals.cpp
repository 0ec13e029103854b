#include "sweep_journals.h"

#include "session.h"
#include "sweep_record.h"

#include <QDir>

namespace gemmscope {

JournalScan loadUnfinishedJournals(Session &session, const QString &directory)
{
    JournalScan scan;
    if (directory.isEmpty())
        return scan;
    const QDir dir(directory);
    for (const QString &name : dir.entryList({QStringLiteral("*.gsweep")}, QDir::Files, QDir::Time)) {
        QString error;
        QStringList damaged;
        const std::optional<SweepData> journal = SweepJournal::read(dir.filePath(name), &error, &damaged);
        if (!journal) {
            scan.problems << QStringLiteral("%1: %2").arg(name, error);
            continue;
        }
        for (const QString &d : damaged)
            scan.problems << QStringLiteral("%1: %2").arg(name, d);
        const SweepPlan plan = planSweep(journal->spec);
        if (!plan.ok() || unfinishedPoints(plan, journal->runs).isEmpty())
            continue; // finished (or no longer plannable): nothing to offer
        scan.unfinished << journal->id;
        const auto &sweeps = session.sweeps();
        const auto known = std::find_if(sweeps.begin(), sweeps.end(),
                                        [&](const SweepData &s) { return s.id == journal->id; });
        if (known != sweeps.end() && known->runs.size() >= journal->runs.size())
            continue; // the session already has everything the journal has
        session.setSweep(*journal);
        scan.loaded << journal->id;
    }
    return scan;
}

} // namespace gemmscope
