// The window's surfaces outside the Ladder's charts and tables:
// an empty profile or sweep pane says what can be done here and offers the
// default session's recorded data when this window cannot measure; Export is off while nothing is
// shown; no raw "{runner}" placeholder and no repeat of the status bar; the SASS tab is titled PTX
// while it shows PTX; the sweep's stage starts at the panel's; toggles show their state.
#include "baseline_compare_view.h"
#include "empty_state.h"
#include "machine_code_view.h"
#include "main_window.h"
#include "memory_instruction_view.h"
#include "parameter_panel.h"
#include "run_against_cublas_view.h"
#include "run_selection.h"
#include "session.h"
#include "size_sweep_view.h"
#include "stage_source_view.h"
#include "support/scoped_env.h"
#include "support/shown_extent.h"
#include "support/test_data.h"
#include "support/view_shots.h"
#include "sweep_view.h"
#include "tile_map_view.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

// Every text a user can read in `root` now: labels, line edits, buttons (shown ones only).
QStringList shownTexts(const QWidget *root)
{
    QStringList texts;
    for (const QLabel *label : root->findChildren<QLabel *>())
        if (label->isVisibleTo(root->window()))
            texts << label->text();
    for (const QLineEdit *edit : root->findChildren<QLineEdit *>())
        if (edit->isVisibleTo(root->window()))
            texts << edit->text() << edit->placeholderText();
    for (const QAbstractButton *button : root->findChildren<QAbstractButton *>())
        if (button->isVisibleTo(root->window()))
            texts << button->text();
    return texts;
}

} // namespace

