// The Editor workspace (app/gui/editor_workspace.h), offscreen: a blank kernel and a copy of a
// stage (its kernel and its headers, read-only, beside it), Open refusing a binary file and one
// over 1 MiB with a sentence, Export writing what Open reads back, the checks as the user types
// (and nothing compiled), Ctrl+B and Ctrl+R reaching KernelActions, the problems list jumping to a
// line, and the buffers autosaved and restored (a damaged autosave set aside with a sentence).
#include "custom_stage.h"
#include "editor_workspace.h"
#include "empty_state.h"
#include "find_bar.h"
#include "kernel_actions.h"
#include "kernel_editor.h"
#include "kernel_problems_view.h"
#include "kernel_sources.h"
#include "main_window.h"
#include "stage_catalog.h"
#include "support/file_bytes.h"
#include "support/view_shots.h"
#include "workspaces.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QTreeWidget>

using namespace gemmscope;
using gemmscope::test::readAll;
using gemmscope::test::writeAll;

namespace {

struct RecordingActions : KernelActions {
    QList<CustomKernelSource> compiled, ran;
    void compile(const CustomKernelSource &source) override { compiled.append(source); }
    void run(const CustomKernelSource &source) override { ran.append(source); }
};

// A stand-in for the parser: a problem at every line that says "oops", counted per call.
struct CountingCheck {
    std::shared_ptr<int> calls = std::make_shared<int>(0);
    SourceCheck check() const
    {
        return [calls = calls](const CustomKernelSource &source) {
            ++*calls;
            QList<KernelProblem> problems;
            const QStringList lines = QString::fromStdString(source.text).split(QLatin1Char('\n'));
            for (int i = 0; i < lines.size(); ++i)
                if (lines[i].contains(QStringLiteral("oops")))
                    problems.append({.file = QString::fromStdString(source.fileName),
                                     .line = i + 1,
                                     .message = QStringLiteral("oops is not a word"),
                                     .severity = KernelProblem::Severity::Error});
            return problems;
        };
    }
};

EditorWorkspace::Options noAutosave()
{
    return {.autosavePath = {}, .check = {}, .checkDelayMs = 50};
}

} // namespace

class TestEditorWorkspace : public QObject {
    Q_OBJECT
private slots:
    void newBlankKernel()
    {
        EditorWorkspace workspace(noAutosave());
        QFile resource(QStringLiteral(":/gemmscope/kernels/blank_kernel.cuh"));
        if (!resource.open(QIODevice::ReadOnly)) {
            // A tree without resources/kernels/blank_kernel.cuh (it comes with the custom stages):
            // the action says so instead of opening an empty tab.
            QVERIFY(!workspace.newBlankKernel());
            QVERIFY(workspace.notice().contains(QStringLiteral("blank kernel")));
            QSKIP("resources/kernels/blank_kernel.cuh is not in this tree");
        }
        const QString expected = QString::fromUtf8(resource.readAll());
        QVERIFY(!expected.isEmpty());
        auto *empty = workspace.findChild<QWidget *>(QStringLiteral("editorEmptyState"));
        QVERIFY(empty && !empty->isHidden()); // says what to do while no kernel is open
        // Nothing to diff or export yet: those actions wait for a kernel (Compile waits for source,
        // compileWaitsForSource).
        const char *const onTheKernel[] = {"actionKernelDiff", "actionKernelExport"};
        for (const char *name : onTheKernel)
            QVERIFY2(!workspace.action(name)->isEnabled(), name);
        KernelEditor *editor = workspace.newBlankKernel();
        QVERIFY(editor);
        QVERIFY(empty->isHidden());
        for (const char *name : onTheKernel)
            QVERIFY2(workspace.action(name)->isEnabled(), name);
        QCOMPARE(editor->text(), expected);
        QVERIFY(!editor->isReadOnly());
        QCOMPARE(workspace.currentKernel(), editor);
        QCOMPARE(workspace.fileNameOf(editor), QStringLiteral("my_kernel.cuh"));
        // A second one gets a name of its own.
        QCOMPARE(workspace.fileNameOf(workspace.newBlankKernel()), QStringLiteral("my_kernel_2.cuh"));
    }

