// Work put off to later turns (widgets/turn_queue.h): one piece per turn of the event loop, in the
// order queued, a replot once however often it was asked, a piece whose owner is gone skipped, and
// timers due before a piece run before it — also those that came due while the piece before ran.
// Two charts' replots in one pass were 27 ms of the UI thread with a 10,000-run session; a chain of
// posted events kept the timers waiting 20-40 ms.
#include "turn_queue.h"

#include <QElapsedTimer>

#include <QtTest>
#include <functional>
#include <memory>
#include <qcustomplot.h>

using namespace gemmscope;

class TestTurnQueue : public QObject {
    Q_OBJECT
private slots:
    void onePlotPerPassInOrder()
    {
        QCustomPlot first, second;
        QCoreApplication::sendPostedEvents(); // the plots' own first replots, queued as they were made
        QStringList replotted;
        connect(&first, &QCustomPlot::afterReplot, this, [&] { replotted << "first"; });
        connect(&second, &QCustomPlot::afterReplot, this, [&] { replotted << "second"; });
        TurnQueue *queue = TurnQueue::instance();
        queue->addReplot(&first);
        queue->addReplot(&second);
        queue->addReplot(&first); // already waiting: once
        QCOMPARE(queue->waiting(), 2);
        QVERIFY(replotted.isEmpty()); // nothing before the event loop turns
        QCoreApplication::sendPostedEvents();
        QVERIFY(replotted.isEmpty()); // a timer's turn, not the posted events'
        QDeadlineTimer deadline(5000);
        while (replotted.isEmpty() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        QCOMPARE(replotted, QStringList{"first"});
        QCOMPARE(queue->waiting(), 1); // the second in a turn of its own
        QTRY_COMPARE(replotted, (QStringList{"first", "second"}));
        QTest::qWait(20);
        QCOMPARE(replotted.size(), 2);
        QCOMPARE(queue->waiting(), 0);
    }

    // A chain of posted events (each posting the next: a run's result, a chart settling, a table
    // fitting) must not hold back a timer that came due before the replot: the timer runs between.
    void aTimerDueBeforeAReplotRunsFirst()
    {
        QCustomPlot plot;
        QCoreApplication::sendPostedEvents();
        QStringList order;
        connect(&plot, &QCustomPlot::afterReplot, this, [&] { order << "replot"; });
        QTimer tick; // as an animation's frame or the stall meter
        tick.setTimerType(Qt::PreciseTimer);
        tick.setSingleShot(true);
        connect(&tick, &QTimer::timeout, this, [&] { order << "timer"; });
        tick.start(0);
        TurnQueue::instance()->addReplot(&plot);
        int chained = 0;
        std::function<void()> link = [&] {
            if (++chained < 200)
                QMetaObject::invokeMethod(this, link, Qt::QueuedConnection);
        };
        link();
        QTRY_COMPARE(order.size(), 2);
        QCOMPARE(order, (QStringList{"timer", "replot"}));
        QTRY_COMPARE(chained, 200); // the chain ends before its locals do
    }

    void aPlotDeletedWhileWaitingIsSkipped()
    {
        auto gone = std::make_unique<QCustomPlot>();
        QCustomPlot kept;
        QCoreApplication::sendPostedEvents();
        int replots = 0;
        connect(&kept, &QCustomPlot::afterReplot, this, [&] { ++replots; });
        TurnQueue::instance()->addReplot(gone.get());
        TurnQueue::instance()->addReplot(&kept);
        gone.reset();
        QTRY_COMPARE(replots, 1);
        QCOMPARE(TurnQueue::instance()->waiting(), 0);
    }

    // Pieces queued together (a finished run: the chart settling, the table fitting, the replots)
    // do not run back to back: a timer that came due while one ran runs before the next. Armed all
    // at once, each a millisecond on, they ran in one pass and the timer after them all.
    void aTimerDueWhileAPieceRanRunsBeforeTheNext()
    {
        QStringList order;
        const auto busy = [](int ms) {
            QElapsedTimer spent;
            spent.start();
            while (spent.elapsed() < ms) {
            }
        };
        QTimer tick; // as an animation's frame or the stall meter, due during the first piece
        tick.setTimerType(Qt::PreciseTimer);
        tick.setSingleShot(true);
        connect(&tick, &QTimer::timeout, this, [&] { order << "timer"; });
        QObject owner;
        inALaterTurn(&owner, [&] {
            order << "first";
            busy(20);
        });
        inALaterTurn(&owner, [&] { order << "second"; });
        tick.start(5);
        QTRY_COMPARE(order.size(), 3);
        QCOMPARE(order, (QStringList{"first", "timer", "second"}));
    }

    void aPieceWhoseOwnerIsGoneIsSkipped()
    {
        auto gone = std::make_unique<QObject>();
        QObject kept;
        QStringList ran;
        inALaterTurn(gone.get(), [&] { ran << "gone"; });
        inALaterTurn(&kept, [&] { ran << "kept"; });
        gone.reset();
        QTRY_COMPARE(ran, QStringList{"kept"});
        QCOMPARE(TurnQueue::instance()->waiting(), 0);
    }
};

QTEST_MAIN(TestTurnQueue)
#include "tst_turn_queue.moc"
