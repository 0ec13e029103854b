// What --measure-ui-stall reports (app/gui/stall_meter.h, event_timing_application.h): the
// longest stall of the UI thread, when it began and ended, and the events that filled it, in the
// order they ran — the list that showed a finished run's chain of posted events.
#include "event_timing_application.h"
#include "stall_meter.h"

#include <QElapsedTimer>
#include <QThread>
#include <QTimer>
#include <QtTest>

using namespace gemmscope;

namespace {

void busyFor(int ms) // the UI thread kept busy, as a slow replot keeps it
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < ms) {
    }
}

} // namespace

class TestStallMeter : public QObject {
    Q_OBJECT
private slots:
    void theLongestStallIsFoundWithTheEventsThatFilledIt()
    {
        auto *app = static_cast<EventTimingApplication *>(QCoreApplication::instance());
        UiStallMeter meter;
        QElapsedTimer since;
        meter.start();
        app->startNoting(0.5);
        since.start();
        double chainStartMs = 0, chainEndMs = 0;
        // Two events posted together, 80 ms each, 100 ms in: Qt delivers the events posted before
        // a pass in that pass, so nothing runs between them — one stall longer than any turn a
        // loaded machine takes from the thread. (A timer's event and one it posted let the meter's
        // tick in between under the sanitizers.)
        QTimer::singleShot(100, this, [&] {
            chainStartMs = double(since.nsecsElapsed()) / 1e6;
            QMetaObject::invokeMethod(
                this, [] { busyFor(80); }, Qt::QueuedConnection);
            QMetaObject::invokeMethod(
                this,
                [&] {
                    busyFor(80);
                    chainEndMs = double(since.nsecsElapsed()) / 1e6;
                },
                Qt::QueuedConnection);
        });
        QTest::qWait(400);
        meter.stop();
        app->stopNoting();

        QVERIFY2(meter.maxStallMs() >= 150, qPrintable(QString::number(meter.maxStallMs())));
        QVERIFY(meter.samples() > 20);
        // The gap brackets the chain (the meter's clock started a moment before `since`).
        QVERIFY2(meter.longestGapStartMs() <= chainStartMs + 1 && meter.longestGapEndMs() >= chainEndMs - 1,
                 qPrintable(QStringLiteral("gap %1-%2, chain %3-%4")
                                .arg(meter.longestGapStartMs())
                                .arg(meter.longestGapEndMs())
                                .arg(chainStartMs)
                                .arg(chainEndMs)));
        const QStringList lines = app->reportBetween(meter.longestGapStartMs(), meter.longestGapEndMs(), 50)
                                      .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2); // the two posted events, in the order they ran
        const auto startOf = [](const QString &line) {
            return line.section(QLatin1Char(' '), 3, 3).toDouble();
        };
        QVERIFY2(lines[0].contains(QStringLiteral("MetaCall")) &&
                     lines[1].contains(QStringLiteral("MetaCall")),
                 qPrintable(lines.join(QLatin1Char('|'))));
        QVERIFY2(startOf(lines[0]) + 70 <= startOf(lines[1]), qPrintable(lines.join(QLatin1Char('|'))));
    }
};

int main(int argc, char **argv)
{
    EventTimingApplication app(argc, argv);
    TestStallMeter test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_stall_meter.moc"
