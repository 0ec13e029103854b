// Test helper: a stage's KernelShape from its key and "NAME=value" pairs, as test rows write them.
#pragma once

#include "mapping_model.h"

#include <QString>
#include <QStringList>

namespace gemmscope::test {

// "coalesced" + "BM=64 BN=64 BK=8 TM=4 TN=4" -> shape; stops the test when there is none.
inline KernelShape shapeOf(const QString &stage, const QString &params)
{
    const StageInfo *info = findStage(stage.toStdString());
    if (!info)
        qFatal("unknown stage %s", qPrintable(stage));
    ParamValues values;
    for (const QString &pair : params.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList kv = pair.split(QLatin1Char('='));
        values[kv.at(0).toStdString()] = kv.at(1).toInt();
    }
    const KernelShapeResult r = kernelShape(info->id, values);
    if (!r.shape)
        qFatal("no shape for %s %s: %s", qPrintable(stage), qPrintable(params), r.error.c_str());
    return *r.shape;
}

} // namespace gemmscope::test
