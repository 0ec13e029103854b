// The sweeps a crash left unfinished: at start-up the Sweep tab reads every journal (*.gsweep) in
// its journal folder and puts into the session each sweep that still has configurations to run
// and whose journal holds runs the session lacks (all of them, after kill -9 of the GUI before an
// autosave). Resume then continues it; no finished cell is lost. Finished sweeps stay in their
// journals and are not loaded again into every new session.
#pragma once

#include <QString>
#include <QStringList>

namespace gemmscope {

class Session;

struct JournalScan {
    QStringList loaded;     // ids of the sweeps put into (or brought up to date in) the session
    QStringList unfinished; // ids of every unfinished sweep the folder holds (loaded or already there)
    QStringList problems;   // journals that could not be read, or damaged lines skipped, as sentences
};

JournalScan loadUnfinishedJournals(Session &session, const QString &directory);

} // namespace gemmscope
