#include "editor_workspace.h"

#include "empty_state.h"
#include "file_write.h"
#include "find_bar.h"
#include "kernel_actions.h"
#include "kernel_editor.h"
#include "kernel_problems_view.h"
#include "kernel_sources.h"
#include "notice_bar.h"
#include "source_diff.h"
#include "stage_catalog.h"
#include "stage_kernel_copy.h"
#include "stage_source_dialog.h"
#include "window_action.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

namespace gemmscope {

namespace {

constexpr int kMaxIncludeDepth = 8;
const QString kBlankKernelResource = QStringLiteral(":/gemmscope/kernels/blank_kernel.cuh");

} // namespace

EditorWorkspace::EditorWorkspace(const Options &options, QWidget *parent)
    : QWidget(parent), m_options(options), m_tabs(new QTabWidget), m_tabsOrEmpty(new QStackedWidget),
      m_empty(new EmptyState), m_findBar(new FindBar), m_problems(new KernelProblemsView),
      m_notice(new NoticeBar(NoticeBar::Kind::Warning))
{
    setObjectName(QStringLiteral("editorWorkspace"));
    m_tabs->setObjectName(QStringLiteral("kernelTabs"));
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->setDocumentMode(true);
    m_notice->setObjectName(QStringLiteral("editorNotice"));
    createActions();
    m_compileTip = action("actionKernelCompile")->toolTip(); // while there is source to compile
    updateKernelActions();

    auto *editorArea = new QWidget;
    auto *editorLayout = new QVBoxLayout(editorArea);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    m_empty->setObjectName(QStringLiteral("editorEmptyState"));
    // A start page: what the workspace is for, the three ways to start (each a button beside what
    // it does, also in the Kernel menu) and what comes after, with its keys.
    m_empty->setHeading(tr("Your own kernels"));
    m_empty->setText(
        tr("No kernel is open. Here you write a GEMM kernel of your own in CUDA, compile it and run it "
           "beside the ladder's stages. Start from one of these (they are in the Kernel menu too):"));
    m_empty->setOffer(tr("New from Stage…"),
                      tr("A copy of a stage's kernel, with a parameter block written from its "
                         "parameters"));
    m_empty->addStep(m_empty->offerButton(),
                     tr("Copy a stage's kernel to change it: its parameter block is written from the "
                        "stage's parameters."));
    connect(m_empty, &EmptyState::offerTaken, this, [this] { askForStage(); });
    QPushButton *blank = m_empty->addStep(
        tr("New Blank Kernel"),
        tr("A minimal correct kernel, the project's conventions explained in its comments."));
    blank->setObjectName(QStringLiteral("editorEmptyNewBlank"));
    connect(blank, &QPushButton::clicked, this, [this] { newBlankKernel(); });
    QPushButton *open = m_empty->addStep(tr("Open Kernel…"), tr("A .cuh or .cu file of at most 1 MiB."));
    open->setObjectName(QStringLiteral("editorEmptyOpen"));
    connect(open, &QPushButton::clicked, this, [this] { askForFile(); });
    const auto keys = [this](const char *name) {
        return action(name)->shortcut().toString(QKeySequence::NativeText);
    };
    m_empty->setFootnote(tr("Nothing compiles or runs until you ask: Compile (%1) compiles it and lists its "
                            "problems under the editor; Run (%2) checks it against cuBLAS and times it on "
                            "the GPU, and its runs join the Ladder's chart and table.")
                             .arg(keys("actionKernelCompile"), keys("actionKernelRun")));
    m_tabsOrEmpty->addWidget(m_empty);
    m_tabsOrEmpty->addWidget(m_tabs);
    editorLayout->addWidget(m_tabsOrEmpty, 1);
    editorLayout->addWidget(m_findBar);
    m_findBar->addShortcutsTo(editorArea);
    auto *split = m_split = new QSplitter(Qt::Vertical);
    split->setObjectName(QStringLiteral("editorSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(editorArea);
    split->addWidget(m_problems);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    m_problems->setMinimumHeight(90);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_toolBar = buildToolBar());
    layout->addWidget(m_notice);
    layout->addWidget(split, 1);

    m_checkTimer.setSingleShot(true);
    m_checkTimer.setInterval(options.checkDelayMs);
    connect(&m_checkTimer, &QTimer::timeout, this, &EditorWorkspace::checkNow);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &EditorWorkspace::closeTab);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        showTabsOrEmpty();
        auto *editor = qobject_cast<KernelEditor *>(m_tabs->currentWidget());
        m_findBar->setEditor(editor);
        if (editor && !m_tabInfo.value(editor).header)
            m_lastKernel = editor;
        refreshProblems();
    });
    connect(m_problems, &KernelProblemsView::problemActivated, this, [this](const QString &file, int line) {
        for (auto it = m_tabInfo.cbegin(); it != m_tabInfo.cend(); ++it)
            if (it.value().fileName == file || (file.isEmpty() && it.key() == currentKernel())) {
                m_tabs->setCurrentWidget(it.key());
                if (line > 0)
                    it.key()->goToLine(line);
                return;
            }
    });
    if (!options.autosavePath.isEmpty()) {
        m_autosave = new KernelAutosave(
            options.autosavePath, [this] { return buffers(); }, this);
        connect(m_autosave, &KernelAutosave::saveProblem, this, [this](const QString &sentence) {
            if (!sentence.isEmpty())
                say(sentence);
        });
    }
    restoreBuffers(); // before anything is autosaved over them
    showTabsOrEmpty();
    refreshProblems();
}

