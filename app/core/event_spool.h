// Where the runner's events of a session read from a file are kept: a temporary file of the
// process's own (in the user's cache folder, else the temp folder), not RAM. A session of 100,000 runs keeps
// ~230 MB of them (compact CBOR, ~2.3 KB a run) that nothing reads but a save, a run's details and an edit;
// in RAM they were a quarter of the session's memory. The file has no name (it is unlinked once open), so it
// goes when the last event kept there goes, or with the process however it ends, and a save that overwrites
// the session's own file loses nothing.
#pragma once

#include <QByteArray>
#include <QTemporaryFile>
#include <atomic>
#include <memory>

namespace gemmscope {

class EventSpool {
public:
    // A new spool, or none where no temporary file can be made (the events then stay in RAM).
    static std::shared_ptr<EventSpool> create();

    // Appends `bytes`: the offset they begin at, or -1 where they could not all be written (then
    // the caller keeps them). Safe from several threads at once.
    qint64 append(const QByteArray &bytes);
    // `length` bytes from `offset`, as appended; empty where they cannot be read back. Safe from
    // several threads at once.
    QByteArray read(qint64 offset, qsizetype length) const;
    // How many reads of any spool have failed since the process began (an I/O error on the disk
    // under it): a save compares it before and after writing, and refuses rather than write a run
    // without its event.
    static quint64 failedReads();

private:
    EventSpool() = default;

    QTemporaryFile m_file;
    std::atomic<qint64> m_end{0}; // where the next append goes: each reserves its own range
};

} // namespace gemmscope