    // The empty pane offers each way to start as a button, not only in its sentence, and the
    // button does what the toolbar's action does.
    void emptyStateOffersEveryWayToStart()
    {
        EditorWorkspace workspace(noAutosave());
        auto *empty = workspace.findChild<EmptyState *>(QStringLiteral("editorEmptyState"));
        QVERIFY(empty);
        QStringList offered;
        for (const QPushButton *button : empty->findChildren<QPushButton *>())
            if (!button->isHidden())
                offered << button->text();
        for (const char *action : {"actionKernelNewFromStage", "actionKernelNewBlank", "actionKernelOpen"}) {
            const QString text = workspace.action(action)->text().remove(QLatin1Char('&'));
            QVERIFY2(offered.contains(text),
                     qPrintable(offered.join(QStringLiteral(", ")) + " lacks " + text));
        }
        if (!QFile::exists(QStringLiteral(":/gemmscope/kernels/blank_kernel.cuh")))
            QSKIP("resources/kernels/blank_kernel.cuh is not in this tree");
        auto *blank = empty->findChild<QPushButton *>(QStringLiteral("editorEmptyNewBlank"));
        QVERIFY(blank);
        blank->click();
        QVERIFY(workspace.currentKernel());
        QCOMPARE(workspace.fileNameOf(workspace.currentKernel()), QStringLiteral("my_kernel.cuh"));
    }

