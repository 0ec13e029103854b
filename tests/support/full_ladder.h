// Test helper for the layout tests of the charts: the whole H200 ladder as a user has
// it loaded (the recorded 23-stage session, tests/data/recorded/h200-full-ladder-4096.json, plus the
// worklog's published T4 rows of the embedded session), its measured ceilings, the window sizes a
// chart gets in the Ladder workspace, and rectangle checks. With GEMMSCOPE_SHOTS_DIR set, each
// layout test also saves what it laid out as a PNG there, to be looked at.
#pragma once

#include "run_record.h"
#include "session.h"

#include <QDir>
#include <QJsonObject>
#include <QList>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QWidget>
#include <QtTest>

namespace gemmscope::test {

struct FullLadder {
    QList<RunRecord> runs;
    double fmaTflops = 0, dramGBs = 0, tf32Tflops = 0;
    QString tf32Kernel, ceilingsLabel;
};

inline FullLadder loadFullLadder()
{
    FullLadder ladder;
    Session session;
    QString error;
    if (!session.open(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error))
        qFatal("cannot open the full-ladder session: %s", qPrintable(error));
    // The published T4 rows come with the embedded session: the window shows them beside the ladder.
    Session embedded;
    if (!embedded.open(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/default_session.json"),
                       &error))
        qFatal("cannot open the embedded session: %s", qPrintable(error));
    for (const RunRecord &run : embedded.runs())
        if (run.origin == QLatin1String("worklog"))
            ladder.runs << run;
    ladder.runs << session.runs();
    const StoredCeilings c = session.data().ceilings.value(QStringLiteral("NVIDIA H200"));
    ladder.fmaTflops = c.fmaTflops;
    ladder.dramGBs = c.dramGbs;
    ladder.tf32Tflops = c.tf32Tflops.value_or(0);
    ladder.tf32Kernel = c.tf32Kernel;
    ladder.ceilingsLabel = QStringLiteral("NVIDIA H200, %1").arg(c.measuredAt.left(10));
    return ladder;
}

// What one chart gets in the Ladder workspace at 1280x800, 1440x900 and 1920x1080, and the smallest
// it must still be usable at (the parameter panel shown).
inline void addLadderSizes()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1280x800") << QSize(620, 390);
    QTest::newRow("1440x900") << QSize(700, 440);
    QTest::newRow("1920x1080") << QSize(940, 530);
    QTest::newRow("smallest") << QSize(480, 300);
}

// The first pair of rectangles that intersect (by more than a hair), as text for QVERIFY2; empty
// when none do.
inline QString firstOverlap(const QList<QRectF> &rects, const QStringList &names)
{
    for (int i = 0; i < rects.size(); ++i)
        for (int j = i + 1; j < rects.size(); ++j)
            if (rects[i].adjusted(0.5, 0.5, -0.5, -0.5).intersects(rects[j].adjusted(0.5, 0.5, -0.5, -0.5)))
                return QStringLiteral("\"%1\" %2,%3 %4x%5 overlaps \"%6\" %7,%8 %9x%10")
                    .arg(names.value(i))
                    .arg(rects[i].x())
                    .arg(rects[i].y())
                    .arg(rects[i].width())
                    .arg(rects[i].height())
                    .arg(names.value(j))
                    .arg(rects[j].x())
                    .arg(rects[j].y())
                    .arg(rects[j].width())
                    .arg(rects[j].height());
    return QString();
}

// Saves what a widget shows to $GEMMSCOPE_SHOTS_DIR/<name>.png when that variable is set.
inline void saveShot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("GEMMSCOPE_SHOTS_DIR");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    widget->grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

// The path for an export to be looked at ($GEMMSCOPE_SHOTS_DIR/<name>), empty when none is wanted.
inline QString shotPath(const QString &name)
{
    const QString dir = qEnvironmentVariable("GEMMSCOPE_SHOTS_DIR");
    return dir.isEmpty() ? QString() : QDir(dir).filePath(name);
}

} // namespace gemmscope::test
