// A sweep as it is kept: what was asked (SweepSpec), when, and every run it has answered so far
// (the cuBLAS baselines of each GPU included), in a session file or in its own journal. The plan
// is not stored: planSweep(spec) makes the same one again, and runs are matched to its points by
// sweepPointKey, so a resumed sweep knows which points are finished whatever order they ran in.
//
// The journal (`*.gsweep`, JSON lines) is what makes "no finished cell is ever lost" true under
// kill -9: a header line, then one line per answered run, each written and fsync'ed the moment the
// run answers. A line cut short by a crash is skipped when read; nothing before it is lost.
#pragma once

#include "run_record.h"
#include "sweep_plan.h"

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace gemmscope {

struct SweepData {
    QString id; // unique: "sweep-20261201-101500-3fa2"
    SweepSpec spec;
    QDateTime created;
    QList<RunRecord> runs; // answered runs, in the order they answered
    QString title() const; // "__restrict__ and #pragma unroll: BM × BN at 4096³"
};

QString newSweepId();

QJsonObject sweepSpecToJson(const SweepSpec &spec);

// The sweep as its identity: axis values, sizes and series sorted and without repeats, so that
// `--x-values 128,64` and `64,128` (or the same sizes listed in another order) are one sweep.
SweepSpec canonicalSweepSpec(SweepSpec spec);
bool isSameSweep(const SweepSpec &a, const SweepSpec &b);
// A hash of the canonical spec (24 hex digits): what a journal's file name is made of. An id read
// from a file never becomes part of a path.
QString sweepSpecHash(const SweepSpec &spec);
std::optional<SweepSpec> sweepSpecFromJson(const QJsonObject &json, QString *error = nullptr);
QJsonObject toJson(const SweepData &sweep);
std::optional<SweepData> sweepFromJson(const QJsonObject &json, QString *error = nullptr);

// A run that says something about its configuration: it finished (a time) or failed for a reason
// of the configuration's own (compile error, out of resources, wrong result, launch error, device
// fault). Runs that ended because of the runner or the user (cancelled, runner_crashed,
// runner_timeout, runner_unavailable, no_gpu, protocol_error) leave their point to be run again.
bool isFinishedRun(const RunRecord &run);

QString sweepRunKey(const RunRecord &run); // sweepPointKey of the run's stage, parameters and size

// The indices of the plan's points that may run (valid) and have no finished run in `runs`.
QList<int> unfinishedPoints(const SweepPlan &plan, const QList<RunRecord> &runs);

// The latest finished run of each point key.
QHash<QString, const RunRecord *> finishedRunsByKey(const QList<RunRecord> &runs);

// Which GPU a run was measured on: its UUID, or host and GPU name where the runner gave no UUID.
QString gpuIdentity(const RunRecord &run);
// The median of the latest successful cuBLAS FP32 run at `size` on the same GPU as `run`.
std::optional<double> cublasMsOnSameGpu(const QList<RunRecord> &runs, const RunRecord &run);

// Asked as a long read goes on (before each line of a journal, between the journals of a folder):
// true stops the read there and drops what it had read. The application asks its scans to stop when
// it quits, so that closing the window never waits for a large journal to be read. Empty: never.
using StopRequested = std::function<bool()>;

// A journal holds at most this much: every journal written can be read again (file_read.h's
// limit), and a runaway sweep cannot fill the disk. 20,000 runs take about 24 MB.
inline constexpr qint64 kMaxJournalBytes = 512LL * 1024 * 1024;

class SweepJournal {
public:
    // Tests lower the limit; kMaxJournalBytes otherwise.
    void setMaxBytes(qint64 bytes) { m_maxBytes = bytes; }
    // Creates (or replaces) the journal at `path` with the sweep's header and the runs it already has.
    bool create(const QString &path, const SweepData &sweep, QString *error = nullptr);
    // Opens an existing journal for appending.
    bool openForAppend(const QString &path, QString *error = nullptr);
    bool isOpen() const { return m_file.isOpen(); }
    QString path() const { return m_path; }
    // Writes one run and forces it to the disk before returning. A run that would take the journal
    // past its limit is not written (false, with a sentence naming the limit).
    bool append(const RunRecord &run, QString *error = nullptr);
    bool isFull() const { return m_full; }
    void close() { m_file.close(); }

    // Reads a journal, line by line (memory: its runs and one line). A damaged line (a crash cut
    // it short) is skipped and named in `problems`; a file without a readable header, a special
    // file (FIFO, device) or one over kMaxJournalBytes is refused. `stop`, asked before each line,
    // abandons the read (std::nullopt, with a sentence saying so); the file is only read.
    static std::optional<SweepData> read(const QString &path, QString *error = nullptr,
                                         QStringList *problems = nullptr, const StopRequested &stop = {});
    // Only the header (the sweep without runs): cheap, for listing journals.
    static std::optional<SweepData> readHeader(const QString &path, QString *error = nullptr);

private:
    bool open(const QString &path, bool truncate, QString *error);
    bool writeLine(const QJsonObject &object, QString *error);
    bool writeText(const QByteArray &lines, QString *error); // whole lines, then one fsync
    QFile m_file;
    QString m_path;
    qint64 m_maxBytes = kMaxJournalBytes;
    bool m_full = false;
};

} // namespace gemmscope
