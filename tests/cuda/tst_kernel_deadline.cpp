// The deadline of a wait for a launch (gpu_wait.h), as a pure function of the job's budget, its
// sentence, and the protocol kinds after which the runner exits. The wait itself needs a GPU:
// tst_kernel_timeout_gpu runs a kernel that never ends.
#include "gpu_wait.h"
#include "protocol.h"

#include <QTest>

#include <limits>

using namespace gemmscope;

class TestKernelDeadline : public QObject {
    Q_OBJECT

private slots:
    void deadlineFollowsTheBudget_data()
    {
        QTest::addColumn<double>("budgetMs");
        QTest::addColumn<double>("seconds");
        QTest::newRow("protocol default") << 1000.0 << 20.0;
        QTest::newRow("small budget: the floor") << 100.0 << 10.0;
        QTest::newRow("at the floor") << 500.0 << 10.0;
        QTest::newRow("above the floor") << 501.0 << 10.02;
        QTest::newRow("long budget") << 60000.0 << 1200.0;
        QTest::newRow("zero") << 0.0 << 10.0;
        QTest::newRow("negative") << -5.0 << 10.0;
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << 10.0;
        QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << 10.0;
    }
    void deadlineFollowsTheBudget()
    {
        QFETCH(double, budgetMs);
        QFETCH(double, seconds);
        QCOMPARE(runner::kernelDeadlineSeconds(budgetMs), seconds);
    }

    void sentenceSaysTheWholeSeconds()
    {
        QCOMPARE(runner::kernelTimeoutMessage(20),
                 QStringLiteral(
                     "The kernel did not finish within 20 s; it was stopped and the runner restarted."));
        QCOMPARE(runner::kernelTimeoutMessage(10.02),
                 QStringLiteral(
                     "The kernel did not finish within 11 s; it was stopped and the runner restarted."));
    }

    void timeoutEndsTheRunnerLikeAFault()
    {
        QCOMPARE(protocol::errorKindName(protocol::ErrorKind::KernelTimeout),
                 QStringLiteral("kernel_timeout"));
        QCOMPARE(protocol::errorKindFromName(QStringLiteral("kernel_timeout")),
                 protocol::ErrorKind::KernelTimeout);
        QVERIFY(protocol::runnerEndsAfter(protocol::ErrorKind::KernelTimeout));
        QVERIFY(protocol::runnerEndsAfter(protocol::ErrorKind::DeviceFault));
        QVERIFY(!protocol::runnerEndsAfter(protocol::ErrorKind::LaunchError));
        QVERIFY(!protocol::runnerEndsAfter(protocol::ErrorKind::RunnerTimeout));
    }
};

QTEST_APPLESS_MAIN(TestKernelDeadline)
#include "tst_kernel_deadline.moc"
