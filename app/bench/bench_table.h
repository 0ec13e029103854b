// The benchmark's text table: one row per stage, ratios against cuBLAS FP32 of the same run and
// against the measured FP32 peak (times on shared machines are noisy; ratios within one run are not).
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <vector>

namespace gemmscope::bench {

struct BenchRow {
    QString preset; // "worklog-3", or empty for a bare stage key
    QString stage;
    QString params;    // "BM=64 BN=64 ..."
    QJsonObject event; // the runner's result or error event
};

// `cublasMs` 0 and `peakTflops` 0 mean unknown (the column then shows "-"). With `cublasTf32Ms`
// (cuBLAS TF32 of the same run) a "% cuBLAS TF32" column compares the TF32 stages with it.
QString formatTable(const std::vector<BenchRow> &rows, double cublasMs, double peakTflops,
                    double cublasTf32Ms = 0);

} // namespace gemmscope::bench