EditorWorkspace::~EditorWorkspace() = default;

void EditorWorkspace::showEvent(QShowEvent *event)
{
    // The problems list takes a fifth of the height at first (its size hint would take half on a
    // tall window); after that the user's split stays.
    if (!m_sized && m_split->height() > 0) {
        m_sized = true;
        const int h = m_split->height();
        m_split->setSizes({h - std::clamp(h / 5, 90, 220), std::clamp(h / 5, 90, 220)});
    }
    QWidget::showEvent(event);
}

void EditorWorkspace::showTabsOrEmpty()
{
    const bool anyOpen = m_tabs->count() > 0;
    m_tabsOrEmpty->setCurrentWidget(anyOpen ? static_cast<QWidget *>(m_tabs) : m_empty);
    // The tool bar once a kernel is open: while none is, the empty pane offers the three ways to
    // start, and the bar's same three buttons over it read as a second, different set (the Kernel
    // menu keeps every action either way).
    m_toolBar->setVisible(anyOpen);
    updateKernelActions();
}

void EditorWorkspace::updateKernelActions()
{
    // Diff and Export wait for a kernel: greyed, they say there is nothing to act on. Run Kernel is
    // the kernel bridge's, which also knows whether a runner can run it.
    KernelEditor *kernel = currentKernel();
    for (const char *name : {"actionKernelDiff", "actionKernelExport"})
        action(name)->setEnabled(kernel != nullptr);
    // Compile waits for source, greyed with the reason in its tooltip: pressable with nothing open or
    // an empty kernel, it read as if there were something to compile (a reviewer's finding).
    const bool source = kernel && kernel->hasSource();
    QAction *compile = action("actionKernelCompile");
    const QString tip = source   ? m_compileTip
                        : kernel ? tr("Write a kernel to compile: %1 is empty.").arg(fileNameOf(kernel))
                                 : tr("Open or write a kernel to compile");
    compile->setEnabled(source);
    compile->setToolTip(tip);
    compile->setStatusTip(tip);
}