class TestWindowSurfaces : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Memory per instruction and Why not cuBLAS? in a session of one's own without profiles, in a
    // window that cannot profile: they say what they would show, that nothing can profile here, and
    // offer the embedded example; the button shows the example's H200 profiles BESIDE the session
    // (its runs, file and profiles untouched), each pane labelled as the example, and a session
    // profile of its own would still win.
    void profilePanesShowTheExampleBesideTheSession()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.runnerAvailable());
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        QVERIFY(window.session()->profiles().isEmpty());
        const auto runIds = [&window] {
            QStringList ids;
            for (const RunRecord &r : window.session()->runs())
                ids << r.runId;
            return ids;
        };
        const QStringList ownRuns = runIds();
        const QString ownFile = window.session()->filePath();
        auto *memory = window.findChild<MemoryInstructionView *>();
        auto *whyNot = window.findChild<BaselineCompareView *>();
        QVERIFY(memory && whyNot);
        for (EmptyState *empty : {memory->emptyState(), whyNot->emptyState()}) {
            QVERIFY(!empty->isHidden());
            QVERIFY2(!empty->text().contains(QStringLiteral("Run > Profile")), qPrintable(empty->text()));
            QVERIFY2(empty->text().contains(QStringLiteral("cannot profile")), qPrintable(empty->text()));
            QCOMPARE(empty->offer(), QStringLiteral("Show the embedded H200 example"));
            QVERIFY(!empty->offerButton()->toolTip().contains(QStringLiteral("Replaces")));
        }
        // Each says what it would show, in its own words.
        QVERIFY(memory->emptyState()->text().contains(QStringLiteral("sectors or wavefronts")));
        QVERIFY(whyNot->emptyState()->text().contains(QStringLiteral("estimated cost in time")));
        QVERIFY(!memory->emptyState()->textLabel()->font().bold());
        QVERIFY(!whyNot->emptyState()->textLabel()->font().bold());

        whyNot->emptyState()->offerButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(whyNot->comparing(), 60000);
        // Beside, never instead: the session is the user's still.
        QVERIFY(window.session()->profiles().isEmpty());
        QCOMPARE(runIds(), ownRuns);
        QVERIFY(!window.session()->isModified());
        QCOMPARE(window.session()->filePath(), ownFile);
        for (const QString &note : {whyNot->referenceNote(), memory->referenceNote()})
            QVERIFY2(note.startsWith(QStringLiteral("The embedded H200 example, not your session: ")),
                     qPrintable(note));
        QVERIFY2(whyNot->headline().startsWith(QStringLiteral("Estimated largest cost: ")),
                 qPrintable(whyNot->headline()));
        QVERIFY(!whyNot->costList().isEmpty());
        QVERIFY(!whyNot->runFacts()->isVisible()); // compared: the bars and their ranking, as before
        QVERIFY(memory->emptyState()->isHidden());
        // The Source view takes the example's profile of the panel's stage only, under the same band;
        // a stage the example lacks keeps its sentence (another stage's samples fit other lines).
        auto *panel = window.findChild<ParameterPanel *>();
        auto *source = window.findChild<StageSourceView *>();
        QVERIFY(panel && source);
        panel->setStage(StageId::Coalesced);
        QTRY_VERIFY(source->hasProfile());
        QVERIFY2(source->profileCaption().startsWith(
                     QStringLiteral("The embedded H200 example, not your session: ")),
                 qPrintable(source->profileCaption()));
        panel->setStage(StageId::Naive);
        QTRY_VERIFY(!source->hasProfile());
        QVERIFY(source->profileCaption().isEmpty());
        // For a person to look at (kept under $GEMMSCOPE_SHOT_DIR when set).
        QVERIFY(window.showView(QStringLiteral("Why not cuBLAS?")));
        for (const QSize size : {QSize(1280, 800), QSize(1440, 900), QSize(1920, 1080)})
            QVERIFY(
                !test::renderShot(&window, size,
                                  QStringLiteral("why_example_%1x%2").arg(size.width()).arg(size.height()))
                     .isEmpty());
        QVERIFY(window.showView(QStringLiteral("Memory per instruction")));
        QVERIFY(!test::renderShot(&window, QSize(1440, 900), QStringLiteral("memory_example_1440x900"))
                     .isEmpty());
    }

    void whyWithoutAProfileShowsWhatIsKnown_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x800") << QSize(1280, 800);
        QTest::newRow("1440x900") << QSize(1440, 900);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }
    // "Why not cuBLAS?" in a session without profiles was a paragraph over a blank pane. It says
    // what it would show, offers both ways to see it as buttons (Profile, greyed with its reason
    // where this window cannot; the embedded example), and shows what the session already knows:
    // the selected run against cuBLAS as measured (bars and a table), beside the traffic model's
    // expectations. No more than a third of the pane stands blank at any of the three sizes.
    void whyWithoutAProfileShowsWhatIsKnown()
    {
        QFETCH(QSize, size);
        MainWindow window(options());
        window.resize(size);
        window.workspaces()->applyFirstStartSizes(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        QVERIFY(window.session()->profiles().isEmpty());
        QVERIFY(window.showView(QStringLiteral("Why not cuBLAS?")));
        QApplication::processEvents();
        auto *whyNot = window.findChild<BaselineCompareView *>();
        QVERIFY(whyNot && whyNot->isVisible() && !whyNot->comparing());
        EmptyState *empty = whyNot->emptyState();
        QVERIFY(empty->isVisible());
        QVERIFY2(
            empty->text().contains(QStringLiteral("the differences ranked by their estimated cost in time")),
            qPrintable(empty->text()));
        // Both ways, as buttons: the example, and Profile (greyed here: no runner, and it says so).
        QVERIFY(empty->offerButton()->isVisible());
        QCOMPARE(empty->offer(), QStringLiteral("Show the embedded H200 example"));
        auto *profile = empty->findChild<QPushButton *>(QStringLiteral("emptyStateProfile"));
        QVERIFY(profile && profile->isVisible());
        QVERIFY(profile->text().startsWith(QStringLiteral("Profile")));
        QVERIFY(!profile->isEnabled());
        QVERIFY2(profile->toolTip().contains(QStringLiteral("cannot profile")),
                 qPrintable(profile->toolTip()));
        // What is known without a profile: the selected run against cuBLAS FP32, both measured.
        RunAgainstCublasView *facts = whyNot->runFacts();
        QVERIFY(facts->isVisible());
        const RunRecord *selected = window.session()->find(window.selection()->runId());
        QVERIFY(selected);
        QVERIFY2(facts->facts().headline.contains(QStringLiteral("% of cuBLAS FP32's speed")),
                 qPrintable(facts->facts().headline));
        QVERIFY(!facts->facts().rows.isEmpty());
        QCOMPARE(facts->facts().rows.first().run, QStringLiteral("%1 ms").arg(selected->medianMs, 0, 'f', 3));
        QVERIFY(facts->text().contains(QStringLiteral("The model expects")));
        // Not a mostly blank pane.
        auto *scroll = qobject_cast<QScrollArea *>(whyNot->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QWidget *viewport = scroll->viewport();
        const auto blank = [&] { return viewport->height() - test::lowestShown(whyNot, viewport); };
        QTRY_VERIFY2(blank() * 3 <= viewport->height(),
                     qPrintable(QStringLiteral("%1 px blank of %2").arg(blank()).arg(viewport->height())));
        QVERIFY(!test::renderShot(&window, size,
                                  QStringLiteral("why_no_profile_%1x%2").arg(size.width()).arg(size.height()))
                     .isEmpty());

        // With a runner the button is Run > Profile.
        window.showRunnerStatus(true, QStringLiteral("NVIDIA H200"));
        QTRY_VERIFY(profile->isEnabled());
        QSignalSpy profiled(window.action(QStringLiteral("actionProfile")), &QAction::triggered);
        profile->click();
        QCOMPARE(profiled.size(), 1);
    }

    // With a runner the pane says how to profile, and the example is offered beside it.
    // The empty sentence keeps every line in a wide window: at 1440 and 1920 the Why view's lost its
    // last lines (its label, narrower than the pane, had its height asked for the pane's width).
    void emptySentenceKeepsEveryLineInAWideWindow()
    {
        MainWindow window(options());
        window.resize(1920, 1080);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        QVERIFY(window.showView(QStringLiteral("Why not cuBLAS?")));
        auto *whyNot = window.findChild<BaselineCompareView *>();
        QVERIFY(whyNot && whyNot->isVisible());
        QLabel *label = whyNot->emptyState()->textLabel();
        QTRY_VERIFY(label->isVisible() && label->width() > 0);
        QVERIFY2(label->width() < whyNot->width() - 100, "the sentence keeps its reading measure");
        QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(QStringLiteral("%1 px high; its %2 px of text need %3")
                                    .arg(label->height())
                                    .arg(label->width())
                                    .arg(label->heightForWidth(label->width()))));
    }

    void profilePanesSayHowToProfileWhenARunnerCan()
    {
        MainWindow window(options());
        window.showRunnerStatus(true, QStringLiteral("NVIDIA H200"));
        auto *memory = window.findChild<MemoryInstructionView *>();
        QVERIFY(memory->emptyState()->text().contains(QStringLiteral("Run > Profile (Ctrl+P)")));
        QCOMPARE(memory->emptyState()->offer(), QStringLiteral("Show the embedded H200 example"));
        // The default session is also one File menu entry away.
        QAction *openDefault = window.action(QStringLiteral("actionOpenDefaultSession"));
        QVERIFY(openDefault);
        openDefault->trigger();
        QVERIFY(!window.session()->profiles().isEmpty());
        QVERIFY(!window.session()->sweeps().isEmpty());
    }

    // The Sweep workspace of a session without sweeps (a ladder of one's own): the text stays, a
    // button adds the default session's recorded sweeps to this session — its runs stay, nothing
    // is replaced — and Export is off (its tooltip says why) until one is shown.
    void sweepPanesOfferTheRecordedSweepsAndExportWaits()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        const QList<RunRecord> ownRuns = window.session()->runs();
        const QString ownFile = window.session()->filePath();
        QVERIFY(window.session()->sweeps().isEmpty());
        QVERIFY(!ownRuns.isEmpty());
        QVERIFY(window.showView(QStringLiteral("Sweep")));
        auto *grid = window.findChild<SweepView *>();
        QVERIFY(grid && !grid->shownSweep());
        auto *offer = grid->findChild<QPushButton *>(QStringLiteral("sweepAddRecorded"));
        QVERIFY(offer && offer->isVisible());
        auto *emptyText = grid->findChild<QLabel *>(QStringLiteral("sweepEmpty"));
        QVERIFY(emptyText->text().contains(QStringLiteral("H200")));
        // Lines a reader can follow, however wide the pane (1,100 px at 1920x1080).
        window.resize(1920, 1080);
        QApplication::processEvents();
        QVERIFY2(emptyText->width() <= emptyText->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 90 &&
                     grid->width() > emptyText->width() + 300,
                 qPrintable(QStringLiteral("%1 of %2 px").arg(emptyText->width()).arg(grid->width())));
        window.resize(1280, 800);
        QApplication::processEvents();
        // The run bar under the Sweep tabs holds the buttons (one bar for both tabs).
        auto *exportButton = window.findChild<QPushButton *>(QStringLiteral("sweepExport"));
        QVERIFY(exportButton);
        QVERIFY(!exportButton->isEnabled());
        QVERIFY2(exportButton->toolTip().contains(QStringLiteral("holds no sweep")),
                 qPrintable(exportButton->toolTip()));
        // Where a recorded sweep is, with running off: the button, not an empty Shown list; and no key
        // to the marks of a heatmap that is not drawn.
        window.showRunnerStatus(false, QStringLiteral("No CUDA driver is installed on this machine."));
        auto *startOff = window.findChild<QLabel *>(QStringLiteral("sweepStartOff"));
        QVERIFY(startOff && startOff->isVisible());
        QVERIFY2(!startOff->text().contains(QStringLiteral("Shown list")) &&
                     startOff->text().contains(QStringLiteral("button")),
                 qPrintable(startOff->text()));
        auto *marks = grid->findChild<QLabel *>(QStringLiteral("sweepLegend"));
        QVERIFY(marks && !marks->isVisible());

        offer->click();
        QVERIFY(grid->shownSweep());
        QVERIFY(grid->showsHeatmap());
        QVERIFY(marks->isVisible());
        QVERIFY2(startOff->text().contains(QStringLiteral("Shown list")), qPrintable(startOff->text()));
        QCOMPARE(window.session()->runs().size(), ownRuns.size()); // the ladder stays, whole
        QCOMPARE(window.session()->runs().first().runId, ownRuns.first().runId);
        QCOMPARE(window.session()->filePath(), ownFile);
        QCOMPARE(window.session()->sweeps().size(), 2); // a parameter sweep and a size sweep
        QVERIFY(window.session()->isModified());        // File > Save keeps them
        offer->click();                                 // hidden now; a second add adds nothing
        QCOMPARE(window.session()->sweeps().size(), 2);
        QVERIFY(exportButton->isEnabled());
        QVERIFY(!offer->isVisible());
        auto *sizes = window.findChild<SizeSweepView *>();
        QVERIFY(sizes && sizes->shownSweep());
        // The recorded sweep's stage is not the panel's: the form says whose values it holds.
        QVERIFY(grid->shownSweep()->spec.stage != window.parameterPanel()->config().stage);
        auto *rest = grid->findChild<QComboBox *>(QStringLiteral("sweepRest"));
        QCOMPARE(rest->itemText(0), QStringLiteral("fixed (the stage's defaults)"));
        QVERIFY(grid->findChild<QLabel *>(QStringLiteral("sweepOrigin"))
                    ->text()
                    .contains(QStringLiteral("not the configured one")));
    }

    // The Sweep workspace's two tabs share one run bar: the same runner field, and Start, Cancel,
    // Resume and Export… in the same place, acting on the tab shown (each tab had its own, in its
    // own column, at another height). The runner command typed once runs both kinds of sweep.
    void sweepTabsShareOneRunBar()
    {
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.showView(QStringLiteral("Sweep")));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("sweepModes"));
        QVERIFY(tabs);
        QList<QWidget *> runnerFields;
        QList<QPoint> startPlaces;
        QStringList startNames;
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QApplication::processEvents();
            QList<QWidget *> fields;
            for (QLineEdit *edit : window.findChildren<QLineEdit *>())
                if (edit->isVisible() && edit->objectName().endsWith(QStringLiteral("RunnerTemplate")))
                    fields << edit;
            QCOMPARE(fields.size(), 1);
            runnerFields << fields.front();
            QList<QPushButton *> starts;
            for (QPushButton *button : window.findChildren<QPushButton *>())
                if (button->isVisible() && button->text() == QStringLiteral("Start"))
                    starts << button;
            QCOMPARE(starts.size(), 1);
            startNames << starts.front()->objectName();
            startPlaces << starts.front()->mapTo(&window, QPoint());
            // Outside the tab's page: it belongs to the workspace, not to one tab.
            QVERIFY(!tabs->isAncestorOf(starts.front()));
        }
        QCOMPARE(runnerFields.at(0), runnerFields.at(1));
        QCOMPARE(startPlaces.at(0), startPlaces.at(1));
        // Each tab's own Start: it starts that tab's kind of sweep.
        QCOMPARE(startNames, (QStringList{QStringLiteral("sweepStart"), QStringLiteral("sizeSweepStart")}));
        auto *field = qobject_cast<QLineEdit *>(runnerFields.front());
        field->setText(QStringLiteral("ssh gpu-host gemmscope-runner"));
        for (SweepViewBase *view : {static_cast<SweepViewBase *>(window.findChild<SweepView *>()),
                                    static_cast<SweepViewBase *>(window.findChild<SizeSweepView *>())})
            QCOMPARE(view->control()->runnerTemplate(), QStringLiteral("ssh gpu-host gemmscope-runner"));
    }

    // The run bar under the Sweep tabs takes a row of controls and a line of text at 1280x800 (it
    // took 100 px: four lines of help beside the fields, a four-line reason under the buttons), with
    // every control still there, whole, and side by side in the row: the runner command, the count,
    // Slurm, Start, Cancel, Resume and Export…; the reason Start is off in one line, whole in its
    // tooltip.
    void sweepRunBarIsCompact()
    {
        const test::ScopedEnv someRunner("GEMMSCOPE_RUNNER",
                                         QCoreApplication::applicationFilePath().toLocal8Bit());
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showRunnerStatus(false, QStringLiteral("No CUDA driver is installed on this machine."));
        QVERIFY(window.showView(QStringLiteral("Sweep")));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("sweepModes"));
        auto *bar = window.findChild<QWidget *>(QStringLiteral("sweepRunBar"));
        QVERIFY(tabs && bar && bar->isVisible());
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QApplication::processEvents();
            const QString prefix = tab == 0 ? QStringLiteral("sweep") : QStringLiteral("sizeSweep");
            QList<QWidget *> controls{window.findChild<QLineEdit *>(QStringLiteral("sweepRunnerTemplate")),
                                      window.findChild<QCheckBox *>(QStringLiteral("sweepSlurm"))};
            for (QSpinBox *count : bar->findChildren<QSpinBox *>())
                controls << count;
            for (const char *button : {"Start", "Cancel", "Resume", "Export"})
                controls << window.findChild<QPushButton *>(prefix + QLatin1String(button));
            QCOMPARE(controls.size(), 7);
            // The row and one line of text under it, with the bar's margins.
            const int row =
                std::max(controls.front()->sizeHint().height(), controls.last()->sizeHint().height());
            const int line = bar->fontMetrics().lineSpacing();
            QVERIFY2(bar->height() <= row + line + 12,
                     qPrintable(QStringLiteral("%1 px for a %2 px row and a %3 px line")
                                    .arg(bar->height())
                                    .arg(row)
                                    .arg(line)));
            const QRect barRect(QPoint(), bar->size());
            QList<QRect> places;
            for (QWidget *control : controls) {
                QVERIFY(control && control->isVisible() && bar->isAncestorOf(control));
                const QRect place(control->mapTo(bar, QPoint()), control->size());
                QVERIFY2(barRect.contains(place), qPrintable(control->objectName()));
                QVERIFY2(control->width() >= control->minimumSizeHint().width(),
                         qPrintable(control->objectName()));
                for (const QRect &other : std::as_const(places))
                    QVERIFY2(!other.intersects(place), qPrintable(control->objectName()));
                places << place;
                // One row: every control's middle within the first one's height.
                QVERIFY2(std::abs(place.center().y() - places.front().center().y()) <=
                             places.front().height() / 2,
                         qPrintable(control->objectName()));
            }
            auto *startOff = window.findChild<QLabel *>(prefix + QStringLiteral("StartOff"));
            QVERIFY(startOff && startOff->isVisible());
            QVERIFY2(startOff->height() <= 2 * line - 2, qPrintable(startOff->text())); // one line
            QVERIFY(startOff->toolTip().contains(QStringLiteral("To sweep on another machine")));
        }
        // The runner command's help in one line, the command whole in it; the rest in its tooltip.
        auto *help = window.findChild<QLabel *>(QStringLiteral("sweepRunnerPlaceholders"));
        QVERIFY(help && help->isVisible() && !help->wordWrap());
        QVERIFY(help->text().contains(QStringLiteral("ssh HOST gemmscope-runner")));
        QVERIFY(help->width() >= help->fontMetrics().horizontalAdvance(help->text()));
        QVERIFY(help->toolTip().contains(QStringLiteral("{gpu}")) &&
                help->toolTip().contains(QStringLiteral("Slurm")));
    }

    // No raw "{runner}" anywhere a user reads the Sweep pages; the line under the buttons says what
    // Start needs instead of repeating the status bar's sentence.
    void sweepPanesSpeakInWords()
    {
        // A runner that exists: Start is off for the window's reason alone.
        const test::ScopedEnv someRunner("GEMMSCOPE_RUNNER",
                                         QCoreApplication::applicationFilePath().toLocal8Bit());
        MainWindow window(options());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString why = QStringLiteral("No CUDA driver is installed on this machine.");
        window.showRunnerStatus(false, why);
        for (const char *page : {"Sweep"}) {
            QVERIFY(window.showView(QLatin1String(page)));
            for (QWidget *view : {static_cast<QWidget *>(window.findChild<SweepView *>()),
                                  static_cast<QWidget *>(window.findChild<SizeSweepView *>()),
                                  window.findChild<QWidget *>(QStringLiteral("sweepRunBar"))}) {
                for (const QString &text : shownTexts(view))
                    QVERIFY2(!text.contains(QStringLiteral("{runner}")), qPrintable(text));
            }
        }
        // The runner command never broken at its hyphen: in one line that does not wrap.
        auto *placeholders = window.findChild<QLabel *>(QStringLiteral("sweepRunnerPlaceholders"));
        QVERIFY(placeholders && !placeholders->wordWrap());
        QVERIFY2(placeholders->text().contains(QStringLiteral("ssh HOST gemmscope-runner")),
                 qPrintable(placeholders->text()));
        auto *startOff = window.findChild<QLabel *>(QStringLiteral("sweepStartOff"));
        QVERIFY(startOff && startOff->isVisible());
        QVERIFY2(!startOff->text().contains(why), qPrintable(startOff->text()));
        QVERIFY2(startOff->text().contains(QStringLiteral("Start needs")), qPrintable(startOff->text()));
        // The Start button's tooltip keeps the whole reason.
        auto *start = window.findChild<QPushButton *>(QStringLiteral("sweepStart"));
        QVERIFY(start && !start->isEnabled());
        QVERIFY(start->toolTip().contains(QStringLiteral("No CUDA driver")));
    }

    // The sweep's form starts at the panel's stage (it said "naive" beside a panel on
    // "coalesced") and says where its stage, size and budget come from.
    void sweepStageStartsAtThePanels()
    {
        MainWindow window(options());
        auto *stage = window.findChild<SweepView *>()->findChild<QComboBox *>(QStringLiteral("sweepStage"));
        QVERIFY(stage);
        QCOMPARE(stage->currentData().toString(),
                 QString::fromStdString(window.parameterPanel()->config().stage.str()));
        // Named as the parameter panel names it ("3 — Coalesced cooperative loads" there), not by
        // its key ("coalesced").
        auto *panelStage = window.parameterPanel()->findChild<QComboBox *>(QStringLiteral("stageCombo"));
        QVERIFY(panelStage);
        QVERIFY2(panelStage->currentText().endsWith(stage->currentText()),
                 qPrintable(stage->currentText() + QStringLiteral(" | ") + panelStage->currentText()));
        QVERIFY(stage->currentText() != stage->currentData().toString());
        auto *origin = window.findChild<SweepView *>()->findChild<QLabel *>(QStringLiteral("sweepOrigin"));
        QVERIFY(origin && origin->text().contains(QStringLiteral("parameter panel")));
    }

    // The SASS tab shows PTX without nvdisasm: its title says PTX, and View > SASS still finds it.
    void machineCodeTabIsTitledAfterWhatItShows()
    {
        MainWindow window(options());
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("mappingTabs"));
        auto *code = window.findChild<MachineCodeView *>();
        QVERIFY(tabs && code);
        QCOMPARE(tabs->tabText(tabs->indexOf(code)), QStringLiteral("SASS"));
        code->setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"), {},
                             QStringLiteral("No SASS: nvdisasm is not installed."));
        QCOMPARE(tabs->tabText(tabs->indexOf(code)), QStringLiteral("PTX"));
        QVERIFY(window.showView(QStringLiteral("SASS")));
        QCOMPARE(tabs->currentWidget(), code);
        code->setMachineCode(QStringLiteral("k"), test::readTestData("warptiled_64x64x8_4x4_sm90.ptx"),
                             test::readTestData("pipelined_128x128x16_8x16_sm90.sass"), {});
        QCOMPARE(tabs->tabText(tabs->indexOf(code)), QStringLiteral("SASS"));
    }

    // The tile map's switches are check boxes: the box shows which state each is in, and follows
    // the view when the context menu switches it (a push button with "☐" in its text read as a
    // button, not a switch).
    void togglesShowTheirState()
    {
        TileMapView map;
        QVERIFY(map.findChild<QCheckBox *>(QStringLiteral("fragmentButton")));
        auto *side = map.findChild<QCheckBox *>(QStringLiteral("sideBySideButton"));
        QVERIFY(side);
        QVERIFY2(!side->text().contains(QStringLiteral("☐")), qPrintable(side->text()));
        side->click();
        QVERIFY(side->isChecked());
        QVERIFY(map.sideBySide());
        map.setSideBySide(false);
        QVERIFY(!side->isChecked());
    }

private:
    MainWindow::Options options() const
    {
        return {
            .startRunner = false, .restoreSettings = false, .autosavePath = m_dir.filePath("autosave.json")};
    }
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestWindowSurfaces)
#include "tst_window_surfaces.moc"
