// The sweeps in the JSON files GemmScope writes about them, read back: gemmscope-bench's --sweep
// and --size-sweep files (the plan and every run), and the Sweep views' exports (the plan and the
// best run of each cell; a size sweep's each point's figures). A journal is read by SweepJournal.
#pragma once

#include "file_kind.h"
#include "sweep_record.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

// `kind` as sniffFileKind told it (BenchSweep, BenchSizeSweep, SweepCells, SizeSweepSummary).
// Refuses, with a sentence, a file whose plan or any run cannot be read: never half a sweep.
// `notices`: what the file lacks that the view would show (an export keeps no cuBLAS runs).
std::optional<SweepData> sweepFromFileJson(FileKind kind, const QByteArray &bytes, QString *error,
                                           QStringList *notices = nullptr);

} // namespace gemmscope
