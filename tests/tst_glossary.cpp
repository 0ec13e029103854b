// Help > Glossary (app/gui/glossary.h): every word a new user stumbled on in the window
// has an entry, the page is sorted, and its text is shown as text.
#include "access_check_view.h"
#include "glossary.h"
#include "jargon_text.h"
#include "main_window.h"
#include "results_model.h"
#include "roofline_chart.h"
#include "run_selection.h"
#include "runtime_series.h"
#include "session.h"
#include "stall_reasons.h"
#include "sweep_summary.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <qcustomplot.h>

using namespace gemmscope;

namespace {

// What the window writes for a reader to see, in every widget: labels, buttons and their tooltips,
// the items of every list and combo box, tab titles, and the charts' legends, axis titles and
// texts.
QStringList textsShownIn(const QWidget &window)
{
    QStringList texts;
    for (const QLabel *l : window.findChildren<QLabel *>())
        texts << l->text() << l->toolTip();
    for (const QAbstractButton *b : window.findChildren<QAbstractButton *>())
        texts << b->text() << b->toolTip();
    for (const QComboBox *c : window.findChildren<QComboBox *>())
        for (int i = 0; i < c->count(); ++i)
            texts << c->itemText(i) << c->itemData(i, Qt::ToolTipRole).toString();
    for (const QTabWidget *t : window.findChildren<QTabWidget *>())
        for (int i = 0; i < t->count(); ++i)
            texts << t->tabText(i) << t->tabToolTip(i);
    for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
        for (int i = 0; i < plot->plottableCount(); ++i)
            texts << plot->plottable(i)->name();
        for (int i = 0; i < plot->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                texts << text->text();
        for (const QCPAxis *axis : plot->axisRect() ? plot->axisRect()->axes() : QList<QCPAxis *>())
            texts << axis->label();
        for (int i = 0; plot->legend && i < plot->legend->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPTextElement *>(plot->legend->item(i)))
                texts << text->text();
    }
    texts.removeAll(QString());
    return texts;
}

} // namespace

