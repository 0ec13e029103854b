// The Editor's Compile and Run go the way of a built-in stage's: the kernel is registered as a
// catalog stage, the parameter panel is set to it, the window's Compile compiles it through the
// runner's compile-only mode (no GPU needed) and the compiler's errors come back to the editor's
// lines; a session's own kernels come back as stages and tabs, compiled and run by nobody.
#include "compile_panel.h"
#include "custom_stage.h"
#include "editor_workspace.h"
#include "kernel_editor.h"
#include "kernel_problems_view.h"
#include "main_window.h"
#include "parameter_panel.h"
#include "session.h"
#include "session_codec.h"

#include "support/file_bytes.h"

#include <QAction>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace gemmscope;

class TestKernelBridge : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    MainWindow::Options options() const
    {
        return {
            .startRunner = false, .restoreSettings = false, .autosavePath = m_dir.filePath("autosave.json")};
    }
    static QStringList problemTexts(EditorWorkspace *editor)
    {
        QStringList texts;
        QTreeWidget *list = editor->problemsView()->list();
        for (int i = 0; i < list->topLevelItemCount(); ++i) {
            QStringList columns;
            for (int c = 0; c < list->columnCount(); ++c)
                columns << list->topLevelItem(i)->text(c);
            texts << columns.join(QLatin1Char('|'));
        }
        return texts;
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Ctrl+B on a blank kernel: a catalog stage, configured in the panel, compiled with a report.
    // Then an error in its body: NVRTC's message marks that line of the editor.
    void compileMarksTheKernelsOwnLines()
    {
        if (qEnvironmentVariableIsEmpty("GEMMSCOPE_RUNNER"))
            QSKIP("Built without the CUDA Toolkit: there is no runner to compile with.");
        MainWindow window(options());
        auto *editor = window.findChild<EditorWorkspace *>();
        QVERIFY(editor);
        KernelEditor *kernel = editor->newBlankKernel();
        QVERIFY(kernel);
        QSignalSpy done(&window, &MainWindow::compileFinished);
        editor->compileCurrent();
        QVERIFY(done.wait(60000));
        const StageInfo &stage = stageInfo(window.parameterPanel()->config().stage);
        QVERIFY(stage.isCustom);
        QCOMPARE(stage.key, customStageKey(kernel->text().toStdString()));
        auto *report = window.findChild<CompilePanel *>(QStringLiteral("compilePanel"));
        QVERIFY2(report->message().startsWith(QStringLiteral("Compiled ")), qPrintable(report->message()));
        QVERIFY(report->message().contains(QString::fromStdString(stage.title)));
        QVERIFY(window.session()->customKernels().empty()); // a compile keeps nothing; a run would

        // Line 48 of the blank kernel is inside the loop; an undefined name there.
        QString text = kernel->text();
        const int at = text.indexOf(QStringLiteral("float acc = 0.0f;"));
        QVERIFY(at > 0);
        const int line = int(text.left(at).count(QLatin1Char('\n'))) + 1;
        text.insert(at, QStringLiteral("undefined_thing = 1; "));
        kernel->setText(text);
        done.clear();
        editor->compileCurrent();
        QVERIFY(done.wait(60000));
        QVERIFY2(report->log().contains(QStringLiteral("undefined_thing")), qPrintable(report->log()));
        const QStringList problems = problemTexts(editor);
        QVERIFY2(problems.filter(QStringLiteral("undefined_thing")).size() >= 1,
                 qPrintable(problems.join('\n')));
        QVERIFY2(problems.filter(QStringLiteral("undefined_thing")).first().contains(QString::number(line)),
                 qPrintable(problems.join('\n')));
    }

    // A text the parameter block refuses is not compiled; the editor says why, at its line.
    void aRefusedBlockIsNotCompiled()
    {
        MainWindow window(options());
        auto *editor = window.findChild<EditorWorkspace *>();
        KernelEditor *kernel = editor->newBlankKernel();
        QVERIFY(kernel);
        kernel->setText(kernel->text().replace(QStringLiteral("param BM  8..64 step 8 default 16"),
                                               QStringLiteral("param BM  64..8 default 16")));
        const StageId before = window.parameterPanel()->config().stage;
        editor->compileCurrent();
        QVERIFY2(editor->notice().startsWith(QStringLiteral("Not compiled: line")),
                 qPrintable(editor->notice()));
        QCOMPARE(window.parameterPanel()->config().stage, before);
    }

    // Run without a GPU: refused with the runner's reason, and nothing is kept.
    void runWithoutAGpuSaysWhy()
    {
        MainWindow window(options());
        auto *editor = window.findChild<EditorWorkspace *>();
        QVERIFY(editor->newBlankKernel());
        editor->runCurrent();
        QVERIFY2(editor->notice().startsWith(QStringLiteral("Not run:")), qPrintable(editor->notice()));
        QVERIFY(editor->notice().contains(QStringLiteral("Ctrl+B")));
        // Run Kernel looks as the window's Run does: off, with the reason on hover.
        QAction *runKernel = editor->action("actionKernelRun");
        QVERIFY(!runKernel->isEnabled());
        QVERIFY2(runKernel->toolTip().contains(QStringLiteral("Compile (Ctrl+B) works without a GPU")),
                 qPrintable(runKernel->toolTip()));
        QVERIFY(window.session()->customKernels().empty());
    }

    // A kernel copied from a stage shows what it changed from it, as the ladder shows its steps; a
    // blank kernel has no stage to compare with and says so.
    void aCopyShowsItsDiffFromTheStage()
    {
        MainWindow window(options());
        auto *editor = window.findChild<EditorWorkspace *>();
        KernelEditor *copy = editor->newFromStage(QStringLiteral("coalesced"));
        QVERIFY(copy);
        copy->setText(copy->text() + QStringLiteral("// my change\n"));
        KernelEditor *diff = editor->showDiffFromStage();
        QVERIFY(diff);
        QVERIFY(diff->isReadOnly());
        const QStringList lines = diff->text().split(QLatin1Char('\n'));
        QVERIFY(lines.contains(QStringLiteral("+ // my change")));
        QVERIFY(lines.contains(QStringLiteral("  #include \"common.cuh\"")) ||
                lines.filter(QStringLiteral("  #include")).size() > 0);
        QVERIFY(lines.filter(QRegularExpression(QStringLiteral("^[-+] "))).size() <
                lines.filter(QRegularExpression(QStringLiteral("^  "))).size());
        QVERIFY(editor->newBlankKernel());
        QVERIFY(!editor->showDiffFromStage());
        QVERIFY2(editor->notice().contains(QStringLiteral("not copied from a stage")),
                 qPrintable(editor->notice()));
    }

    // Someone else's session with a kernel of their own and its run: the kernel is a stage again
    // (the run has its title), open in a tab, and the editor says nothing was compiled or run.
    void aSessionsKernelsComeBackUncompiled()
    {
        const std::string text = "/* gemmscope:kernel\n"
                                 "name gemmscope::theirs\n"
                                 "title Their kernel\n"
                                 "precision fp32\n"
                                 "param BM 8..64 step 8 default 16\n"
                                 "block 16, BM\n"
                                 "grid ceil_div(N, 16), ceil_div(M, BM)\n"
                                 "*/\n"
                                 "#include \"common.cuh\"\n"
                                 "// their body\n";
        SessionData data;
        data.title = QStringLiteral("theirs");
        data.customKernels.push_back({text, "theirs.cuh", "naive"});
        RunRecord run;
        run.runId = QStringLiteral("t1");
        run.stage = stageIdOf(QString::fromStdString(customStageKey(text)));
        run.params = {{QStringLiteral("BM"), 16}};
        run.m = run.n = run.k = 1024;
        run.status = RunStatus::Ok;
        run.origin = QStringLiteral("measured");
        run.medianMs = 1.5;
        run.tflops = ProblemSize{1024, 1024, 1024}.tflopsAt(1.5);
        data.runs << run;
        const QString path = m_dir.filePath("theirs.json");
        QVERIFY(test::writeAll(path, serializeSession(data)));

        MainWindow window(options());
        QString error;
        QVERIFY2(window.openSession(path, &error), qPrintable(error));
        const StageInfo *stage = findStage(customStageKey(text));
        QVERIFY(stage && stage->isCustom);
        QCOMPARE(stage->title, std::string("Their kernel"));
        auto *editor = window.findChild<EditorWorkspace *>();
        const QList<KernelEditor *> open = editor->kernels();
        QVERIFY(std::any_of(open.begin(), open.end(),
                            [&](const KernelEditor *e) { return e->text().toStdString() == text; }));
        QVERIFY2(editor->notice().contains(QStringLiteral("None of them has been compiled or run yet")),
                 qPrintable(editor->notice()));
        QCOMPARE(window.session()->find(QStringLiteral("t1"))->stage, stage->id);
    }
};

QTEST_MAIN(TestKernelBridge)
#include "tst_kernel_bridge.moc"