void EditorWorkspace::createActions()
{
    const auto make = [this](const char *name, const QString &text, const QString &tip,
                             const QKeySequence &keys, std::function<void()> run) {
        QAction *a = addWindowAction(this, name, text, keys);
        a->setToolTip(keys.isEmpty() ? tip : tr("%1 (%2)").arg(tip, keys.toString(QKeySequence::NativeText)));
        a->setStatusTip(a->toolTip());
        connect(a, &QAction::triggered, this, std::move(run));
    };
    make("actionKernelNewFromStage", tr("New from &Stage…"),
         tr("A copy of a stage's kernel, with a parameter block written from its parameters"), {},
         [this] { askForStage(); });
    make("actionKernelNewBlank", tr("New &Blank Kernel"),
         tr("A minimal correct kernel with the project's conventions explained in its comments"), {},
         [this] { newBlankKernel(); });
    make("actionKernelOpen", tr("&Open Kernel…"), tr("Open a .cuh or .cu file of at most 1 MiB"), {},
         [this] { askForFile(); });
    make("actionKernelDiff", tr("&Diff from Its Stage"),
         tr("Show what the current kernel changed from the stage it was copied from"), {},
         [this] { showDiffFromStage(); });
    make("actionKernelExport", tr("&Export Kernel…"), tr("Write the current kernel to a .cuh file"), {},
         [this] { askForExport(); });
    make("actionKernelCompile", tr("&Compile Kernel"),
         tr("Compile the current kernel with NVRTC: no GPU needed, nothing runs"), QKeySequence(tr("Ctrl+B")),
         [this] { compileCurrent(); });
    make("actionKernelRun", tr("&Run Kernel"),
         tr("Verify the current kernel against cuBLAS, then time it on the GPU"), QKeySequence(tr("Ctrl+R")),
         [this] { runCurrent(); });
}

void EditorWorkspace::shareKeys(bool shown, QAction *compile, QAction *run)
{
    const QKeySequence compileKeys(tr("Ctrl+B")), runKeys(tr("Ctrl+R"));
    action("actionKernelCompile")->setShortcut(shown ? compileKeys : QKeySequence());
    action("actionKernelRun")->setShortcut(shown ? runKeys : QKeySequence());
    if (compile)
        compile->setShortcut(shown ? QKeySequence() : compileKeys);
    if (run)
        run->setShortcut(shown ? QKeySequence() : runKeys);
}

