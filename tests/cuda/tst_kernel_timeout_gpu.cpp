// A user's kernel that never ends, on a GPU: the runner gives up at its deadline (the floor of
// 10 s for a budget of 100 ms), answers `kernel_timeout` with its sentence, exits with status 3
// (the CUDA context and the kernel die with the process), and a new runner measures again. Each
// wait the kernel can be caught in is one row: the verification launch, the warm-up, and the
// timed launch itself (no verification, no warm-up). Skips without a GPU.
#include "../support/runner_process.h"
#include "custom_stage.h"
#include "requests.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;

namespace {

// Spins until A[0] holds a value the inputs (random in [-1, 1]) never have. The volatile read is
// a side effect, so the compiler may not assume the loop ends.
const char *kSpinningKernel = R"(/* gemmscope:kernel
name      spin::forever
title     Never ends
block     32
grid      1
*/
#include "common.cuh"
namespace spin {
__global__ void forever(const float *A, const float *B, float *C, int M, int N, int K)
{
    const volatile float *a = A;
    while (a[0] != 12345.0f) {
    }
    GEMMSCOPE_STORE_C(C[threadIdx.x % N], 0.0f);
}
} // namespace spin
)";

std::string blankKernel()
{
    QFile file(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/kernels/blank_kernel.cuh"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the blank kernel");
    return file.readAll().toStdString();
}

QJsonObject runOf(const QString &id, const std::string &text, const QString &fileName, bool verify,
                  int warmup)
{
    const CustomStageParse parsed = registerCustomKernel({text, fileName.toStdString(), {}});
    if (!parsed.stage)
        qFatal("%s", describeSourceProblems(fileName.toStdString(), parsed.problems).c_str());
    protocol::RunJob job;
    job.id = id;
    job.stage = QString::fromStdString(parsed.stage->key); // the codec adds the kernel's source
    job.size = {256, 256, 256};
    job.verify = verify;
    protocol::TimingRequest timing;
    timing.budgetMs = 100;
    timing.warmup = warmup;
    job.timing = timing;
    return protocol::toJson(job);
}

} // namespace

class TestKernelTimeoutGpu : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        QVERIFY(m_cache.isValid());
        RunnerProcess probe(m_cache.path());
        const QJsonObject ready = probe.start();
        GEMMSCOPE_REQUIRE_GPU_RUNNER(ready);
    }

    void endlessKernelIsStoppedAndTheRunnerRestarts_data()
    {
        QTest::addColumn<bool>("verify");
        QTest::addColumn<int>("warmup");
        QTest::newRow("in verification") << true << 2;
        QTest::newRow("in warm-up") << false << 2;
        QTest::newRow("in a timed launch") << false << 0;
    }
    void endlessKernelIsStoppedAndTheRunnerRestarts()
    {
        QFETCH(bool, verify);
        QFETCH(int, warmup);
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        QElapsedTimer elapsed;
        elapsed.start();
        runner.send(
            runOf(QStringLiteral("spin"), kSpinningKernel, QStringLiteral("spin.cuh"), verify, warmup));
        const QJsonObject error = runner.waitFor(QStringLiteral("spin"),
                                                 {QStringLiteral("result"), QStringLiteral("error")}, 120000);
        QCOMPARE(error.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("kernel_timeout"));
        QCOMPARE(error.value(QStringLiteral("message")).toString(),
                 QStringLiteral(
                     "The kernel did not finish within 10 s; it was stopped and the runner restarted."));
        QVERIFY2(elapsed.elapsed() >= 10000, "the deadline came before its 10 s");
        // The process ends by itself, with the device fault's status: the client restarts it.
        QVERIFY2(runner.process.waitForFinished(60000), "the runner did not exit after the timeout");
        QCOMPARE(runner.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(runner.process.exitCode(), 3);

        // A new runner has a working GPU: the blank kernel runs and verifies.
        RunnerProcess next(m_cache.path());
        QVERIFY(!next.start().isEmpty());
        next.send(runOf(QStringLiteral("after"), blankKernel(), QStringLiteral("blank_kernel.cuh"), true, 2));
        const QJsonObject result =
            next.waitFor(QStringLiteral("after"), {QStringLiteral("result"), QStringLiteral("error")});
        QVERIFY2(result.value(QStringLiteral("event")).toString() == QStringLiteral("result"),
                 qPrintable(result.value(QStringLiteral("message")).toString()));
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestKernelTimeoutGpu)
#include "tst_kernel_timeout_gpu.moc"
