// A user's kernel end to end on a GPU, as a user does it: New Blank Kernel, Run (Ctrl+R) in the
// Editor, and the measured, verified run arrives in the session beside the ladder, its text kept
// with the session; then a kernel that writes out of bounds ends in a device fault, the runner
// restarts and the editor keeps its text. Saves screenshots to $GEMMSCOPE_SCREENSHOT_DIR when set.
// Skips without a GPU.
#include "custom_stage.h"
#include "editor_workspace.h"
#include "kernel_editor.h"
#include "main_window.h"
#include "parameter_panel.h"
#include "session.h"
#include "support/gpu_window.h"
#include "workspaces.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

// Writes far past C in every thread: an illegal address the GPU reports.
const char *kOutOfBounds = R"(/* gemmscope:kernel
name      oob::write
title     Writes out of bounds
param BM  {16} default 16
block     16, BM
grid      ceil_div(N, 16), ceil_div(M, BM)
*/
#include "common.cuh"
namespace oob {
template <int BM>
__global__ void write(const float *A, const float *B, float *C, int M, int N, int K)
{
    GEMMSCOPE_STORE_C(C[(1ll << 40) + threadIdx.x], 1.0f);
}
} // namespace oob
)";

} // namespace

class TestKernelBridgeGpu : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    std::unique_ptr<MainWindow> startWindow()
    {
        return test::startGpuWindow(m_dir.filePath("autosave.json"));
    }

    static const RunRecord *lastFinished(MainWindow &window)
    {
        const auto &runs = window.session()->runs();
        if (runs.isEmpty())
            return nullptr;
        const RunRecord &last = runs.last();
        return last.status == RunStatus::Ok || last.status == RunStatus::Failed ? &last : nullptr;
    }

    void screenshot(MainWindow &window, const QString &name) { QVERIFY(test::saveWindowShot(window, name)); }

private slots:
    void initTestCase()
    {
        const QString runner = qEnvironmentVariable("GEMMSCOPE_RUNNER");
        if (runner.isEmpty() || !QFileInfo(runner).isExecutable())
            QSKIP("gemmscope-runner is not built here (GEMMSCOPE_RUNNER is not set)");
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void aBlankKernelRunsVerifiedBesideTheLadder()
    {
        const auto window = startWindow();
        if (!window->runnerAvailable())
            QSKIP(qPrintable(QStringLiteral("No GPU runner: ") + window->runnerStatus()));
        auto *editor = window->findChild<EditorWorkspace *>();
        window->workspaces()->setCurrent(Workspace::Editor);
        KernelEditor *kernel = editor->newBlankKernel();
        QVERIFY(kernel);
        RunConfig config = window->parameterPanel()->config();
        config.size = {2048, 2048, 2048};
        window->parameterPanel()->setConfig(config);
        editor->runCurrent();
        QVERIFY2(editor->notice().startsWith(QStringLiteral("Running")), qPrintable(editor->notice()));
        QVERIFY(QTest::qWaitFor([&] { return lastFinished(*window) != nullptr; }, 180000));
        const RunRecord run = *lastFinished(*window);
        QVERIFY2(run.status == RunStatus::Ok, qPrintable(run.errorMessage));
        const StageInfo &stage = stageInfo(run.stage);
        QVERIFY(stage.isCustom);
        QCOMPARE(stage.key, customStageKey(kernel->text().toStdString()));
        QVERIFY(run.medianMs > 0);
        QCOMPARE(window->session()->customKernels().size(), std::size_t(1));
        QCOMPARE(window->session()->customKernels().front().text, kernel->text().toStdString());
        qInfo("blank kernel at 2048^3: %.3f ms, %.2f TFLOP/s", run.medianMs, run.tflops);
        screenshot(*window, QStringLiteral("editor-after-run.png"));
        window->workspaces()->setCurrent(Workspace::Ladder);
        screenshot(*window, QStringLiteral("ladder-with-your-kernel.png"));
    }

    void anOutOfBoundsKernelFaultsAndTheTextStays()
    {
        const auto window = startWindow();
        if (!window->runnerAvailable())
            QSKIP(qPrintable(QStringLiteral("No GPU runner: ") + window->runnerStatus()));
        auto *editor = window->findChild<EditorWorkspace *>();
        KernelEditor *kernel = editor->newBlankKernel();
        QVERIFY(kernel);
        kernel->setText(QString::fromUtf8(kOutOfBounds));
        editor->runCurrent();
        QVERIFY(QTest::qWaitFor([&] { return lastFinished(*window) != nullptr; }, 180000));
        const RunRecord run = *lastFinished(*window);
        QCOMPARE(run.status, RunStatus::Failed);
        QVERIFY2(run.errorKind == QStringLiteral("device_fault"),
                 qPrintable(run.errorKind + ": " + run.errorMessage));
        QCOMPARE(kernel->text(), QString::fromUtf8(kOutOfBounds));
        // The runner came back: the blank kernel runs after it.
        QVERIFY(QTest::qWaitFor([&] { return window->runnerAvailable(); }, 60000));
        KernelEditor *blank = editor->newBlankKernel();
        editor->runCurrent();
        QVERIFY(QTest::qWaitFor(
            [&] { return lastFinished(*window) && window->session()->runs().size() == 2; }, 180000));
        QCOMPARE(window->session()->runs().last().status, RunStatus::Ok);
        Q_UNUSED(blank);
    }
};

QTEST_MAIN(TestKernelBridgeGpu)
#include "tst_kernel_bridge_gpu.moc"