QWidget *EditorWorkspace::buildToolBar()
{
    auto *bar = new QToolBar;
    bar->setObjectName(QStringLiteral("kernelToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    for (const char *name :
         {"actionKernelNewFromStage", "actionKernelNewBlank", "actionKernelOpen", "actionKernelExport",
          "actionKernelDiff", "-", "actionKernelCompile", "actionKernelRun"}) {
        if (QByteArray(name) == "-")
            bar->addSeparator();
        else
            bar->addAction(action(name));
    }
    return bar;
}

QAction *EditorWorkspace::action(const char *name) const
{
    return findChild<QAction *>(QLatin1String(name), Qt::FindDirectChildrenOnly);
}

QString EditorWorkspace::uniqueName(const QString &wanted) const
{
    QStringList taken;
    for (const Tab &tab : m_tabInfo)
        taken << tab.fileName;
    if (!taken.contains(wanted))
        return wanted;
    const QFileInfo info(wanted);
    for (int n = 2;; ++n) {
        const QString name =
            QStringLiteral("%1_%2.%3").arg(info.completeBaseName()).arg(n).arg(info.suffix());
        if (!taken.contains(name))
            return name;
    }
}

KernelEditor *EditorWorkspace::addKernel(const QString &text, const QString &fileName,
                                         const QString &derivedFrom)
{
    auto *editor = new KernelEditor;
    editor->setText(text);
    const QString name = uniqueName(fileName);
    m_tabInfo.insert(editor, {.fileName = name, .derivedFrom = derivedFrom, .header = false});
    editor->setObjectName(QStringLiteral("kernelEditor"));
    m_tabs->addTab(editor, name);
    m_tabs->setTabToolTip(m_tabs->indexOf(editor),
                          derivedFrom.isEmpty() ? tr("%1: your kernel").arg(name)
                                                : tr("%1: your copy of the stage %2").arg(name, derivedFrom));
    connect(editor, &KernelEditor::textChanged, this, [this, editor] {
        m_edited = editor;
        m_checkTimer.start();
        if (editor == currentKernel())
            updateKernelActions(); // Compile as soon as there is source, off when it is all deleted
        if (m_autosave)
            m_autosave->changed();
    });
    connect(editor, &KernelEditor::cursorPositionChanged, this, [this] {
        if (m_autosave)
            m_autosave->changed(); // where the cursor was comes back too
    });
    openIncludedHeaders(text);
    m_tabs->setCurrentWidget(editor);
    m_edited = editor;
    checkNow();
    if (m_autosave)
        m_autosave->changed();
    return editor;
}

KernelEditor *EditorWorkspace::addHeader(const QString &name)
{
    for (auto it = m_tabInfo.cbegin(); it != m_tabInfo.cend(); ++it)
        if (it.value().header && it.value().fileName == name)
            return it.key();
    const std::string_view text = embeddedKernelSource(name.toStdString());
    auto *editor = new KernelEditor;
    editor->setObjectName(QStringLiteral("headerEditor"));
    editor->setText(QString::fromUtf8(text.data(), qsizetype(text.size())));
    editor->setHeaderReadOnly(true);
    m_tabInfo.insert(editor, {.fileName = name, .derivedFrom = {}, .header = true});
    const int index = m_tabs->addTab(editor, tr("%1 (read-only)").arg(name));
    m_tabs->setTabToolTip(index, tr("%1: a project header your kernel includes; read-only").arg(name));
    openIncludedHeaders(editor->text(), 1);
    return editor;
}

void EditorWorkspace::openIncludedHeaders(const QString &text, int depth)
{
    if (depth > kMaxIncludeDepth)
        return;
    static const QRegularExpression include(QStringLiteral(R"re(^\s*#\s*include\s*"([^"\n]{1,128})")re"),
                                            QRegularExpression::MultilineOption);
    QRegularExpressionMatchIterator it = include.globalMatch(text);
    for (int found = 0; it.hasNext() && found < 64; ++found) {
        const QString name = it.next().captured(1);
        const bool known = !embeddedKernelSource(name.toStdString()).empty();
        bool open = false;
        for (const Tab &tab : m_tabInfo)
            open |= tab.header && tab.fileName == name;
        if (known && !open)
            addHeader(name);
    }
}

KernelEditor *EditorWorkspace::newBlankKernel()
{
    QFile file(kBlankKernelResource);
    if (!file.open(QIODevice::ReadOnly)) {
        say(tr(
            "The blank kernel is not in this build of GemmScope; New from Stage… copies a stage instead."));
        return nullptr;
    }
    return addKernel(QString::fromUtf8(file.readAll()), QStringLiteral("my_kernel.cuh"), QString());
}

KernelEditor *EditorWorkspace::newFromStage(const QString &stageKey)
{
    const StageInfo *stage = findStage(stageKey.toStdString());
    const StageKernelCopy copy = stage ? stageKernelCopy(*stage) : StageKernelCopy{};
    if (copy.text.isEmpty()) {
        say(tr("The stage %1 has no source to copy.").arg(stageKey));
        return nullptr;
    }
    return addKernel(copy.text, copy.fileName, copy.derivedFrom);
}

bool EditorWorkspace::openKernelFile(const QString &path)
{
    const KernelFileRead read = readKernelFile(path);
    if (!read.text) {
        say(read.error);
        return false;
    }
    addKernel(*read.text, QFileInfo(path).fileName(), QString());
    m_notice->clear();
    return true;
}

bool EditorWorkspace::exportKernel(const QString &path)
{
    KernelEditor *kernel = currentKernel();
    if (!kernel) {
        say(tr("There is no kernel to export: create or open one first."));
        return false;
    }
    const FileWrite write = writeFileAtomically(path, kernel->text().toUtf8());
    if (!write.ok) {
        say(write.error);
        return false;
    }
    m_notice->clear();
    return true;
}

void EditorWorkspace::askForStage()
{
    StageSourceDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted && !dialog.chosenKey().isEmpty())
        newFromStage(dialog.chosenKey());
}

void EditorWorkspace::askForFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Kernel"), QString(),
                                                      tr("CUDA sources (*.cuh *.cu);;All files (*)"));
    if (!path.isEmpty())
        openKernelFile(path);
}

