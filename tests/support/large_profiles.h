// Test helper: session and bench files holding profiles of any size, written as text (a profile of
// 10^6 instructions is made in a moment), and the embedded session's recorded H200 profiles to
// build realistic large ones from (profile_limits.h says what GemmScope reads).
#pragma once

#include "events.h"
#include "run_record.h"
#include "session.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QList>
#include <QTest>

namespace gemmscope::test {

inline QString embeddedSessionPath()
{
    return QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json");
}

// The embedded session (its runs, its recorded profiles); stops the test when it cannot be read.
inline SessionData embeddedSession()
{
    const SessionParse parsed = readSessionFile(embeddedSessionPath());
    if (!parsed.data)
        qFatal("%s", qPrintable(parsed.error));
    return *parsed.data;
}

// The embedded recorded profile of `stage` ("final": 3,315 instructions on 25 source lines).
inline protocol::ProfileEvent recordedProfile(const QString &stage)
{
    for (const StoredProfile &p : embeddedSession().profiles)
        if (p.event.stage == stage)
            return p.event;
    qFatal("no recorded profile of %s", qPrintable(stage));
}

// `profile` with `count` instructions: its own repeated at new byte offsets, as a longer kernel.
inline protocol::ProfileEvent repeatedProfile(protocol::ProfileEvent profile, int count)
{
    const QList<protocol::ProfileInstruction> own = profile.instructions;
    profile.instructions.clear();
    profile.instructions.reserve(count);
    for (int i = 0; i < count; ++i) {
        protocol::ProfileInstruction instruction = own[i % own.size()];
        instruction.pc = 16LL * i;
        profile.instructions.append(instruction);
    }
    return profile;
}

// A JSON list of `count` small instructions of one function (each on its own source line when
// `distinctLines`), as text.
inline QByteArray instructionsText(int count, bool distinctLines = false)
{
    QByteArray text = "[";
    text.reserve(qsizetype(count) * 64);
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            text += ',';
        text += "{\"function\":\"k\",\"pc\":" + QByteArray::number(16LL * i) +
                ",\"sass\":\"FFMA R1, R2, R3, R1\",\"stalls\":{\"selected\":1}";
        if (distinctLines)
            text += ",\"file\":\"k.cu\",\"line\":" + QByteArray::number(i + 1);
        text += '}';
    }
    return text + ']';
}

// `profile` as a runner event, its instructions replaced by `instructions` (a JSON list as text).
inline QByteArray profileEventText(protocol::ProfileEvent profile, const QByteArray &instructions)
{
    profile.instructions.clear();
    QByteArray text = QJsonDocument(protocol::toJson(profile)).toJson(QJsonDocument::Compact);
    const QByteArray empty = "\"instructions\":[]";
    const qsizetype at = text.indexOf(empty);
    if (at < 0)
        qFatal("a profile event without its instructions list");
    return text.replace(at, empty.size(), "\"instructions\":" + instructions);
}

// A session file's entry for a profile event given as text.
inline QByteArray profileEntryText(const QByteArray &event, const QByteArray &origin = "recorded")
{
    return "{\"origin\":\"" + origin + "\",\"event\":" + event + '}';
}

// A session of `runs` whose "profiles" list holds `entries` (as text), in that order.
inline QByteArray sessionText(const QList<RunRecord> &runs, const QList<QByteArray> &entries)
{
    QJsonArray runList;
    for (const RunRecord &run : runs)
        runList.append(toJson(run));
    QByteArray text = QJsonDocument(QJsonObject{{"format", "gemmscope-session"},
                                                {"version", kSessionFormatVersion},
                                                {"title", "large profiles"},
                                                {"runs", runList}})
                          .toJson(QJsonDocument::Compact);
    text.chop(1); // the closing brace
    text += ",\"profiles\":[";
    for (qsizetype i = 0; i < entries.size(); ++i)
        text += (i > 0 ? "," : "") + entries[i];
    return text + "]}";
}

inline void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace gemmscope::test