class TestGlossary : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // the window below writes nothing of the user's
        QCoreApplication::setOrganizationName(QStringLiteral("GemmScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_glossary"));
    }

    void everyWordTheWindowUsesIsExplained_data()
    {
        QTest::addColumn<QString>("word");
        for (const char *word : {"AI",
                                 "p20–p80",
                                 "Ridge",
                                 "Above a roof",
                                 "sectors per request",
                                 "wavefront",
                                 "CUPTI",
                                 "SASS",
                                 "PTX",
                                 "LDS",
                                 "FFMA",
                                 "Burst",
                                 "sustained",
                                 "T4",
                                 "Worklog",
                                 "guide",
                                 "Blocks per SM",
                                 "L1 / shared",
                                 "Swizzle",
                                 "Trust",
                                 "TF32",
                                 "Occupancy",
                                 "% of cuBLAS",
                                 "Auto",
                                 "Stage codes",
                                 "Stall reason",
                                 "wgmma",
                                 "TMA",
                                 "Traffic model",
                                 "pedantic SGEMM",
                                 "Runner template",
                                 "Not checked (no clock log)",
                                 "Refused",
                                 "Measured on",
                                 "% of cuBLAS FP32",
                                 "Guide (G32"})
            QTest::newRow(word) << QString::fromUtf8(word);
    }

    void everyWordTheWindowUsesIsExplained()
    {
        QFETCH(QString, word);
        bool found = false;
        for (const GlossaryEntry &e : glossary())
            found = found || e.term.contains(word, Qt::CaseInsensitive);
        QVERIFY2(found, qPrintable(word + QStringLiteral(" has no glossary entry")));
    }

    // Where the window prints a word of jargon, its tooltip says what the glossary says: the results
    // table's Median and p20–p80 titles, the Counters table's sectors and wavefronts.
    void jargonTooltipsSayWhatTheGlossarySays()
    {
        const auto meaning = [](const QString &term) {
            for (const GlossaryEntry &e : glossary())
                if (e.term == term)
                    return e.meaning;
            return QString();
        };
        const QString spread = meaning(QStringLiteral("Median, p20–p80"));
        QVERIFY(spread.contains(QStringLiteral("20th and 80th percentiles")));
        Session session;
        session.setAutosavePath({});
        const ResultsModel model(&session);
        for (const int column : {int(ResultsModel::MedianColumn), int(ResultsModel::SpreadColumn)})
            QCOMPARE(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString(), spread);
        // A text that uses them (a stage's summary) is explained word by word, in the same sentences.
        const QString explained = jargon::explainedWords(QStringLiteral("before the FFMAs; ridge"));
        QVERIFY(explained.contains(meaning(QStringLiteral("FFMA, LDG, STG, LDS, STS, BAR"))));
        QVERIFY(explained.contains(meaning(QStringLiteral("Ridge"))));
        QVERIFY(!explained.contains(spread));
        const AccessCheckView counters;
        const QString tip = counters.findChild<QLabel *>()->toolTip();
        for (const char *term : {"Sector, sectors per request", "Bank, wavefront, bank conflict"}) {
            const QString text = meaning(QString::fromUtf8(term));
            QVERIFY2(!text.isEmpty() && tip.contains(text.toHtmlEscaped()), term);
        }
    }

    // Three words a reviewer met with no explanation: each has its glossary sentence, and where the
    // window prints it the tooltip says the same: the roofline's "Traffic model" tick, the Stage name
    // of the cuBLAS FP32 row ("pedantic SGEMM"), the Sweep form's Runners field (the runner template).
    void unexplainedJargonIsExplainedWhereItIsRead()
    {
        const auto meaning = [](const QString &term) {
            for (const GlossaryEntry &e : glossary())
                if (e.term == term)
                    return e.meaning;
            return QString();
        };
        QCOMPARE(meaning(QStringLiteral("Traffic model")), jargon::trafficModel());
        QCOMPARE(meaning(QStringLiteral("cuBLAS FP32 (reference), pedantic SGEMM")), jargon::pedanticSgemm());
        QCOMPARE(meaning(QStringLiteral("Runner template (Runners)")), jargon::runnerTemplate());

        const RooflineChart roofline;
        const auto *traffic = roofline.findChild<QCheckBox *>(QStringLiteral("rooflineModelCheck"));
        QVERIFY(traffic && traffic->text() == QStringLiteral("Traffic model"));
        QVERIFY2(traffic->toolTip().contains(jargon::trafficModel().toHtmlEscaped()),
                 qPrintable(traffic->toolTip()));

        QTemporaryDir dir;
        MainWindow window({.startRunner = false,
                           .restoreSettings = false,
                           .autosavePath = dir.filePath(QStringLiteral("autosave.json"))});
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        const ResultsModel *model = window.resultsModel();
        QString cublasTip;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex stage = model->index(row, ResultsModel::StageColumn);
            if (stage.data().toString().contains(QStringLiteral("cuBLAS FP32 (reference)")))
                cublasTip = stage.data(Qt::ToolTipRole).toString();
        }
        QVERIFY2(cublasTip.contains(jargon::pedanticSgemm().toHtmlEscaped()), qPrintable(cublasTip));

        // One runner field for both kinds of sweep: the Sweep workspace's run bar.
        for (const char *field : {"sweepRunnerTemplate"}) {
            const auto *runners = window.findChild<QLineEdit *>(QString::fromLatin1(field));
            QVERIFY2(runners, field);
            QVERIFY2(runners->toolTip().contains(jargon::runnerTemplate().toHtmlEscaped()),
                     qPrintable(runners->toolTip()));
        }
    }

    // Stage, preset and run, the three words the window names its kernels with (a review found a
    // "configuration" and a "worklog step" for each of them): defined in one entry, together, since
    // how they relate is what a reader needs, and nowhere else.
    void stagePresetAndRunAreDefinedTogetherOnce()
    {
        QStringList defining;
        QString meaning;
        for (const GlossaryEntry &e : glossary())
            if (e.meaning.contains(QStringLiteral("A preset is"))) {
                defining << e.term;
                meaning = e.meaning;
            }
        QCOMPARE(defining, QStringList{QStringLiteral("Stage, preset, run")});
        QCOMPARE(meaning, jargon::stagePresetRun());
        for (const char *definition :
             {"A stage is one rung of the ladder", "A preset is a stage with", "A run is one preset"})
            QVERIFY2(meaning.contains(QString::fromUtf8(definition)), definition);
    }

    // Five words a no-context review still found unexplained (issue 38): each has its glossary
    // sentence, and where the window prints it, it says it in clearer words or its tooltip says what
    // the glossary says. "Trust: not checked (no clock log)" and the Origin "published (worklog)" in
    // the results table, "% of cuBLAS" in the Sweep's Show choice (which cuBLAS, which run), a sweep's
    // "measured on vm: NVIDIA H200" (a host read as a GPU), "refused by the catalog" (a word of the
    // code) and the runtime legend's "worklog + guide (G32) stages".
    void reviewedJargonIsExplainedWhereItIsRead()
    {
        const auto meaning = [](const QString &term) {
            for (const GlossaryEntry &e : glossary())
                if (e.term == term)
                    return e.meaning;
            return QString();
        };
        QCOMPARE(meaning(QStringLiteral("Worklog, T4, published")), jargon::worklog());
        QCOMPARE(meaning(QStringLiteral("Guide (G32, G32+1)")), jargon::guide());
        QCOMPARE(meaning(QStringLiteral("Not checked (no clock log)")), jargon::noClockLog());
        QCOMPARE(meaning(QStringLiteral("Refused (by the stage's rules)")), jargon::refused());
        QCOMPARE(meaning(QStringLiteral("Measured on GPU (machine \"name\")")), jargon::measuredOnHost());
        QCOMPARE(meaning(QStringLiteral("% of cuBLAS FP32 (Sweep)")), jargon::percentOfCublasFp32());

        Session session;
        session.setAutosavePath({});
        RunRecord unlogged; // timed before GemmScope logged clocks: no conditions
        unlogged.runId = QStringLiteral("r1");
        unlogged.stage = StageId::CublasFp32; // no parameters to miss: nothing refused
        unlogged.status = RunStatus::Ok;
        unlogged.medianMs = unlogged.p20Ms = unlogged.p80Ms = 3;
        unlogged.m = unlogged.n = unlogged.k = 1024;
        RunRecord published = unlogged;
        published.runId = QStringLiteral("w0");
        published.origin = QStringLiteral("worklog");
        session.addOrUpdate(unlogged);
        session.addOrUpdate(published);
        const ResultsModel model(&session);
        const QModelIndex trust = model.index(0, ResultsModel::TrustColumn);
        QCOMPARE(trust.data().toString(), QStringLiteral("not checked (no clock log)"));
        QCOMPARE(trust.data(Qt::ToolTipRole).toString(), jargon::noClockLog());
        const QModelIndex origin = model.index(1, ResultsModel::OriginColumn);
        QCOMPARE(origin.data().toString(), QStringLiteral("published (worklog)"));
        QCOMPARE(origin.data(Qt::ToolTipRole).toString(), jargon::worklog());

        RunRecord onVm = unlogged;
        onVm.host = QStringLiteral("vm");
        onVm.gpuName = QStringLiteral("NVIDIA H200");
        onVm.timestamp = QDateTime(QDate(2026, 11, 30), QTime(22, 35), Qt::UTC);
        QCOMPARE(sweepProvenance({onVm}),
                 QStringLiteral("measured on NVIDIA H200 (machine “vm”), 2026-11-30 22:35 UTC"));

        // The words of the code and of two documents nobody had introduced, nowhere in the window.
        QTemporaryDir dir;
        MainWindow window({.startRunner = false,
                           .restoreSettings = false,
                           .autosavePath = dir.filePath(QStringLiteral("autosave.json"))});
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        // Which cuBLAS the Sweep compares with: said in the choice, the run it means in its tooltip.
        const auto *metric = window.findChild<QComboBox *>(QStringLiteral("sweepMetric"));
        QVERIFY(metric && metric->count() == 2);
        QCOMPARE(metric->itemText(1), QStringLiteral("% of cuBLAS FP32"));
        QCOMPARE(metric->itemData(1, Qt::ToolTipRole).toString(), jargon::percentOfCublasFp32());

        const QStringList shown = textsShownIn(window);
        QVERIFY(shown.size() > 100);
        // The runtime legend's group: what the codes are, and whose (its own item kind, read here).
        QCOMPARE(ladderGroupName(LadderGroup::WorklogSteps),
                 QStringLiteral("stages 0–8 (worklog), G32 (guide)"));
        for (const char *retired :
             {"by the catalog", "catalog refuses", "guide (G32) stages", "of cuBLAS (same GPU)"})
            for (const QString &text : shown)
                QVERIFY2(!text.contains(QString::fromUtf8(retired), Qt::CaseInsensitive), qPrintable(text));
    }

    // Four more a no-context review of the full ladder met unexplained: "pedantic SGEMM", "release
    // build", "Regime: Burst" and "host vm". Each is said in plain words where it is shown, the
    // precise term in its tooltip and the glossary.
    void termsOfTheTradeAreSaidInPlainWords()
    {
        const auto meaning = [](const QString &term) {
            for (const GlossaryEntry &e : glossary())
                if (e.term == term)
                    return e.meaning;
            return QString();
        };
        QCOMPARE(meaning(QStringLiteral("Normal build, shared reads as written (release, scalar build)")),
                 jargon::normalBuild());
        QCOMPARE(meaning(QStringLiteral("Burst, sustained (Timing)")), jargon::regime());

        QTemporaryDir dir;
        MainWindow window({.startRunner = false,
                           .restoreSettings = false,
                           .autosavePath = dir.filePath(QStringLiteral("autosave.json"))});
        QString error;
        QVERIFY2(window.openSession(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
        // The reference cuBLAS: named as what it is to the ladder; "pedantic SGEMM" in its tooltip.
        const ResultsModel *model = window.resultsModel();
        int cublasRows = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QModelIndex stage = model->index(row, ResultsModel::StageColumn);
            if (!stage.data().toString().startsWith(QStringLiteral("cuBLAS FP32")))
                continue;
            ++cublasRows;
            QVERIFY2(!stage.data().toString().contains(QStringLiteral("pedantic")),
                     qPrintable(stage.data().toString()));
            QVERIFY(stage.data(Qt::ToolTipRole).toString().contains(QStringLiteral("pedantic math mode")));
        }
        QVERIFY(cublasRows > 0);

        // The Counters heading names the build in the parameter panel's words; its tooltip says what.
        QString step3;
        for (const RunRecord &r : window.session()->runs())
            if (r.presetKey == QStringLiteral("worklog-3") && r.counters)
                step3 = r.runId;
        QVERIFY(!step3.isEmpty());
        window.selection()->select(step3);
        QVERIFY(window.showView(QStringLiteral("Counters")));
        const auto *counters = window.findChild<AccessCheckView *>(QStringLiteral("accessCheckView"));
        QVERIFY(counters);
        QVERIFY2(!counters->headline().contains(QStringLiteral("release")) &&
                     counters->headline().endsWith(QStringLiteral("normal build")),
                 qPrintable(counters->headline()));
        QVERIFY(counters->findChild<QLabel *>()->toolTip().contains(jargon::normalBuild().toHtmlEscaped()));

        // The timing regime: "Timing" and what each choice does; "burst" and "sustained" in brackets.
        auto *regime = window.findChild<QComboBox *>(QStringLiteral("regimeCombo"));
        QVERIFY(regime && regime->count() == 2);
        QCOMPARE(regime->itemText(0), QStringLiteral("From an idle GPU (burst)"));
        QCOMPARE(regime->itemText(1), QStringLiteral("At steady load (sustained)"));
        QVERIFY(regime->toolTip().contains(jargon::regime().toHtmlEscaped()));
        auto *form = qobject_cast<QFormLayout *>(regime->parentWidget()->layout());
        QVERIFY(form);
        auto *label = qobject_cast<QLabel *>(form->labelForField(regime));
        QVERIFY(label && label->text() == QStringLiteral("Timing"));

        // A sweep's machine by its name, said to be a machine's name; what it is in the line's tooltip.
        RunRecord onVm = *window.session()->find(step3);
        onVm.host = QStringLiteral("vm");
        const QString where = sweepProvenance({onVm});
        QVERIFY2(!where.contains(QStringLiteral("host vm")) && where.contains(QStringLiteral("machine “vm”")),
                 qPrintable(where));
        const auto *sweepLine = window.findChild<QLabel *>(QStringLiteral("sweepBest"));
        QVERIFY(sweepLine && sweepLine->toolTip().contains(jargon::measuredOnHost().toHtmlEscaped()));
    }

    // Every stall reason under the name the profile views print, with CUPTI's counter.
    void everyStallReasonByItsViewName()
    {
        for (const QString &key : knownStallReasonKeys()) {
            const StallReason r = stallReason(key);
            bool found = false;
            for (const GlossaryEntry &e : glossary())
                if (e.term == QStringLiteral("Stall reason: ") + r.name) {
                    QVERIFY(e.meaning.contains(r.cuptiName()));
                    QVERIFY(e.meaning.contains(r.nsightName));
                    found = true;
                }
            QVERIFY2(found, qPrintable(key));
        }
    }

    void entriesAreSortedAndComplete()
    {
        const QList<GlossaryEntry> &entries = glossary();
        QVERIFY(entries.size() >= 20);
        for (qsizetype i = 0; i < entries.size(); ++i) {
            QVERIFY2(!entries[i].meaning.isEmpty() && !entries[i].where.isEmpty(),
                     qPrintable(entries[i].term));
            QVERIFY2(entries[i].meaning.endsWith(QLatin1Char('.')), qPrintable(entries[i].term));
            if (i > 0)
                QVERIFY2(QString::compare(entries[i - 1].term, entries[i].term, Qt::CaseInsensitive) < 0,
                         qPrintable(entries[i].term));
        }
    }

    void pageShowsEveryTermAsText()
    {
        QTextDocument page;
        page.setHtml(glossaryHtml());
        const QString text = page.toPlainText();
        for (const GlossaryEntry &e : glossary()) {
            QVERIFY2(text.contains(e.term), qPrintable(e.term)); // "%" and "/" survive as text
            QVERIFY2(text.contains(e.meaning.left(40)), qPrintable(e.term));
        }
    }
};

QTEST_MAIN(TestGlossary)
#include "tst_glossary.moc"