    // With no kernel open, the pane is a start page rather than four lines in its top left corner
    // (the rest of a 1920x1080 window blank): a heading, each way to start as a button beside what it
    // does, what Compile and Run then do with their keys, the block in the middle of the pane.
    void emptyStateIsAStartPage()
    {
        EditorWorkspace workspace(noAutosave());
        workspace.resize(1600, 900);
        workspace.show();
        QVERIFY(QTest::qWaitForWindowExposed(&workspace));
        auto *empty = workspace.findChild<EmptyState *>(QStringLiteral("editorEmptyState"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(!empty->heading().isEmpty());
        const QList<QPushButton *> steps{
            empty->offerButton(), empty->findChild<QPushButton *>(QStringLiteral("editorEmptyNewBlank")),
            empty->findChild<QPushButton *>(QStringLiteral("editorEmptyOpen"))};
        for (QPushButton *step : steps) {
            QVERIFY(step && step->isVisible());
            QVERIFY2(!empty->stepText(step).isEmpty(), qPrintable(step->text()));
        }
        const auto *footnote = empty->findChild<QLabel *>(QStringLiteral("emptyStateFootnote"));
        QVERIFY(footnote && footnote->isVisible());
        for (const char *name : {"actionKernelCompile", "actionKernelRun"}) {
            const QString keys = workspace.action(name)->shortcut().toString(QKeySequence::NativeText);
            QVERIFY2(!keys.isEmpty() && footnote->text().contains(keys), qPrintable(footnote->text()));
        }
        const QRect text(empty->textLabel()->mapTo(empty, QPoint(0, 0)), empty->textLabel()->size());
        QVERIFY2(text.left() > empty->width() / 8, qPrintable(QString::number(text.left())));
        QVERIFY2(std::abs(text.center().x() - empty->width() / 2) < empty->width() / 10,
                 qPrintable(QString::number(text.center().x())));
        QVERIFY2(text.top() > empty->height() / 10, qPrintable(QString::number(text.top())));
        // Nothing of it cut: each sentence has the lines its width needs.
        for (const QLabel *label : empty->findChildren<QLabel *>())
            if (label->isVisible() && label->wordWrap())
                QVERIFY2(label->height() >= label->heightForWidth(label->width()), qPrintable(label->text()));
    }

    // No button twice: while no kernel is open the pane offers the three ways to start and the
    // tool bar waits; once one is open the tool bar holds them (and Compile, Run) and the pane is gone.
    void emptyPaneAndToolBarNeverShowOneButtonTwice()
    {
        EditorWorkspace workspace(noAutosave());
        workspace.resize(900, 600);
        workspace.show();
        QVERIFY(QTest::qWaitForWindowExposed(&workspace));
        const auto shownButtons = [&workspace] {
            QStringList texts;
            for (const QAbstractButton *button : workspace.findChildren<QAbstractButton *>())
                if (button->isVisible() && !button->text().isEmpty())
                    texts << button->text().remove(QLatin1Char('&'));
            return texts;
        };
        auto *toolBar = workspace.findChild<QToolBar *>(QStringLiteral("kernelToolBar"));
        QVERIFY(toolBar);
        QVERIFY(!toolBar->isVisible());
        QStringList shown = shownButtons();
        for (const char *action : {"actionKernelNewFromStage", "actionKernelNewBlank", "actionKernelOpen"})
            QCOMPARE(shown.count(workspace.action(action)->text().remove(QLatin1Char('&'))), 1);
        QCOMPARE(QSet<QString>(shown.begin(), shown.end()).size(), shown.size());
        if (!workspace.newBlankKernel())
            QSKIP("resources/kernels/blank_kernel.cuh is not in this tree");
        QVERIFY(toolBar->isVisible());
        shown = shownButtons();
        for (const char *action : {"actionKernelNewFromStage", "actionKernelNewBlank", "actionKernelOpen",
                                   "actionKernelCompile", "actionKernelRun"})
            QCOMPARE(shown.count(workspace.action(action)->text().remove(QLatin1Char('&'))), 1);
    }

    // Every stage with a source: the copy holds its kernel and a parameter block naming each of
    // its parameters; its headers open read-only.
    void newFromEveryStage()
    {
        for (const StageInfo &stage : stages()) {
            if (stage.isLibrary || stage.sourceFile.empty())
                continue;
            EditorWorkspace workspace(noAutosave());
            KernelEditor *editor = workspace.newFromStage(QString::fromStdString(stage.key));
            QVERIFY2(editor, stage.key.c_str());
            const QString text = editor->text();
            const std::string_view source = embeddedKernelSource(stage.sourceFile);
            QVERIFY2(text.contains(QString::fromUtf8(source.data(), qsizetype(source.size()))),
                     stage.key.c_str());
            QVERIFY(text.contains(QStringLiteral("/* gemmscope:kernel")));
            QVERIFY(text.contains(QStringLiteral("name      ") + QString::fromStdString(stage.kernelName)));
            for (const ParamSpec &p : stage.params)
                QVERIFY2(text.contains(QStringLiteral("param %1").arg(QString::fromStdString(p.name))),
                         qPrintable(QString::fromStdString(stage.key + " " + p.name)));
            QVERIFY(text.contains(QStringLiteral("\nblock ")));
            QVERIFY(text.contains(QStringLiteral("\ngrid ")));
            QCOMPARE(workspace.currentSource().derivedFrom, stage.key);
            for (KernelEditor *header : workspace.headers())
                QVERIFY(header->isReadOnly());
        }
    }

    void coalescedCopyHasItsHeadersAndGeometry()
    {
        EditorWorkspace workspace(noAutosave());
        KernelEditor *editor = workspace.newFromStage(QStringLiteral("coalesced"));
        QVERIFY(editor);
        QStringList headerNames;
        for (KernelEditor *header : workspace.headers())
            headerNames << workspace.fileNameOf(header);
        QVERIFY2(headerNames.contains(QStringLiteral("cooperative_load.cuh")),
                 qPrintable(headerNames.join(' ')));
        QVERIFY2(headerNames.contains(QStringLiteral("common.cuh")), qPrintable(headerNames.join(' ')));
        // Default BM=BN=64, TM=TN=4: 16 x 16 threads, a 64 x 64 tile per block.
        const QString text = editor->text();
        QVERIFY2(text.contains(QStringLiteral("block     16, 16")), qPrintable(text.left(1500)));
        QVERIFY2(text.contains(QStringLiteral("grid      ceil_div(N, 64), ceil_div(M, 64)")),
                 qPrintable(text.left(1500)));
        QVERIFY(text.contains(QStringLiteral("check them")));
        QVERIFY(!workspace.newFromStage(QStringLiteral("cublas")));
        QVERIFY(!workspace.notice().isEmpty());
    }

    void openRefusesBinaryAndOversizeFiles()
    {
        QTemporaryDir dir;
        const QString binary = dir.filePath(QStringLiteral("kernel.cuh"));
        QVERIFY(writeAll(binary, QByteArray("__global__\0void", 15)));
        const QString huge = dir.filePath(QStringLiteral("huge.cuh"));
        QVERIFY(writeAll(huge, QByteArray(int(kMaxKernelSourceBytes) + 1, 'x')));
        const QString latin1 = dir.filePath(QStringLiteral("latin1.cu"));
        QVERIFY(writeAll(latin1, QByteArray("// caf\xe9\n")));
        EditorWorkspace workspace(noAutosave());
        QVERIFY(!workspace.openKernelFile(binary));
        QVERIFY2(workspace.notice().contains(QStringLiteral("binary")), qPrintable(workspace.notice()));
        QVERIFY(!workspace.openKernelFile(huge));
        QVERIFY2(workspace.notice().contains(QStringLiteral("1 MiB")), qPrintable(workspace.notice()));
        QVERIFY(!workspace.openKernelFile(latin1));
        QVERIFY2(workspace.notice().contains(QStringLiteral("UTF-8")), qPrintable(workspace.notice()));
        QVERIFY(!workspace.openKernelFile(dir.path())); // a folder
        QVERIFY(!workspace.notice().isEmpty());
        QVERIFY(workspace.kernels().isEmpty());
        // A named pipe is neither read nor waited on.
        const QString fifo = dir.filePath(QStringLiteral("pipe.cuh"));
        QCOMPARE(QProcess::execute(QStringLiteral("mkfifo"), {fifo}), 0);
        QVERIFY(!workspace.openKernelFile(fifo));
        QVERIFY(workspace.kernels().isEmpty());
    }

    void exportWritesWhatOpenReadsBack()
    {
        QTemporaryDir dir;
        EditorWorkspace workspace(noAutosave());
        QVERIFY(!workspace.exportKernel(dir.filePath(QStringLiteral("none.cuh")))); // nothing open
        KernelEditor *editor = workspace.newFromStage(QStringLiteral("naive"));
        editor->append(QStringLiteral("// é and <b>markup</b>\n"));
        const QString path = dir.filePath(QStringLiteral("exported.cuh"));
        QVERIFY2(workspace.exportKernel(path), qPrintable(workspace.notice()));
        QCOMPARE(readAll(path), editor->text().toUtf8());
        QVERIFY(workspace.openKernelFile(path));
        QCOMPARE(workspace.kernels().size(), 2);
        QCOMPARE(workspace.currentKernel()->text(), editor->text());
        QCOMPARE(workspace.fileNameOf(workspace.currentKernel()), QStringLiteral("exported.cuh"));
        // A folder in the way: a sentence, nothing written.
        QVERIFY(!workspace.exportKernel(dir.path()));
        QVERIFY(!workspace.notice().isEmpty());
    }

    // Compile (the tool bar's button, the Kernel menu's item and Ctrl+B: one action) is off with its
    // reason while no kernel is open or the open one is empty, and on as soon as there is source.
    void compileWaitsForSource()
    {
        QMainWindow window;
        auto *workspace = new EditorWorkspace(noAutosave());
        window.setCentralWidget(workspace);
        RecordingActions actions;
        workspace->setKernelActions(&actions);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QAction *compile = workspace->action("actionKernelCompile");
        QVERIFY(!compile->isEnabled());
        QCOMPARE(compile->toolTip(), QStringLiteral("Open or write a kernel to compile"));
        QCOMPARE(compile->statusTip(), compile->toolTip());
        QTest::keyClick(&window, Qt::Key_B, Qt::ControlModifier);
        QVERIFY(actions.compiled.isEmpty());
        KernelEditor *editor = workspace->newFromStage(QStringLiteral("naive"));
        QVERIFY(editor);
        QVERIFY(compile->isEnabled());
        QVERIFY2(compile->toolTip().contains(QStringLiteral("NVRTC")), qPrintable(compile->toolTip()));
        // Every line deleted, or only white space left: nothing to compile, and the tip says which kernel.
        for (const QString &blank : {QString(), QStringLiteral("  \n\t\n")}) {
            editor->setText(blank);
            QVERIFY(!compile->isEnabled());
            QVERIFY2(compile->toolTip().contains(workspace->fileNameOf(editor)),
                     qPrintable(compile->toolTip()));
            editor->setFocus();
            QTest::keyClick(editor, Qt::Key_B, Qt::ControlModifier);
            QVERIFY(actions.compiled.isEmpty());
        }
        // One character typed is source: Compile is on at once, not after the check's pause.
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_X);
        QVERIFY(compile->isEnabled());
        QTest::keyClick(editor, Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(actions.compiled.size(), 1);
        // The menu and the tool bar show this one action.
        auto *toolBar = workspace->findChild<QToolBar *>(QStringLiteral("kernelToolBar"));
        QVERIFY(toolBar && toolBar->actions().contains(compile));
        // Emptied (so that closing asks nothing) and closed with its headers: off once no kernel is left.
        editor->setText(QString());
        while (workspace->tabs()->count() > 0)
            emit workspace->tabs()->tabCloseRequested(0);
        QVERIFY(workspace->kernels().isEmpty());
        QVERIFY(!compile->isEnabled());
        QCOMPARE(compile->toolTip(), QStringLiteral("Open or write a kernel to compile"));
    }

    void keysReachKernelActions()
    {
        QMainWindow window;
        auto *workspace = new EditorWorkspace(noAutosave());
        window.setCentralWidget(workspace);
        RecordingActions actions;
        workspace->setKernelActions(&actions);
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_B, Qt::ControlModifier); // nothing open: Compile is off
        QVERIFY(actions.compiled.isEmpty());
        KernelEditor *editor = workspace->newFromStage(QStringLiteral("coalesced"));
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(actions.compiled.size(), 1);
        QCOMPARE(actions.compiled[0].text, editor->text().toStdString());
        QCOMPARE(actions.compiled[0].fileName, std::string("coalesced_copy.cuh"));
        QCOMPARE(actions.compiled[0].derivedFrom, std::string("coalesced"));
        QVERIFY(actions.ran.isEmpty());
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(actions.ran.size(), 1);
        // From a header's tab: the kernel it was opened for.
        workspace->tabs()->setCurrentWidget(workspace->headers().first());
        QTest::keyClick(workspace->headers().first(), Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(actions.compiled.size(), 2);
        QCOMPARE(actions.compiled[1].fileName, std::string("coalesced_copy.cuh"));

        // Handed to the window's actions while another workspace is shown.
        QAction windowCompile;
        workspace->shareKeys(false, &windowCompile, nullptr);
        QCOMPARE(windowCompile.shortcut(), QKeySequence(QStringLiteral("Ctrl+B")));
        QVERIFY(workspace->action("actionKernelCompile")->shortcut().isEmpty());
        workspace->shareKeys(true, &windowCompile, nullptr);
        QVERIFY(windowCompile.shortcut().isEmpty());
        QCOMPARE(workspace->action("actionKernelCompile")->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+B")));
    }

    // In the window, Ctrl+B and Ctrl+R belong to the Editor's actions while it is shown and to the
    // window's (the configured stage's) elsewhere: never both, which Qt would call ambiguous.
    void theWindowHandsTheKeysOver()
    {
        MainWindow window(
            {.startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
        auto *workspace = window.findChild<EditorWorkspace *>();
        QVERIFY(workspace);
        RecordingActions actions;
        workspace->setKernelActions(&actions);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.workspaces()->setCurrent(Workspace::Editor);
        KernelEditor *editor = workspace->newFromStage(QStringLiteral("naive"));
        QVERIFY(editor);
        editor->setFocus();
        // Without a runner Run Kernel is off as the window's Run is; the keys are what is tested
        // here, so it is switched on as a runner would.
        QAction *runKernel = workspace->action("actionKernelRun");
        QVERIFY(!runKernel->isEnabled());
        runKernel->setEnabled(true);
        QTest::keyClick(editor, Qt::Key_B, Qt::ControlModifier);
        QTest::keyClick(editor, Qt::Key_R, Qt::ControlModifier);
        QCOMPARE(actions.compiled.size(), 1);
        QCOMPARE(actions.ran.size(), 1);
        QVERIFY(window.action(QStringLiteral("actionCompile"))->shortcut().isEmpty());
        QVERIFY(window.action(QStringLiteral("actionRun"))->shortcut().isEmpty());
        window.workspaces()->setCurrent(Workspace::Ladder);
        QCOMPARE(window.action(QStringLiteral("actionCompile"))->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+B")));
        QCOMPARE(window.action(QStringLiteral("actionRun"))->shortcut(),
                 QKeySequence(QStringLiteral("Ctrl+R")));
        QVERIFY(workspace->action("actionKernelCompile")->shortcut().isEmpty());
        QTest::keyClick(&window, Qt::Key_B, Qt::ControlModifier);
        QCOMPARE(actions.compiled.size(), 1); // the configured stage's compile, not the editor's
        // The Kernel menu holds the editor's actions.
        QVERIFY(workspace->action("actionKernelNewFromStage")->associatedObjects().size() >= 2);
    }

    // On the Editor page the window's tool bar Compile (and Run > Compile) is the editor's: off with
    // the reason while no kernel is open, on once one has source, and it compiles that kernel. On
    // the other pages it is the configured stage's again.
    void theWindowsCompileIsTheEditorsOnItsPage()
    {
        MainWindow window(
            {.startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
        auto *workspace = window.findChild<EditorWorkspace *>();
        QVERIFY(workspace);
        RecordingActions actions;
        workspace->setKernelActions(&actions);
        QAction *compile = window.action(QStringLiteral("actionCompile"));
        QVERIFY(compile->isEnabled()); // the configured stage's, on the Ladder
        const QString stageTip = compile->toolTip();
        window.workspaces()->setCurrent(Workspace::Editor);
        QVERIFY(!compile->isEnabled());
        QCOMPARE(compile->toolTip(), QStringLiteral("Open or write a kernel to compile"));
        QCOMPARE(compile->statusTip(), compile->toolTip());
        compile->trigger(); // a disabled action: nothing
        QVERIFY(actions.compiled.isEmpty());
        KernelEditor *editor = workspace->newFromStage(QStringLiteral("naive"));
        QVERIFY(editor);
        QVERIFY(compile->isEnabled());
        QCOMPARE(compile->toolTip(), workspace->action("actionKernelCompile")->toolTip());
        compile->trigger();
        QCOMPARE(actions.compiled.size(), 1); // the editor's kernel, not the configured stage
        QCOMPARE(actions.compiled[0].text, editor->text().toStdString());
        editor->setText(QString());
        QVERIFY(!compile->isEnabled());
        window.workspaces()->setCurrent(Workspace::Ladder);
        QVERIFY(compile->isEnabled());
        QCOMPARE(compile->toolTip(), stageTip);
    }

    // Typing is checked after a pause, each problem marked and listed; nothing is compiled.
    void checkedAsTheUserTypes()
    {
        CountingCheck counting;
        EditorWorkspace workspace({.autosavePath = {}, .check = counting.check(), .checkDelayMs = 50});
        RecordingActions actions;
        workspace.setKernelActions(&actions);
        workspace.show();
        KernelEditor *editor = workspace.newFromStage(QStringLiteral("naive"));
        const int before = *counting.calls;
        QCOMPARE(workspace.problemsView()->count(), 0);
        editor->setCursorPosition(2, 0);
        QTest::keyClicks(editor, QStringLiteral("oops"));
        QTRY_COMPARE_WITH_TIMEOUT(workspace.problemsView()->count(), 1, 10000);
        QVERIFY(*counting.calls > before);
        QVERIFY(*counting.calls < before + 5); // once per pause, not once per key
        QVERIFY(editor->problemTextAt(3).contains(QStringLiteral("oops")));
        QVERIFY(actions.compiled.isEmpty() && actions.ran.isEmpty());

        // The list's row shows its line.
        editor->setCursorPosition(0, 0);
        QTreeWidget *list = workspace.problemsView()->list();
        emit list->itemClicked(list->topLevelItem(0), 0);
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 2);

        // Undone: the problem goes.
        editor->undo();
        QTRY_COMPARE_WITH_TIMEOUT(workspace.problemsView()->count(), 0, 10000);
        QVERIFY(editor->problemTextAt(3).isEmpty());
    }

    // The last compile's problems, at their files: the kernel's on its tab, a header's on the header's.
    void compileLogMarksTheFilesItNames()
    {
        EditorWorkspace workspace(noAutosave());
        RecordingActions actions;
        workspace.setKernelActions(&actions);
        KernelEditor *editor = workspace.newFromStage(QStringLiteral("coalesced"));
        workspace.compileCurrent();
        workspace.showCompileLog(
            QStringLiteral("coalesced_copy.cuh(12): error: identifier \"q\" is undefined\n"
                           "coalesced_copy.cuh(13): warning: <b>markup</b> stays text\n"
                           "cooperative_load.cuh(5): warning #177-D: unused\n"
                           "ptxas error   : too much shared data\n"));
        QVERIFY(editor->problemTextAt(12).contains(QStringLiteral("identifier")));
        KernelEditor *header = nullptr;
        for (KernelEditor *h : workspace.headers())
            if (workspace.fileNameOf(h) == QLatin1String("cooperative_load.cuh"))
                header = h;
        QVERIFY(header);
        QVERIFY(header->problemTextAt(5).contains(QStringLiteral("unused")));
        QCOMPARE(workspace.problemsView()->count(), 4);
        editor->goToLine(1);
        QVERIFY(!gemmscope::test::renderShot(&workspace, QSize(1100, 700),
                                             QStringLiteral("editor-compile-problems"))
                     .isEmpty());
        workspace.showCompileLog(QString());
        QVERIFY(editor->problemTextAt(12).isEmpty());
        QVERIFY(header->problemTextAt(5).isEmpty());
    }

    void buffersAutosaveAndComeBack()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QString text;
        {
            EditorWorkspace workspace({.autosavePath = path, .check = {}, .checkDelayMs = 50});
            KernelEditor *editor = workspace.newFromStage(QStringLiteral("coalesced"));
            editor->setCursorPosition(4, 2);
            editor->insert(QStringLiteral("// mine\n"));
            text = editor->text();
            QTRY_VERIFY_WITH_TIMEOUT(readAll(path).contains("// mine"), 15000); // a second after the edit
            editor->setCursorPosition(5, 3);
            QVERIFY(workspace.saveBuffersNow());
        }
        EditorWorkspace restored({.autosavePath = path, .check = {}, .checkDelayMs = 50});
        QCOMPARE(restored.kernels().size(), 1);
        KernelEditor *editor = restored.kernels().first();
        QCOMPARE(editor->text(), text);
        QCOMPARE(restored.currentSource().derivedFrom, std::string("coalesced"));
        QCOMPARE(restored.fileNameOf(editor), QStringLiteral("coalesced_copy.cuh"));
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line, 5);
        QCOMPARE(index, 3);
        QVERIFY(!restored.headers().isEmpty()); // its headers open again
        QVERIFY(restored.notice().isEmpty());

        // Another window saved since; this one changed nothing, so its closing leaves that file.
        QList<KernelBuffer> other = KernelBufferFile::load(path).buffers;
        other.append({.text = QStringLiteral("x"),
                      .fileName = QStringLiteral("other.cuh"),
                      .derivedFrom = {},
                      .cursorLine = 0,
                      .cursorColumn = 0});
        QVERIFY(KernelBufferFile::save(path, other).ok);
        QVERIFY(restored.saveBuffersNow());
        QCOMPARE(KernelBufferFile::load(path).buffers.size(), 2);
        editor->insert(QStringLiteral("y")); // a change: its closing writes what it shows
        QVERIFY(restored.saveBuffersNow());
        QCOMPARE(KernelBufferFile::load(path).buffers.size(), 1);
    }

    void aDamagedAutosaveIsSetAside()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QVERIFY(writeAll(path, "{\"format\": \"gemmscope-kernel-buffers\", \"buffers\": [tru"));
        EditorWorkspace workspace({.autosavePath = path, .check = {}, .checkDelayMs = 50});
        QVERIFY(workspace.kernels().isEmpty());
        QVERIFY2(workspace.notice().contains(QStringLiteral("set aside")), qPrintable(workspace.notice()));
        const QStringList aside = QDir(dir.path()).entryList({QStringLiteral("kernel-buffers.damaged-*")});
        QCOMPARE(aside.size(), 1);
        QCOMPARE(readAll(dir.filePath(aside[0])),
                 QByteArray("{\"format\": \"gemmscope-kernel-buffers\", \"buffers\": [tru"));
    }

    void findBarFollowsTheCurrentTab()
    {
        EditorWorkspace workspace(noAutosave());
        KernelEditor *kernel = workspace.newFromStage(QStringLiteral("coalesced"));
        QCOMPARE(workspace.findBar()->editor(), kernel);
        workspace.tabs()->setCurrentWidget(workspace.headers().first());
        QCOMPARE(workspace.findBar()->editor(), workspace.headers().first());
    }
};

QTEST_MAIN(TestEditorWorkspace)
#include "tst_editor_workspace.moc"
