// The run-against-cuBLAS table (widgets/run_against_cublas_view.h) on the recorded H200 ladder: the
// run named as the results table's Stage column names it, with its stage's name; the L2 row's
// measured traffic marked against the model's as the access table marks its rows, and the mark
// explained under the table.
#include "model_agreement.h"
#include "run_against_cublas_view.h"
#include "run_color.h"
#include "session.h"

#include <QtTest>

using namespace gemmscope;

class TestRunAgainstCublasView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString error;
        QVERIFY2(m_session.open(
                     QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"), &error),
                 qPrintable(error));
    }

    void namesTheRunAsTheTablesDo()
    {
        RunAgainstCublasView view;
        view.setRuns(m_session.runs());
        const RunRecord *step3 = runOf(QStringLiteral("worklog-3"));
        QVERIFY(step3);
        view.setSelectedRun(step3->runId, step3);
        const QString text = view.text();
        // The sentence and the run's column: "Stage 3", and the stage's name; never "Run 3", a name
        // the rest of the window does not use.
        QVERIFY2(text.contains(QStringLiteral("Stage 3 (%1) took").arg(runStageTitleText(*step3))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Quantity\tStage 3\tcuBLAS FP32")) ||
                     text.contains(QStringLiteral("Quantity\nStage 3\ncuBLAS FP32")),
                 qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("Run 3"), Qt::CaseInsensitive), qPrintable(text));
    }

    // Every run of the ladder with an L2 counter and a traffic model: its L2 row marked agrees or
    // differs, as the rule says, and the rule stated under the table.
    void marksL2TrafficAgainstTheModel()
    {
        RunAgainstCublasView view;
        view.setRuns(m_session.runs());
        int agrees = 0, differs = 0;
        for (const RunRecord &run : m_session.runs()) {
            if (!run.isOk() || run.origin == QLatin1String("worklog"))
                continue;
            view.setSelectedRun(run.runId, &run);
            const RunFactRow *l2 = nullptr;
            for (const RunFactRow &row : view.facts().rows)
                if (row.quantity == QStringLiteral("L2 traffic"))
                    l2 = &row;
            if (!l2 || !l2->runAgreesWithModel)
                continue;
            const QString text = view.text();
            const QString mark =
                *l2->runAgreesWithModel ? QStringLiteral("\u2713 agrees") : QStringLiteral("\u2717 differs");
            QVERIFY2(text.contains(mark), qPrintable(run.presetKey + QStringLiteral(": ") + text));
            // (toPlainText makes the no-break space before "%" a space)
            QVERIFY2(text.contains(QStringLiteral("within %1 % of the model's")
                                       .arg(kModelAgreementTolerance * 100, 0, 'f', 0)),
                     qPrintable(text));
            ++(*l2->runAgreesWithModel ? agrees : differs);
        }
        QVERIFY2(agrees + differs >= 10, qPrintable(QStringLiteral("%1 + %2").arg(agrees).arg(differs)));
        qInfo("L2 traffic: %d runs agree with the model, %d differ", agrees, differs);
    }

    // The view finds the selected run's cuBLAS run in an index of the session's cuBLAS runs (a scan
    // of 100,000 runs took 10-15 ms a selection): as runs arrive it holds the run against what a
    // view given the whole session at once holds it against.
    void followsTheSessionAsRunsArrive()
    {
        QList<RunRecord> runs = m_session.runs();
        const RunRecord *found = runOf(QStringLiteral("worklog-3"));
        QVERIFY(found);
        const RunRecord step3 = *found;
        RunAgainstCublasView view;
        view.setRuns(runs);
        view.setSelectedRun(step3.runId, &step3);
        const auto sameAsGivenAll = [&] {
            RunAgainstCublasView fresh;
            fresh.setRuns(runs);
            fresh.setSelectedRun(step3.runId, &step3);
            return view.text() == fresh.text();
        };
        const QString before = view.text();
        QVERIFY(sameAsGivenAll());

        // A run added before the others moves every row the index holds.
        RunRecord first = step3;
        first.runId = QStringLiteral("added-first");
        view.runsAboutToChange();
        runs.prepend(first);
        view.runAdded(runs, 0);
        view.setSelectedRun(step3.runId, &step3);
        QCOMPARE(view.text(), before);
        QVERIFY(sameAsGivenAll());

        // A cuBLAS run nearer in time, and slower: the run is held against it now.
        const RunRecord *cublas = cublasRunFor(step3, runs);
        QVERIFY(cublas);
        RunRecord nearer = *cublas;
        nearer.runId = QStringLiteral("nearer-cublas");
        nearer.timestamp = step3.timestamp;
        nearer.medianMs *= 1.5;
        view.runsAboutToChange();
        runs.append(nearer);
        view.runAdded(runs, runs.size() - 1);
        QVERIFY(view.text() != before);
        QVERIFY(sameAsGivenAll());
        QCOMPARE(cublasRunFor(step3, runs)->runId, nearer.runId);
    }

    // The paired bars (and their key) wear the colours the Ladder and the roofline give the two
    // runs: stage 3 its stage's green, cuBLAS FP32 its grey; not a blue and grey of their own.
    void barsWearTheRunsLadderColours()
    {
        RunAgainstCublasView view;
        view.setRuns(m_session.runs());
        const RunRecord *step3 = runOf(QStringLiteral("worklog-3"));
        QVERIFY(step3);
        view.setSelectedRun(step3->runId, step3);
        const RunRecord *cublas = cublasRunFor(*step3, m_session.runs());
        QVERIFY(cublas);
        QVERIFY(runColor(*step3) != runColor(*cublas));
        view.resize(900, 600);
        view.show();
        QWidget *bars = view.findChild<QWidget *>(QStringLiteral("runAgainstCublasBars"));
        QVERIFY(bars && bars->isVisible());
        const QImage image = bars->grab().toImage();
        // Pixels of each colour: both bars of every pair row (at least 3 rows of a few px) and the key.
        const auto pixelsOf = [&image](const QColor &color) {
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    n += image.pixelColor(x, y).rgb() == color.rgb();
            return n;
        };
        QVERIFY2(pixelsOf(runColor(*step3)) > 300, qPrintable(runColor(*step3).name()));
        QVERIFY2(pixelsOf(runColor(*cublas)) > 300, qPrintable(runColor(*cublas).name()));
        // The key's two squares, left of the run's and cuBLAS's names, in the same colours.
        const int keyRow = QFontMetrics(bars->font()).height() / 2;
        QSet<QRgb> keyColours;
        for (int x = 0; x < image.width(); ++x)
            keyColours.insert(image.pixelColor(x, keyRow).rgb());
        QVERIFY(keyColours.contains(runColor(*step3).rgb()));
        QVERIFY(keyColours.contains(runColor(*cublas).rgb()));
    }

private:
    const RunRecord *runOf(const QString &preset) const
    {
        for (const RunRecord &run : m_session.runs())
            if (run.presetKey == preset && run.isOk() && run.origin != QLatin1String("worklog"))
                return &run;
        return nullptr;
    }

    Session m_session;
};

QTEST_MAIN(TestRunAgainstCublasView)
#include "tst_run_against_cublas_view.moc"
