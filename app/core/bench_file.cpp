#include "bench_file.h"

#include "json_text.h"
#include "profile_limits.h"
#include "profile_prescan.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QObject>

namespace gemmscope {

namespace {

const QLatin1String kBenchFormat("gemmscope-bench");

BenchParse refuseBench(const QString &why)
{
    return {std::nullopt, why};
}

// The run a row asked for, in protocol request shape: its stage and parameters from the row, its
// size from the event where it repeats it, else the file's.
protocol::RunJob requestOf(const QJsonObject &row, const QJsonObject &event, const QJsonValue &fileSize)
{
    const QJsonObject request{{"type", protocol::requestTypeName(protocol::RequestType::Run)},
                              {"id", event.value("id")},
                              {"stage", row.value("stage")},
                              {"params", row.value("params")},
                              {"size", event.contains("size") ? event.value("size") : fileSize}};
    protocol::RunJob job;
    protocol::fromJson(request, job); // a field of another type reads as absent
    return job;
}

} // namespace

QByteArray serializeBench(const BenchFile &bench)
{
    QJsonArray rows;
    for (const BenchFileRow &r : bench.rows)
        rows.append(
            QJsonObject{{"preset", r.preset.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(r.preset)},
                        {"stage", r.stage},
                        {"params", r.params},
                        {"event", r.event}});
    QJsonObject doc{{"format", kBenchFormat},
                    {"version", kBenchFormatVersion},
                    {"date", bench.date},
                    {"command", bench.command},
                    {"gpu", bench.gpu},
                    {"ceilings", bench.ceilingsEvent},
                    {"rows", rows}};
    if (bench.size)
        doc.insert("size", protocol::sizeToJson(*bench.size));
    if (!bench.profileEvents.isEmpty()) {
        QJsonArray profiles;
        for (const QJsonObject &event : bench.profileEvents)
            profiles.append(event);
        doc.insert("profiles", profiles);
    }
    return QJsonDocument(doc).toJson();
}

BenchParse parseBench(const QByteArray &bytes)
{
    QString error;
    const ProfilePrescan prescan = leaveOutOversizedProfiles(bytes); // before the parser sees them
    const auto root = parseJsonObject(prescan.bytes, &error);
    if (!root)
        return refuseBench(error);
    if (root->value("format").toString() != kBenchFormat)
        return refuseBench(QObject::tr("It is not a GemmScope bench file (format \"%1\").")
                               .arg(root->value("format").toString()));
    if (exactInt(root->value("version")) != kBenchFormatVersion)
        return refuseBench(QObject::tr("It has bench format version %1; this GemmScope reads version %2.")
                               .arg(describeJsonValue(root->value("version")))
                               .arg(kBenchFormatVersion));
    if (!root->value("rows").isArray())
        return refuseBench(QObject::tr("It has no rows."));
    BenchFile bench;
    bench.date = root->value("date").toString();
    bench.command = root->value("command").toString();
    const QJsonValue gpu = root->value("gpu");
    bench.gpu = gpu.toObject();
    bench.gpuName = gpu.isObject() ? gpu.toObject().value("name").toString() : gpu.toString();
    const QJsonValue size = root->value("size");
    if (const QJsonObject s = size.toObject();
        s.value("m").isDouble() && s.value("n").isDouble() && s.value("k").isDouble())
        bench.size =
            ProblemSize{s.value("m").toInteger(), s.value("n").toInteger(), s.value("k").toInteger()};
    bench.ceilingsEvent = root->value("ceilings").toObject();
    if (protocol::eventTypeOf(bench.ceilingsEvent) == protocol::EventType::Ceilings) {
        protocol::CeilingsEvent ceilings;
        protocol::fromJson(bench.ceilingsEvent, ceilings);
        bench.ceilings = ceilings;
    }
    int number = 0;
    for (const QJsonValue &value : root->value("rows").toArray()) {
        ++number;
        const QJsonObject row = value.toObject();
        BenchFileRow r;
        r.preset = row.value("preset").toString();
        r.stage = row.value("stage").toString();
        r.params = row.value("params").toString();
        r.event = row.value("event").toObject();
        const std::optional<protocol::Event> event = protocol::decodeEvent(r.event);
        if (const auto *result = event ? std::get_if<protocol::ResultEvent>(&*event) : nullptr)
            r.result = *result;
        else if (const auto *failure = event ? std::get_if<protocol::ErrorEvent>(&*event) : nullptr)
            r.error = *failure;
        else
            return refuseBench(QObject::tr("Row %1 has no runner result or error event.").arg(number));
        r.request = requestOf(row, r.event, size);
        bench.rows.append(r);
    }
    if (root->contains("profiles") && !root->value("profiles").isArray())
        return refuseBench(QObject::tr("Its profiles are not a list."));
    number = 0;
    for (const QJsonValue &value : root->value("profiles").toArray()) {
        ++number;
        // Bounded before it is decoded; the rows and the other profiles are imported all the same.
        QString tooLarge = prescan.leftOut.value(number - 1);
        if (tooLarge.isEmpty())
            tooLarge = profileOverLimits(value.toObject());
        if (!tooLarge.isEmpty()) {
            bench.notices
                << QObject::tr("Profile %1 was left out: %2.").arg(QString::number(number), tooLarge);
            continue;
        }
        protocol::ProfileEvent profile;
        QString why;
        if (!protocol::fromJson(value.toObject(), profile, &why) || profile.stage.isEmpty() ||
            profile.size.m <= 0 || profile.size.n <= 0 || profile.size.k <= 0)
            return refuseBench(QObject::tr("Profile %1 is not a runner profile event%2.")
                                   .arg(number)
                                   .arg(why.isEmpty() ? QString() : QStringLiteral(": ") + why));
        bench.profileEvents.append(value.toObject());
        bench.profiles.append(profile);
    }
    return {bench, {}};
}

} // namespace gemmscope
