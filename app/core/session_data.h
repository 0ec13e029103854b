// What a session holds, as values: its runs, sweeps, profiles, ceilings and the custom kernels a
// user wrote. SessionStore keeps one in memory and announces its changes; session_codec reads and
// writes it as a file; session_autosave keeps a copy of it on disk while the window runs.
#pragma once

#include "custom_stage.h"
#include "profile_record.h"
#include "run_record.h"
#include "sweep_record.h"

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace gemmscope {

// One GPU's roofline ceilings as a session keeps them, from the runner's `ceilings` event.
struct StoredCeilings {
    double fmaTflops = 0, dramGbs = 0;
    QString measuredAt;               // ISO date-time, as the runner wrote it
    QString origin;                   // "measured" (this session's runner) or "recorded" (a bench file)
    std::optional<double> tf32Tflops; // the TF32 tensor-core roof, where the runner measured one
    QString tf32Kernel;               // what measured it ("mma.sync.m16n8k8.tf32")
    // The L2 and L1/shared roofs (GB/s read), where the runner measured them.
    std::optional<double> l2Gbs, sharedGbs;
    bool isRecorded() const { return origin == QLatin1String("recorded"); }
    friend bool operator==(const StoredCeilings &, const StoredCeilings &) = default;
};

// The ceilings entry for one GPU from a runner `ceilings` event, ready for SessionData::ceilings.
StoredCeilings ceilingsEntry(const protocol::CeilingsEvent &event, const QString &origin);

struct SessionData {
    QList<RunRecord> runs;
    QString title;
    QString description; // where the runs come from, e.g. "The worklog's published T4 runtimes"
    QDateTime created;
    // Roofline ceilings the runner measured, by GPU name ("ceilings" in the file).
    QMap<QString, StoredCeilings> ceilings;
    // Parameter sweeps (sweep_record.h), each with every run it answered; "sweeps" in the file,
    // left out when there are none (files without it load as before).
    QList<SweepData> sweeps;
    // Profiles (profile_record.h): each runner `profile` event with its origin; "profiles" in the
    // file, left out when there are none (files without it load as before).
    QList<StoredProfile> profiles;
    // The kernels the user wrote or derived (custom_stage.h), as text: "custom_kernels" in the
    // file, left out when there are none. Kept as sources, not as parsed stages: whoever opens
    // the session parses and registers them, so a kernel the catalog refuses is still kept.
    std::vector<CustomKernelSource> customKernels;
    // What reading the file left out, one sentence each (a damaged profile entry is skipped, the
    // rest of the session loads). Not saved; the window shows them when the session opens.
    QStringList notices;
};

inline bool sameKernelSource(const CustomKernelSource &a, const CustomKernelSource &b)
{
    return a.text == b.text && a.fileName == b.fileName && a.derivedFrom == b.derivedFrom;
}

} // namespace gemmscope
