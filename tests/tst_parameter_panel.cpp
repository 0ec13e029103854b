// ParameterPanel: live validation with the catalog's sentences, Run disabled while invalid,
// presets applied in one click, and configurationChanged for the model-driven views.
#include "custom_stage.h"
#include "jargon_text.h"
#include "parameter_panel.h"
#include "plain_text.h"
#include "preset_item_delegate.h"
#include "stage_choice_text.h"
#include "stage_names.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QtTest>

using namespace gemmscope;

class TestParameterPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qRegisterMetaType<RunConfig>(); }

    void invalidValueShowsSentenceAndDisablesRun()
    {
        ParameterPanel panel;
        panel.show();
        QVERIFY(panel.applyPreset("worklog-3"));
        auto *runButton = panel.findChild<QPushButton *>("runButton");
        auto *label = panel.findChild<QLabel *>("violationLabel");
        QVERIFY(runButton && label);
        QVERIFY(panel.isValid());
        QVERIFY(runButton->isEnabled());
        QVERIFY(label->text().isEmpty()); // its room is kept, so nothing moves when it fills

        QSignalSpy validity(&panel, &ParameterPanel::validityChanged);
        // Typed into the spin box, as a user would.
        auto *spin = panel.findChild<QSpinBox *>("spin_BM");
        QVERIFY(spin);
        spin->setValue(100);
        const ParamValues params = panel.config().params;
        const auto expected = violations(StageId::Coalesced, params, panel.config().size);
        QVERIFY(!expected.empty());
        QVERIFY(!panel.isValid());
        QVERIFY(!runButton->isEnabled());
        QVERIFY(label->isVisible());
        QVERIFY(runButton->toolTip().contains(QString::fromStdString(expected.front())));
        QCOMPARE(label->text(), panel.violationText());
        QVERIFY(label->text().contains(QString::fromStdString(expected.front())));
        QCOMPARE(validity.count(), 1);
        QCOMPARE(validity[0][0].toBool(), false);

        spin->setValue(64);
        QVERIFY(panel.isValid());
        QVERIFY(runButton->isEnabled());
        QVERIFY(label->text().isEmpty());
        QCOMPARE(validity.count(), 2);
    }

    // A catalog sentence also sits beside the field it names first, not only in the list under the
    // parameters: the one about BM under BM's slider, the one about M, N, K under them.
    void violationAppearsBesideItsField()
    {
        ParameterPanel panel;
        panel.show();
        QVERIFY(panel.applyPreset("worklog-3"));
        auto *bmNote = panel.findChild<QLabel *>("note_BM");
        auto *tmNote = panel.findChild<QLabel *>("note_TM");
        QVERIFY(bmNote && tmNote);
        QVERIFY(bmNote->isHidden() && panel.fieldNote("BM").isEmpty());

        panel.findChild<QSpinBox *>("spin_BM")->setValue(100);
        const QString sentence = panel.violationText();
        QVERIFY(sentence.startsWith(QStringLiteral("BM (100) must be one of")));
        QCOMPARE(panel.fieldNote("BM"), sentence);
        QVERIFY(bmNote->isVisible());
        QVERIFY(tmNote->isHidden());
        panel.findChild<QSpinBox *>("spin_BM")->setValue(64);
        QVERIFY(panel.fieldNote("BM").isEmpty());
        QVERIFY(bmNote->isHidden());

        // A rule between two fields, beside the one it names first: BM must be a multiple of TM.
        panel.setParam("TM", 3);
        const auto expected = violations(StageId::Coalesced, panel.config().params, panel.config().size);
        QVERIFY(!expected.empty());
        const QString first = QString::fromStdString(expected.front());
        QVERIFY2(first.startsWith(QStringLiteral("BM (64) must be a multiple of TM (3)")), qPrintable(first));
        QVERIFY2(panel.fieldNote("BM").contains(first), qPrintable(panel.fieldNote("BM")));
        QVERIFY(!panel.fieldNote("TM").contains(first));

        // The problem size's sentences under M, N and K.
        QVERIFY(panel.applyPreset("worklog-3"));
        panel.setProblemSize({0, 64, 64});
        QVERIFY(!panel.isValid());
        QVERIFY2(panel.fieldNote("size").contains(QStringLiteral("M, N and K must each be at least 1")),
                 qPrintable(panel.fieldNote("size")));
        QVERIFY(panel.findChild<QLabel *>("note_size")->isVisible());
        // A size sentence that names no dimension still goes there, and not under a parameter.
        panel.setProblemSize({999999, 4096, 6144});
        const QString tooLarge = panel.violationText();
        QVERIFY2(tooLarge.startsWith(QStringLiteral("Each matrix must have fewer than 2^31 elements")),
                 qPrintable(tooLarge));
        QCOMPARE(panel.fieldNote("size"), tooLarge);
        QVERIFY(panel.fieldNote("BM").isEmpty());
    }

    // A value typed past a spin box's range is refused, but never silently: the field says its
    // limit (a typed 999 in BM, capped at 256, silently stayed 99).
    void typedValuePastTheLimitSaysTheLimit()
    {
        ParameterPanel panel;
        panel.show();
        QVERIFY(panel.applyPreset("worklog-3"));
        auto *spin = panel.findChild<QSpinBox *>("spin_BM");
        QVERIFY(spin);
        QCOMPARE(spin->maximum(), 256);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("999"));
        QVERIFY(spin->value() <= 256);
        QVERIFY2(panel.fieldNote("BM").contains(QStringLiteral("BM is at most 256: 999 was not taken.")),
                 qPrintable(panel.fieldNote("BM")));
        QVERIFY(panel.findChild<QLabel *>("note_BM")->isVisible());
        // A value taken ends it.
        spin->setValue(64);
        QVERIFY2(panel.fieldNote("BM").isEmpty(), qPrintable(panel.fieldNote("BM")));

        // Below the minimum: said when editing ends, and the previous value stays.
        spin->selectAll();
        QTest::keyClicks(spin, QStringLiteral("4"));
        QTest::keyClick(spin, Qt::Key_Return);
        QCOMPARE(spin->value(), 64);
        QVERIFY2(panel.fieldNote("BM").contains(QStringLiteral("BM is at least 16: 4 was not taken.")),
                 qPrintable(panel.fieldNote("BM")));

        // The problem size and the time budget too.
        auto *m = panel.findChild<QSpinBox *>("spin_M");
        QVERIFY(m);
        m->setFocus();
        m->selectAll();
        QTest::keyClicks(m, QStringLiteral("9999999"));
        QVERIFY2(
            panel.fieldNote("size").contains(QStringLiteral("M is at most 1048576: 9999999 was not taken.")),
            qPrintable(panel.fieldNote("size")));
        auto *budget = panel.findChild<QSpinBox *>("spin_budget");
        QVERIFY(budget);
        budget->setFocus();
        budget->selectAll();
        QTest::keyClicks(budget, QStringLiteral("999999"));
        QVERIFY2(panel.fieldNote("budget").contains(QStringLiteral("Time budget is at most 60000 ms")),
                 qPrintable(panel.fieldNote("budget")));
    }

    void invalidSizeIsRefusedToo()
    {
        ParameterPanel panel;
        QVERIFY(panel.applyPreset("worklog-3"));
        panel.setProblemSize({65536, 65536, 8});
        const auto expected = violations(StageId::Coalesced, panel.config().params, panel.config().size);
        QCOMPARE(panel.isValid(), expected.empty());
        QCOMPARE(panel.violationText().isEmpty(), expected.empty());
    }

    void runnerUnavailableDisablesRun()
    {
        ParameterPanel panel;
        auto *runButton = panel.findChild<QPushButton *>("runButton");
        panel.setRunEnabledByRunner(false, "No CUDA driver is installed on this machine.");
        QVERIFY(!runButton->isEnabled());
        QCOMPARE(runButton->toolTip(),
                 plainTextAsHtml(QStringLiteral("No CUDA driver is installed on this machine.")));
        // The runner's words are shown as written, never as markup.
        panel.setRunEnabledByRunner(false, QStringLiteral("GPU <b>x</b> <img src=\"/nonexistent\">"));
        QVERIFY2(runButton->toolTip().contains(QStringLiteral("&lt;b&gt;")),
                 qPrintable(runButton->toolTip()));
        QVERIFY(!runButton->toolTip().contains(QStringLiteral("<img")));
        panel.setRunEnabledByRunner(true, {});
        QVERIFY(runButton->isEnabled());
    }

    void presetsLoadInOneClick_data()
    {
        QTest::addColumn<QString>("key");
        for (const Preset &p : presets())
            QTest::newRow(p.key.c_str()) << QString::fromStdString(p.key);
    }

    void presetsLoadInOneClick()
    {
        QFETCH(QString, key);
        const Preset *preset = findPreset(key.toStdString());
        ParameterPanel panel;
        panel.setStage(StageId::Naive);
        panel.setStage(preset->stage);
        QSignalSpy changed(&panel, &ParameterPanel::configurationChanged);
        auto *combo = panel.findChild<QComboBox *>("presetCombo");
        QVERIFY(combo);
        QCOMPARE(combo->currentIndex(), -1); // the stage's defaults are no preset
        const int index = combo->findData(key);
        QVERIFY(index >= 0);
        emit combo->activated(index); // as a click in its popup
        QCOMPARE(panel.config().stage, preset->stage);
        QCOMPARE(panel.config().params, preset->params);
        QCOMPARE(panel.config().presetKey, key);
        QVERIFY2(panel.isValid(), qPrintable(panel.violationText()));
        QVERIFY(changed.count() >= 1);
        QCOMPARE(changed.last()[0].value<RunConfig>(), panel.config());
        QCOMPARE(combo->currentIndex(), index);
        QCOMPARE(combo->toolTip(), combo->itemData(index, Qt::ToolTipRole).toString());
        // One name a preset (issue 38): where its values come from and what they are, then its code
        // as its runs have it in the tables; never a "Step 8: ..." title of its own nor its
        // catalog key ("worklog-8", "fp32-tuned"). Its whole name as the tables give it in the tooltip.
        const QString text = combo->itemText(index);
        QCOMPARE(text, presetChoiceText(*preset));
        if (!stageInfo(preset->stage).isLibrary)
            QVERIFY2(text.endsWith(QStringLiteral(" (preset %1)").arg(shortPresetLabel(key))) &&
                         !shortPresetLabel(key).isEmpty(),
                     qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("Step")), qPrintable(text));
        QVERIFY2(combo->toolTip().startsWith(presetTitle(key)), qPrintable(combo->toolTip()));
        QVERIFY2(!combo->toolTip().contains(key), qPrintable(combo->toolTip()));
    }

    // The stage list and the list under it ask two questions: which kernel ("3 — Coalesced
    // cooperative loads"), and which of THAT stage's named tile parameters. The second lists the
    // stage's presets alone, each by where its values come from and what they are, never by the
    // stage's name again (both said "Coalesced cooperative loads"); one preset loaded is shown,
    // not offered.
    void presetListHoldsTheStagesOwnPresets()
    {
        ParameterPanel panel;
        auto *stageList = panel.findChild<QComboBox *>("stageCombo");
        auto *combo = panel.findChild<QComboBox *>("presetCombo");
        auto *label = panel.findChild<QLabel *>(QStringLiteral("presetLabel"));
        QVERIFY(stageList && combo && label);
        QVERIFY2(!label->text().contains(QStringLiteral("Preset")) &&
                     label->text().contains(QStringLiteral("from")),
                 qPrintable(label->text()));
        QCOMPARE(label->buddy(), combo);
        for (int s = 0; s < int(stages().size()); ++s) {
            const StageInfo &stage = stages()[size_t(s)];
            stageList->setCurrentIndex(s); // as a user picks it
            QStringList expected;
            for (const Preset &p : presets())
                if (p.stage == stage.id)
                    expected << QString::fromStdString(p.key);
            QStringList listed;
            for (int i = 0; i < combo->count(); ++i) {
                listed << combo->itemData(i).toString();
                const QString text = combo->itemText(i);
                QVERIFY2(!text.contains(QString::fromStdString(stage.title)), qPrintable(text));
                QVERIFY2(!text.contains(stageList->currentText()), qPrintable(text));
                QVERIFY2(text.contains(QLatin1Char(':')), qPrintable(text)); // "Worklog: BM=64 ..."
            }
            QVERIFY(!expected.isEmpty());
            QCOMPARE(listed, expected);
            // The stage comes with its first preset, the one whose code the stage list shows.
            QCOMPARE(panel.config().presetKey, expected.first());
            QCOMPARE(combo->currentIndex(), 0);
            QVERIFY2(stageList->currentText().startsWith(shortPresetLabel(expected.first())),
                     qPrintable(stageList->currentText()));
            QCOMPARE(combo->isEnabled(), expected.size() > 1);
        }
    }

    // The worklog's and the guide's tile parameters of one stage, told apart by their values.
    void presetChoicesSayWhereTheirValuesComeFrom()
    {
        QCOMPARE(presetChoiceText(*findPreset("worklog-3")),
                 QStringLiteral("Worklog: BM=64 BN=64 BK=8 TM=4 TN=4 (preset 3)"));
        QCOMPARE(presetChoiceText(*findPreset("guide-32-padded")),
                 QStringLiteral("Guide: TILE=32 PAD=1 (preset G32+1)"));
        QVERIFY(presetChoiceText(*findPreset("fp32-tuned")).contains(QStringLiteral("Tuned")));
        QCOMPARE(stageChoiceText(stageInfo(StageId::Coalesced)),
                 QStringLiteral("3 — Coalesced cooperative loads"));
        QCOMPARE(stageChoiceText(stageInfo(StageId::CublasFp32)),
                 QString::fromStdString(stageInfo(StageId::CublasFp32).title));
    }

    void editingAPresetMakesItCustom()
    {
        ParameterPanel panel;
        QVERIFY(panel.applyPreset("worklog-2"));
        QSignalSpy changed(&panel, &ParameterPanel::configurationChanged);
        panel.setParam("BK", 16);
        QCOMPARE(changed.count(), 1);
        QVERIFY(panel.config().presetKey.isEmpty());
        QCOMPARE(panel.config().params.at("BK"), 16);
        panel.setParam("BK", 8); // the same values again, but the run is the user's own edit now
        QCOMPARE(panel.config().presetKey, QString());
        QCOMPARE(panel.config().params, findPreset("worklog-2")->params);
        // The list under the stage says so, and offers the stage's preset again.
        auto *combo = panel.findChild<QComboBox *>("presetCombo");
        QCOMPARE(combo->currentIndex(), -1);
        QVERIFY2(combo->placeholderText().startsWith(QStringLiteral("Custom")),
                 qPrintable(combo->placeholderText()));
        QVERIFY(combo->isEnabled());
    }

    // At 1280x800 the panel beside the Kernel workspace has about 700 px of height: everything it
    // offers is there without scrolling, the measurement settings one tab away (they sat below the
    // fold under a presets list that showed seven entries), and the whole preset list opens at once.
    void everyControlReachableWithoutScrollingAt1280x800()
    {
        QScrollArea scroll;               // as the window holds it
        auto *owned = new ParameterPanel; // the scroll area's
        ParameterPanel &panel = *owned;
        scroll.setWidgetResizable(true);
        scroll.setWidget(owned);
        scroll.resize(340, 700);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        auto *tabs = panel.findChild<QTabWidget *>(QStringLiteral("panelTabs"));
        QVERIFY(tabs);
        for (const StageInfo &stage : stages()) { // the most parameters any stage has
            panel.setStage(StageId(std::string_view(stage.key)));
            for (int tab = 0; tab < tabs->count(); ++tab) {
                tabs->setCurrentIndex(tab);
                QApplication::processEvents();
                QVERIFY2(scroll.verticalScrollBar()->maximum() == 0,
                         qPrintable(QStringLiteral("%1, tab %2: %3 px to scroll")
                                        .arg(QString::fromStdString(stage.key))
                                        .arg(tab)
                                        .arg(scroll.verticalScrollBar()->maximum())));
            }
        }
        tabs->setCurrentIndex(tabs->indexOf(
            panel.findChild<QWidget *>(QStringLiteral("regimeCombo"))->parentWidget()->parentWidget()));
        QApplication::processEvents();
        for (const char *name :
             {"regimeCombo", "spin_budget", "noiseCombo", "countersCheck", "carveoutCombo"})
            QVERIFY2(panel.findChild<QWidget *>(QLatin1String(name))->isVisible(), name);
        QVERIFY(panel.findChild<QWidget *>(QStringLiteral("runButton"))->isVisible());
        auto *presets = panel.findChild<QComboBox *>(QStringLiteral("presetCombo"));
        QCOMPARE(presets->count(), int(presetsOfStage(panel.config().stage).size()));
        QVERIFY(presets->maxVisibleItems() >= presets->count());
    }

    // A panel with room for both sections shows the measurement settings under the parameters, no
    // tab to switch and no empty half-panel under Run; a shorter one keeps the tabs. The choice
    // follows the room, both ways, and never makes the panel scroll.
    void measurementSitsUnderTheParametersWhereThereIsRoom()
    {
        QScrollArea scroll;
        auto *owned = new ParameterPanel;
        scroll.setWidgetResizable(true);
        scroll.setWidget(owned);
        scroll.resize(360, 1000);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        QApplication::processEvents();
        auto *tabs = owned->findChild<QTabWidget *>(QStringLiteral("panelTabs"));
        auto *regime = owned->findChild<QWidget *>(QStringLiteral("regimeCombo"));
        auto *bm = owned->findChild<QWidget *>(QStringLiteral("slider_BM"));
        auto *run = owned->findChild<QWidget *>(QStringLiteral("runButton"));
        QVERIFY(owned->measurementStacked());
        QVERIFY(regime->isVisible() && bm->isVisible() && run->isVisible());
        QCOMPARE(tabs->count(), 1);
        QVERIFY(!tabs->tabBar()->isVisible());
        QCOMPARE(scroll.verticalScrollBar()->maximum(), 0);
        // Run under the measurement settings it runs with.
        QVERIFY(run->mapTo(owned, QPoint(0, 0)).y() > regime->mapTo(owned, QPoint(0, 0)).y());
        scroll.resize(360, 700);
        QApplication::processEvents();
        QVERIFY(!owned->measurementStacked());
        QCOMPARE(tabs->count(), 2);
        QVERIFY(tabs->tabBar()->isVisible());
        QCOMPARE(scroll.verticalScrollBar()->maximum(), 0);
        tabs->setCurrentIndex(1);
        QApplication::processEvents();
        QVERIFY(regime->isVisible());
        scroll.resize(360, 1000);
        QApplication::processEvents();
        QVERIFY(owned->measurementStacked());
        QVERIFY(regime->isVisible() && bm->isVisible());
        QCOMPARE(scroll.verticalScrollBar()->maximum(), 0);
    }

    void stagePickerListsTheLadderByCodeAndName()
    {
        ParameterPanel panel;
        auto *combo = panel.findChild<QComboBox *>("stageCombo");
        QVERIFY(combo);
        QCOMPARE(combo->count(), int(stages().size()));
        for (int i = 0; i < combo->count(); ++i) {
            QCOMPARE(combo->itemData(i).toString(), QString::fromStdString(stages()[i].key));
            QCOMPARE(combo->itemText(i), stageChoiceText(stages()[i]));
            // What it reproduces, in its tooltip: the code in front is the worklog's step where
            // it is one, and the catalog's place of a stage is not its worklog step.
            QVERIFY(combo->itemData(i, Qt::ToolTipRole)
                        .toString()
                        .contains(QString::fromStdString(stages()[i].seedStep)));
        }
        // The closed face: the entry whole at the panel's width.
        combo->setCurrentIndex(3);
        const QString face = combo->currentText();
        panel.resize(350, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QStyleOptionComboBox option;
        option.initFrom(combo);
        const QRect field =
            combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
        QVERIFY2(combo->fontMetrics().horizontalAdvance(face) <= field.width(),
                 qPrintable(QStringLiteral("%1 px for %2 px")
                                .arg(field.width())
                                .arg(combo->fontMetrics().horizontalAdvance(face))));
        combo->setCurrentIndex(0);
        QCOMPARE(panel.config().stage, stages()[0].id);
        QCOMPARE(panel.config().presetKey, presetsOfStage(stages()[0].id).first()->key.c_str());
        QCOMPARE(panel.config().params, presetsOfStage(stages()[0].id).first()->params);
    }

    // "Preset" names one thing: a stage's named tile parameters. The problem size's list of
    // common sizes is not called that.
    void sizeListIsNotCalledPreset()
    {
        ParameterPanel panel;
        auto *combo = panel.findChild<QComboBox *>("sizeCombo");
        auto *form = qobject_cast<QFormLayout *>(combo->parentWidget()->layout());
        QVERIFY(form);
        auto *label = qobject_cast<QLabel *>(form->labelForField(combo));
        QVERIFY(label);
        QVERIFY2(!label->text().contains(QStringLiteral("Preset"), Qt::CaseInsensitive),
                 qPrintable(label->text()));
        QVERIFY2(label->text().contains(QStringLiteral("size"), Qt::CaseInsensitive),
                 qPrintable(label->text()));
    }

    // The sliders of a stage start and end together: every spin box beside them is as wide as the
    // widest (BM to 256, BK to 64: three digits and two).
    // A user's kernel joins the stage list when it is configured, after the ladder, with its own
    // parameters as sliders; the ladder's entries stay as they were.
    void aUsersKernelJoinsTheStageList()
    {
        const std::string text = "/* gemmscope:kernel\n"
                                 "name gemmscope::mine\n"
                                 "title Panel test kernel\n"
                                 "precision fp32\n"
                                 "param BM 8..64 step 8 default 16\n"
                                 "param BN {8, 16, 32} default 32\n"
                                 "block BN, BM\n"
                                 "grid ceil_div(N, BN), ceil_div(M, BM)\n"
                                 "*/\n"
                                 "#include \"common.cuh\"\n";
        const CustomStageParse parsed = registerCustomKernel({text, "mine.cuh", "naive"});
        QVERIFY(parsed.problems.empty());
        ParameterPanel panel;
        auto *combo = panel.findChild<QComboBox *>("stageCombo");
        QCOMPARE(combo->count(), int(stages().size()));
        RunConfig config = panel.config();
        config.stage = parsed.stage->id;
        config.params = defaultParams(parsed.stage->id);
        panel.setConfig(config);
        const int index = combo->findData(QString::fromStdString(parsed.stage->key));
        QVERIFY(index > int(stages().size())); // after the ladder and a separator
        QCOMPARE(combo->currentIndex(), index);
        QVERIFY2(combo->currentText().contains(QStringLiteral("Panel test kernel (your kernel)")),
                 qPrintable(combo->currentText()));
        QVERIFY(combo->currentText().contains(QStringLiteral("copied from Naive")));
        const QList<QSlider *> sliders =
            panel.findChildren<QSlider *>(QRegularExpression(QStringLiteral("^slider_")));
        QCOMPARE(sliders.size(), 2); // BM and BN, the block's parameters
        QCOMPARE(panel.config().params.size(), std::size_t(2));
        QCOMPARE(paramValue(panel.config().params, "BN"), 32);
        // Configured again (another run of it): listed once.
        panel.setConfig(config);
        QCOMPARE(combo->findData(QString::fromStdString(parsed.stage->key)), index);
        QCOMPARE(combo->count(), int(stages().size()) + 2);
    }

    void slidersLineUp()
    {
        ParameterPanel panel;
        QVERIFY(panel.applyPreset(QStringLiteral("worklog-3")));
        panel.resize(350, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QList<QSlider *> sliders =
            panel.findChildren<QSlider *>(QRegularExpression(QStringLiteral("^slider_")));
        QVERIFY(sliders.size() >= 5);
        for (QSlider *slider : sliders) {
            QCOMPARE(slider->mapTo(&panel, QPoint(0, 0)).x(),
                     sliders.first()->mapTo(&panel, QPoint(0, 0)).x());
            QCOMPARE(slider->width(), sliders.first()->width());
        }
    }

    void sizePresetsAndCustomSize()
    {
        ParameterPanel panel;
        auto *combo = panel.findChild<QComboBox *>("sizeCombo");
        const auto sizes = ParameterPanel::sizePresets();
        QCOMPARE(combo->count(), sizes.size() + 1);
        combo->setCurrentIndex(1);
        QCOMPARE(panel.config().size, sizes[1].second);
        panel.setProblemSize({1000, 999, 7});
        QCOMPARE(combo->currentIndex(), sizes.size()); // "Custom"
        QCOMPARE(panel.config().size, (ProblemSize{1000, 999, 7}));
    }

    void countersCheckboxDrivesTheRequest()
    {
        ParameterPanel panel;
        auto *check = panel.findChild<QCheckBox *>("countersCheck");
        QVERIFY(check);
        QVERIFY(check->isChecked()); // on by default: the roofline's measured point
        QVERIFY(panel.config().timing.counters);
        QSignalSpy changed(&panel, &ParameterPanel::configurationChanged);
        check->setChecked(false);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.config().timing.counters, false);
        // Loading a preset keeps the user's choice (it is a measuring option, not a kernel one).
        panel.applyPreset(QStringLiteral("worklog-8"));
        QCOMPARE(panel.config().timing.counters, false);
        QVERIFY(!check->isChecked());
    }

    // TF32 inputs rounded to nearest by default; "truncated" reaches the request for
    // GemmScope's TF32 stages only, and the choice is offered only where it applies.
    void tf32InputsChoiceDrivesTheRequest()
    {
        ParameterPanel panel;
        auto *combo = panel.findChild<QComboBox *>("tf32InputsCombo");
        QVERIFY(combo);
        QVERIFY(panel.applyPreset(QStringLiteral("tf32-wgmma-tma")));
        QVERIFY(combo->isEnabled());
        QCOMPARE(combo->currentData().toBool(), false);
        RunRequest request;
        request.config = panel.config();
        QVERIFY(!request.toProtocolJson().contains("tf32_rounding")); // the runner's default: rna
        combo->setCurrentIndex(combo->findData(true));
        QVERIFY(panel.config().timing.truncateTf32);
        request.config = panel.config();
        QCOMPARE(request.toProtocolJson().value("tf32_rounding").toString(), QStringLiteral("truncate"));

        // An FP32 stage and cuBLAS: the choice is off, says why, and never reaches the request.
        for (const char *preset : {"worklog-8", "cublas_tf32"}) {
            QVERIFY(panel.applyPreset(QString::fromLatin1(preset)));
            QVERIFY(!combo->isEnabled());
            QVERIFY(combo->toolTip().contains(QStringLiteral("not one")));
            request.config = panel.config();
            QVERIFY(!request.toProtocolJson().contains("tf32_rounding"));
        }
    }

    // Launch experiments: the combos set the measuring options, the request carries them for
    // GemmScope's kernels and never for cuBLAS, and a preset keeps them.
    // Each measurement control writes its own field of the configuration, and announces it; the
    // panel setting its controls from a configuration does not count as an edit.
    void measurementChoicesDriveTheConfig()
    {
        ParameterPanel panel;
        QSignalSpy changed(&panel, &ParameterPanel::configurationChanged);
        auto *noise = panel.findChild<QComboBox *>("noiseCombo");
        auto *threshold = panel.findChild<QComboBox *>("thresholdCombo");
        auto *scalarReads = panel.findChild<QCheckBox *>("scalarReadsCheck");
        QCheckBox *flush = nullptr;
        for (QCheckBox *check : panel.findChildren<QCheckBox *>())
            if (check->text().contains(QStringLiteral("Flush L2")))
                flush = check;
        QVERIFY(noise && threshold && scalarReads && flush);

        noise->setCurrentIndex(noise->findData(2.0));
        QCOMPARE(panel.config().timing.maxNoisePct, 2.0);
        threshold->setCurrentIndex(threshold->findData(0.0));
        QCOMPARE(panel.config().timing.throttleThresholdPct, 0.0);
        const bool flushOn = !flush->isChecked();
        flush->setChecked(flushOn);
        QCOMPARE(panel.config().timing.flushL2, flushOn);
        const bool scalarOn = !scalarReads->isChecked();
        scalarReads->setChecked(scalarOn);
        QCOMPARE(panel.config().timing.scalarSharedReads, scalarOn);
        QCOMPARE(changed.size(), 4);

        RunConfig config = panel.config();
        config.timing.maxNoisePct = 0.1;
        changed.clear();
        panel.setConfig(config);
        QCOMPARE(noise->currentData().toDouble(), 0.1);
        QCOMPARE(panel.config().timing.maxNoisePct, 0.1);
        QCOMPARE(changed.size(), 1); // setConfig's own announcement, no edit from the noise combo
    }

    void launchExperimentsDriveTheRequest()
    {
        ParameterPanel panel;
        auto *blocks = panel.findChild<QComboBox *>("blocksPerSmCombo");
        auto *carveout = panel.findChild<QComboBox *>("carveoutCombo");
        QVERIFY(blocks && carveout);
        QCOMPARE(panel.config().timing.maxBlocksPerSm, 0); // defaults: a plain launch
        QCOMPARE(panel.config().timing.smemCarveout, -1);
        RunRequest request;
        request.config = panel.config();
        QVERIFY(!request.toProtocolJson().contains("max_blocks_per_sm"));
        QVERIFY(!request.toProtocolJson().contains("smem_carveout"));

        blocks->setCurrentIndex(blocks->findData(1));
        carveout->setCurrentIndex(carveout->findData(100));
        QCOMPARE(panel.config().timing.maxBlocksPerSm, 1);
        QCOMPARE(panel.config().timing.smemCarveout, 100);
        request.config = panel.config();
        QCOMPARE(request.toProtocolJson().value("max_blocks_per_sm").toInt(), 1);
        QCOMPARE(request.toProtocolJson().value("smem_carveout").toInt(), 100);

        panel.applyPreset(QStringLiteral("worklog-8"));
        QCOMPARE(panel.config().timing.maxBlocksPerSm, 1);
        QCOMPARE(blocks->currentData().toInt(), 1);

        panel.applyPreset(QStringLiteral("cublas_fp32"));
        request.config = panel.config();
        QVERIFY(!request.toProtocolJson().contains("max_blocks_per_sm"));
        QVERIFY(!request.toProtocolJson().contains("smem_carveout"));

        // A value set in code that no item offers is shown, not silently replaced.
        RunConfig config = panel.config();
        config.timing.maxBlocksPerSm = 5;
        panel.setConfig(config);
        QCOMPARE(blocks->currentData().toInt(), 5);
    }

    // The panel read by someone new to it: the T4 times say whose
    // they are and never break inside, the size is the next run's, the stage box shows its whole
    // entry on hover, and the measurement rows' names explain themselves on hover.
    void panelWordsExplainThemselves()
    {
        ParameterPanel panel;
        auto *t4 = panel.findChild<QLabel *>(QStringLiteral("presetLabel"));
        QVERIFY(t4 && t4->toolTip().contains(QStringLiteral("the worklog published")));
        // What the worklog and the guide are, in the glossary's words (issue 38).
        QVERIFY(t4->toolTip().contains(jargon::worklog()) && t4->toolTip().contains(jargon::guide()));
        auto *combo = panel.findChild<QComboBox *>(QStringLiteral("presetCombo"));
        QVERIFY(qobject_cast<PresetItemDelegate *>(combo->itemDelegate()));
        int timed = 0;
        const QFontMetrics metrics(combo->font());
        for (const StageInfo &shown : stages()) {
            panel.setStage(shown.id);
            for (int i = 0; i < combo->count(); ++i) {
                const QString time = combo->itemData(i, PresetItemDelegate::TimeRole).toString();
                // The time in a column of its own, beside the name's, never wrapped into the name.
                QVERIFY2(!combo->itemText(i).contains(QStringLiteral("T4")), qPrintable(combo->itemText(i)));
                if (time.isEmpty())
                    continue;
                ++timed;
                QVERIFY2(
                    QRegularExpression(QStringLiteral("^T4 [0-9]+\\.[0-9]{2} ms$")).match(time).hasMatch(),
                    qPrintable(time));
                const auto [name, column] = PresetItemDelegate::columns(QRect(0, 0, 300, 60), metrics, time);
                QVERIFY(!name.intersects(column) && name.width() > 150);
                QVERIFY(metrics.horizontalAdvance(time) <= column.width());
                QVERIFY(combo->itemData(i, Qt::ToolTipRole)
                            .toString()
                            .contains(QStringLiteral("published in the worklog")));
            }
        }
        QCOMPARE(timed, 10); // steps 0-8 with 5a and 5b
        // A wrapped name belongs to its preset: rows banded in a shade the eye sees (in a list that
        // opens: a stage with two presets).
        QVERIFY(panel.applyPreset(QStringLiteral("worklog-6")));
        QVERIFY(combo->isEnabled());
        QAbstractItemView *list = combo->view();
        QVERIFY(list->alternatingRowColors());
        const QColor base = list->palette().color(QPalette::Base);
        const QColor band = list->palette().color(QPalette::AlternateBase);
        const int difference = std::abs(base.red() - band.red()) + std::abs(base.green() - band.green()) +
                               std::abs(base.blue() - band.blue());
        QVERIFY2(difference >= 30, qPrintable(band.name()));
        auto *size = panel.findChild<QGroupBox *>(QStringLiteral("sizeGroup"));
        QVERIFY(size && size->title().contains(QStringLiteral("next run")));
        auto *stage = panel.findChild<QComboBox *>(QStringLiteral("stageCombo"));
        QCOMPARE(stage->toolTip(), stage->currentText());
        auto *form = panel.findChild<QComboBox *>(QStringLiteral("regimeCombo"))->parentWidget();
        for (const QString &name : {QStringLiteral("Timing"), QStringLiteral("Leave out"),
                                    QStringLiteral("Blocks per SM"), QStringLiteral("L1 / shared")}) {
            const QLabel *label = nullptr;
            for (const QLabel *l : form->findChildren<QLabel *>())
                if (l->text() == name)
                    label = l;
            QVERIFY2(label && !label->toolTip().isEmpty(), qPrintable(name));
        }
        QVERIFY(!panel.findChild<QCheckBox *>(QStringLiteral("scalarReadsCheck"))->toolTip().isEmpty());
    }
};

QTEST_MAIN(TestParameterPanel)
#include "tst_parameter_panel.moc"
