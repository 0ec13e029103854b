// The benchmark's text table: one row per stage, ratios against cuBLAS FP32 of the same run and
// against the measured FP32 peak (times on shared machines are noisy; ratios within one run are not).
#pragma once

#include "events.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace gemmscope::bench {

// One row of the ladder, its runner event decoded once into the protocol's types.
struct BenchRow {
    QString preset; // "worklog-3", or empty for a bare stage key
    QString stage;
    QString params;    // "BM=64 BN=64 ..."
    QJsonObject event; // the runner's final event as received: the JSON keeps the runner's record
    // A result event decoded (a field it could not read left at its default), and whether it read
    // whole: only a whole result says that it ran interleaved or why it is not steady.
    std::optional<protocol::ResultEvent> result;
    bool resultIsWhole = false;
    protocol::ErrorEvent error; // any other event, read as the runner's error
};

// The row of `event`, decoded.
BenchRow benchRow(QString preset, QString stage, QString params, QJsonObject event);

// `cublasMs` 0 and `peakTflops` 0 mean unknown (the column then shows "-"). With `cublasTf32Ms`
// (cuBLAS TF32 of the same run) a "% cuBLAS TF32" column compares the TF32 stages with it.
QString formatTable(const std::vector<BenchRow> &rows, double cublasMs, double peakTflops,
                    double cublasTf32Ms = 0);

} // namespace gemmscope::bench
