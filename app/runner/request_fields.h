// Typed reads of request fields; a missing or ill-typed field is a protocol_error naming it.
#pragma once

#include "kernel_timer.h"
#include "stage_catalog.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace gemmscope::runner {

QString requireString(const QJsonObject &request, const QString &key);
QString optionalString(const QJsonObject &request, const QString &key, const QString &fallback = {});
long long optionalInt(const QJsonObject &request, const QString &key, long long fallback);
// Empty when the field is absent; when present (null included) a whole number from min to max.
std::optional<int> optionalIntInRange(const QJsonObject &request, const QString &key, int min, int max);
bool optionalBool(const QJsonObject &request, const QString &key, bool fallback);
QJsonObject optionalObject(const QJsonObject &request, const QString &key);

ProblemSize parseSize(const QJsonObject &request);     // "size":{m,n,k}, required
TimingOptions parseTiming(const QJsonObject &request); // "timing":{...}, optional
QJsonObject sizeJson(const ProblemSize &size);

} // namespace gemmscope::runner
