// The charts' queued replots (widgets/replot_queue.h): one chart per turn of the event loop, in the
// order asked, each once however often it was asked, a chart deleted while waiting skipped, and
// timers due before a replot run before it. Two charts' replots in one pass were 27 ms of the UI
// thread with a 10,000-run session; a chain of posted events kept the timers waiting 20-40 ms.
#include "replot_queue.h"

#include <QtTest>
#include <functional>
#include <memory>
#include <qcustomplot.h>

using namespace gemmscope;

class TestReplotQueue : public QObject {
    Q_OBJECT
private slots:
    void onePlotPerPassInOrder()
    {
        QCustomPlot first, second;
        QCoreApplication::sendPostedEvents(); // the plots' own first replots, queued as they were made
        QStringList replotted;
        connect(&first, &QCustomPlot::afterReplot, this, [&] { replotted << "first"; });
        connect(&second, &QCustomPlot::afterReplot, this, [&] { replotted << "second"; });
        ReplotQueue *queue = ReplotQueue::instance();
        queue->add(&first);
        queue->add(&second);
        queue->add(&first); // already waiting: once
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
        ReplotQueue::instance()->add(&plot);
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
        ReplotQueue::instance()->add(gone.get());
        ReplotQueue::instance()->add(&kept);
        gone.reset();
        QTRY_COMPARE(replots, 1);
        QCOMPARE(ReplotQueue::instance()->waiting(), 0);
    }
};

QTEST_MAIN(TestReplotQueue)
#include "tst_replot_queue.moc"