void EditorWorkspace::askForExport()
{
    KernelEditor *kernel = currentKernel();
    if (!kernel) {
        say(tr("There is no kernel to export: create or open one first."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Kernel"), fileNameOf(kernel),
                                                      tr("CUDA headers (*.cuh);;CUDA sources (*.cu)"));
    if (!path.isEmpty())
        exportKernel(path);
}

void EditorWorkspace::compileCurrent()
{
    if (!currentKernel())
        return say(tr("There is no kernel to compile: create or open one first (Kernel menu)."));
    m_compiledFile = fileNameOf(currentKernel());
    if (!m_kernelActions)
        return say(tr("Compiling your kernel is not connected to the runner in this window."));
    m_kernelActions->compile(currentSource());
}

void EditorWorkspace::runCurrent()
{
    if (!currentKernel())
        return say(tr("There is no kernel to run: create or open one first (Kernel menu)."));
    if (!m_kernelActions)
        return say(tr("Running your kernel is not connected to the runner in this window."));
    m_kernelActions->run(currentSource());
}

KernelEditor *EditorWorkspace::showDiffFromStage()
{
    const KernelEditor *kernel = currentKernel();
    if (!kernel) {
        say(tr("There is no kernel to compare: create or open one first (Kernel menu)."));
        return nullptr;
    }
    const Tab tab = m_tabInfo.value(const_cast<KernelEditor *>(kernel));
    const StageInfo *stage = findStage(tab.derivedFrom.toStdString());
    if (!stage || stage->sourceFile.empty()) {
        say(tr("%1 was not copied from a stage of the ladder: there is no stage source to compare it with.")
                .arg(tab.fileName));
        return nullptr;
    }
    // As the Kernel workspace shows a stage's diff from the one before it: unified, whole file.
    QStringList lines;
    const std::string_view before = embeddedKernelSource(stage->sourceFile);
    for (const DiffLine &line : diffLines(before, kernel->text().toStdString()))
        lines << (line.kind == DiffLine::Kind::Added     ? QStringLiteral("+ ")
                  : line.kind == DiffLine::Kind::Removed ? QStringLiteral("- ")
                                                         : QStringLiteral("  ")) +
                     QString::fromStdString(line.text);
    const QString name = tr("diff: %1 from %2").arg(tab.fileName, QString::fromStdString(stage->sourceFile));
    for (auto it = m_tabInfo.cbegin(); it != m_tabInfo.cend(); ++it)
        if (it.value().header && it.value().fileName == name) {
            it.key()->setHeaderReadOnly(false);
            it.key()->setText(lines.join(QLatin1Char('\n')));
            it.key()->setHeaderReadOnly(true);
            m_tabs->setCurrentWidget(it.key());
            return it.key();
        }
    auto *diff = new KernelEditor;
    diff->setObjectName(QStringLiteral("diffEditor"));
    diff->setText(lines.join(QLatin1Char('\n')));
    diff->setHeaderReadOnly(true);
    m_tabInfo.insert(diff, {.fileName = name, .derivedFrom = {}, .header = true});
    const int index = m_tabs->addTab(diff, name);
    m_tabs->setTabToolTip(index, tr("What %1 changed from the stage %2: + added, - removed; read-only")
                                     .arg(tab.fileName, QString::fromStdString(stage->title)));
    m_tabs->setCurrentWidget(diff);
    return diff;
}

void EditorWorkspace::showSessionKernels(const std::vector<CustomKernelSource> &sessionKernels)
{
    QMap<QString, const CustomKernelSource *> newest; // file name -> its last version
    for (const CustomKernelSource &kernel : sessionKernels)
        newest.insert(QString::fromStdString(kernel.fileName), &kernel);
    QStringList opened;
    for (const CustomKernelSource *kernel : std::as_const(newest)) {
        const QString text = QString::fromStdString(kernel->text);
        const QList<KernelEditor *> open = kernels();
        if (std::any_of(open.begin(), open.end(), [&](const KernelEditor *e) { return e->text() == text; }))
            continue;
        addKernel(text, QString::fromStdString(kernel->fileName),
                  QString::fromStdString(kernel->derivedFrom));
        opened << QString::fromStdString(kernel->fileName);
    }
    if (!opened.isEmpty())
        say(tr("The session holds kernels of its own, now open here: %1. None of them has been compiled or "
               "run yet: that waits for Compile (Ctrl+B) or Run (Ctrl+R).")
                .arg(QLocale().createSeparatedList(opened)));
}

void EditorWorkspace::showCompileLog(const QString &log)
{
    m_compiled = compileLogProblems(log);
    m_compiledOnce = true;
    // A message without a file is the compiled kernel's (ptxas's, NVRTC's options).
    for (KernelProblem &p : m_compiled)
        if (p.file.isEmpty() || p.file == QLatin1String("default_program"))
            p.file = m_compiledFile;
    refreshProblems();
}

KernelEditor *EditorWorkspace::currentKernel() const
{
    auto *editor = qobject_cast<KernelEditor *>(m_tabs->currentWidget());
    if (editor && m_tabInfo.contains(editor) && !m_tabInfo.value(editor).header)
        return editor;
    return m_lastKernel && m_tabInfo.contains(m_lastKernel) ? m_lastKernel.data() : nullptr;
}

CustomKernelSource EditorWorkspace::currentSource() const
{
    const KernelEditor *kernel = currentKernel();
    if (!kernel)
        return {};
    const Tab tab = m_tabInfo.value(const_cast<KernelEditor *>(kernel));
    return {.text = kernel->text().toStdString(),
            .fileName = tab.fileName.toStdString(),
            .derivedFrom = tab.derivedFrom.toStdString()};
}

QList<KernelEditor *> EditorWorkspace::kernels() const
{
    QList<KernelEditor *> list;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *e = qobject_cast<KernelEditor *>(m_tabs->widget(i)); e && !m_tabInfo.value(e).header)
            list << e;
    return list;
}

QList<KernelEditor *> EditorWorkspace::headers() const
{
    QList<KernelEditor *> list;
    for (int i = 0; i < m_tabs->count(); ++i)
        if (auto *e = qobject_cast<KernelEditor *>(m_tabs->widget(i)); e && m_tabInfo.value(e).header)
            list << e;
    return list;
}

QString EditorWorkspace::fileNameOf(const KernelEditor *editor) const
{
    return m_tabInfo.value(const_cast<KernelEditor *>(editor)).fileName;
}

void EditorWorkspace::closeTab(int index)
{
    auto *editor = qobject_cast<KernelEditor *>(m_tabs->widget(index));
    if (!editor)
        return;
    const Tab tab = m_tabInfo.value(editor);
    if (!tab.header && !editor->text().trimmed().isEmpty() &&
        QMessageBox::question(
            this, tr("Close Kernel"),
            tr("Close %1? Its text is gone once closed; Export Kernel… keeps a copy.").arg(tab.fileName)) !=
            QMessageBox::Yes)
        return;
    m_tabInfo.remove(editor);
    m_checked.remove(editor);
    m_tabs->removeTab(index);
    editor->deleteLater();
    if (m_autosave)
        m_autosave->changed();
    refreshProblems();
}

void EditorWorkspace::checkNow()
{
    m_checkTimer.stop();
    KernelEditor *kernel = m_edited;
    if (!kernel || !m_tabInfo.contains(kernel))
        return;
    openIncludedHeaders(kernel->text()); // an #include just typed opens its header
    if (m_options.check) {
        const Tab tab = m_tabInfo.value(kernel);
        m_checked[kernel] = m_options.check({.text = kernel->text().toStdString(),
                                             .fileName = tab.fileName.toStdString(),
                                             .derivedFrom = tab.derivedFrom.toStdString()});
    }
    refreshProblems();
}

void EditorWorkspace::refreshProblems()
{
    KernelEditor *kernel = currentKernel();
    const QString kernelName = kernel ? fileNameOf(kernel) : QString();
    // Each tab: its own problems as typed, and the last compile's at its file.
    for (auto it = m_tabInfo.cbegin(); it != m_tabInfo.cend(); ++it) {
        QList<KernelProblem> own = m_checked.value(it.key());
        for (const KernelProblem &p : m_compiled)
            if (p.file == it.value().fileName && !own.contains(p))
                own << p;
        it.key()->setProblems(own);
    }
    QList<KernelProblem> listed = kernel ? m_checked.value(kernel) : QList<KernelProblem>{};
    for (const KernelProblem &p : m_compiled)
        if (!listed.contains(p))
            listed << p;
    QString heading;
    if (!kernel)
        // What the list is for; the pane above offers the ways to start (a third copy of them here
        // read as more to choose from).
        heading = tr("No kernel open. The kernel's problems are listed here as you type, and the last "
                     "compile's.");
    else if (!m_options.check)
        heading = tr("%1: the parameter block is not checked as you type in this build.").arg(kernelName);
    else
        heading = tr("%1 as typed: %2.").arg(kernelName, problemCountText(m_checked.value(kernel)));
    if (kernel)
        heading +=
            QLatin1Char(' ') +
            (m_compiledOnce ? tr("Last compile (%1): %2.").arg(m_compiledFile, problemCountText(m_compiled))
                            : tr("Not compiled yet: Compile (Ctrl+B) when you are ready."));
    m_problems->setProblems(listed, heading);
}

void EditorWorkspace::say(const QString &sentence)
{
    m_notice->show(sentence);
}

QString EditorWorkspace::notice() const
{
    return m_notice->text();
}

QList<KernelBuffer> EditorWorkspace::buffers() const
{
    QList<KernelBuffer> list;
    for (KernelEditor *editor : kernels()) {
        const Tab tab = m_tabInfo.value(editor);
        int line = 0, column = 0;
        editor->getCursorPosition(&line, &column);
        list.append({.text = editor->text(),
                     .fileName = tab.fileName,
                     .derivedFrom = tab.derivedFrom,
                     .cursorLine = line,
                     .cursorColumn = column});
    }
    return list;
}

void EditorWorkspace::restoreBuffers()
{
    if (m_options.autosavePath.isEmpty())
        return;
    const KernelBuffersRead read = KernelBufferFile::load(m_options.autosavePath);
    for (const KernelBuffer &b : read.buffers) {
        KernelEditor *editor = addKernel(b.text, b.fileName, b.derivedFrom);
        editor->setCursorPosition(b.cursorLine, b.cursorColumn);
    }
    if (m_autosave) {
        m_autosave->setEnabled(!read.keepAutosaveOff);
        m_autosave->forgetChanges(); // what is shown is what the file holds
    }
    if (!read.problems.isEmpty())
        say(read.problems.join(QLatin1Char(' ')));
}

bool EditorWorkspace::saveBuffersNow()
{
    if (!m_autosave)
        return false;
    return !m_autosave->hasChanges() || m_autosave->saveNow();
}

} // namespace gemmscope
