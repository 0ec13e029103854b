// Typed reads of request fields; a missing or ill-typed field is a protocol_error naming it.
#pragma once

#include "kernel_timer.h"
#include "stage_catalog.h"

#include <QJsonObject>
#include <QString>

namespace gemmscope::runner {

QString requireString(const QJsonObject &request, const QString &key);
QString optionalString(const QJsonObject &request, const QString &key, const QString &fallback = {});
long long optionalInt(const QJsonObject &request, const QString &key, long long fallback);
bool optionalBool(const QJsonObject &request, const QString &key, bool fallback);
QJsonObject optionalObject(const QJsonObject &request, const QString &key);

ProblemSize parseSize(const QJsonObject &request);     // "size":{m,n,k}, required
TimingOptions parseTiming(const QJsonObject &request); // "timing":{...}, optional
QJsonObject sizeJson(const ProblemSize &size);

} // namespace gemmscope::runner
