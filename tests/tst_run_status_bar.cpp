// The status bar's progress: shown as the runner reports it, painted with the window's next paint.
#include "run_status_bar.h"

#include <QEvent>
#include <QProgressBar>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>

using namespace gemmscope;

namespace {

class PaintCounter : public QObject {
public:
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace

class TestRunStatusBar : public QObject {
    Q_OBJECT
private slots:
    void progressIsPaintedLaterNeverInsideTheCall();
};

void TestRunStatusBar::progressIsPaintedLaterNeverInsideTheCall()
{
    // A paint inside the call paints the whole window's dirty regions (the charts a finished run
    // changed) in the runner's progress event: the UI thread's longest stalls with 10,000 runs.
    QWidget window;
    auto *bar = new QProgressBar(&window);
    (new QVBoxLayout(&window))->addWidget(bar);
    window.resize(300, 60);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    showProgress(bar, 1, 4);
    QTest::qWait(50);
    PaintCounter counter;
    bar->installEventFilter(&counter);
    showProgress(bar, 3, 4); // 25 % -> 75 %: a QProgressBar repaints at once for this
    QCOMPARE(counter.paints, 0);
    QCOMPARE(bar->value(), 3);
    QCOMPARE(bar->maximum(), 4);
    QTRY_VERIFY(counter.paints > 0); // and is painted with the next paint
    QVERIFY(bar->isVisible());
    showProgress(bar, 0, 0); // nothing to count yet: a range of one, never an empty one
    QCOMPARE(bar->maximum(), 1);
}

QTEST_MAIN(TestRunStatusBar)
#include "tst_run_status_bar.moc"
