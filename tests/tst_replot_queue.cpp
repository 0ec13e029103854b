// The charts' queued replots (widgets/replot_queue.h): one chart per pass of the event loop, in the
// order asked, each once however often it was asked, and a chart deleted while waiting skipped.
// Two charts' replots in one pass were 27 ms of the UI thread with a 10,000-run session.
#include "replot_queue.h"

#include <QtTest>
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
        QVERIFY(replotted.isEmpty());         // nothing before the event loop turns
        QCoreApplication::sendPostedEvents(); // one pass
        QCOMPARE(replotted, QStringList{"first"});
        QCoreApplication::sendPostedEvents();
        QCOMPARE(replotted, (QStringList{"first", "second"}));
        QCoreApplication::sendPostedEvents();
        QCOMPARE(replotted.size(), 2);
        QCOMPARE(queue->waiting(), 0);
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
        QCoreApplication::sendPostedEvents();
        QCOMPARE(replots, 1);
    }
};

QTEST_MAIN(TestReplotQueue)
#include "tst_replot_queue.moc"
