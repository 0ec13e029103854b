// Session and bench files a user (or a crafted file) can produce:
// runs with zero, missing or string tile parameters and absurd sizes are kept but never fed to a
// model, so neither the window nor --render-session crashes; whatever --import-bench accepts a
// session load accepts; a refusal names the version it received.
#include "app_resources.h"
#include "main_window.h"
#include "results_model.h"
#include "run_selection.h"
#include "session.h"
#include "session_render.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace gemmscope;

namespace {

QJsonObject okRunJson(const QString &id, const QString &stage, const QJsonObject &params,
                      const QJsonObject &size = {{"m", 512}, {"n", 512}, {"k", 512}})
{
    return QJsonObject{{"run_id", id},
                       {"stage", stage},
                       {"params", params},
                       {"size", size},
                       {"status", "ok"},
                       {"origin", "measured"},
                       {"timing", QJsonObject{{"median_ms", 1.5}, {"count", 5}}},
                       {"tflops", 0.2},
                       {"gpu", QJsonObject{{"name", "NVIDIA H200"}, {"arch", "sm_90"}}}};
}

QJsonArray damagedRuns()
{
    const QJsonObject tiles{{"BM", 64}, {"BN", 64}, {"BK", 0}, {"TM", 4}, {"TN", 4}};
    const double p32 = 4294967296.0;
    return QJsonArray{
        okRunJson("good", "coalesced", {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}),
        okRunJson("bx0", "naive", {{"BX", 0}, {"BY", 16}}),
        okRunJson("tile0", "smem_tiled", {{"TILE", 0}, {"PAD", 0}}),
        okRunJson("tile-missing", "smem_tiled", {{"PAD", 0}}),
        okRunJson("tile-string", "smem_tiled", {{"TILE", "16"}, {"PAD", 0}}),
        okRunJson("bk0", "coalesced", tiles),
        okRunJson("tm-null", "final", {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", QJsonValue()}, {"TN", 4}}),
        okRunJson("huge", "coalesced", {{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}},
                  {{"m", p32}, {"n", p32}, {"k", p32}}),
        okRunJson("unknown-stage", "no_such_stage", {{"X", 1}}),
    };
}

void writeJson(const QString &path, const QJsonObject &root)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(root).toJson());
}

QJsonObject sessionJson(const QJsonArray &runs)
{
    return QJsonObject{{"format", "gemmscope-session"}, {"version", 1}, {"runs", runs}};
}

} // namespace

class TestDamagedSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        initResources();
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    // Defect 1: `gemmscope --render-session` died of SIGFPE (exit 136) on these runs.
    void renderSessionSurvivesZeroTiles()
    {
        const QString file = m_dir.filePath(QStringLiteral("damaged.json"));
        writeJson(file, sessionJson(damagedRuns()));
        QString error;
        const QStringList written = renderSession(file, m_dir.filePath(QStringLiteral("render")), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(!written.isEmpty());
    }

    // Defect 1: opening such a file in the window took the GUI down; selecting each run must not.
    void windowKeepsDamagedRunsButModelsNone()
    {
        const QString file = m_dir.filePath(QStringLiteral("damaged.json"));
        writeJson(file, sessionJson(damagedRuns()));
        MainWindow window(MainWindow::Options{
            .startRunner = false, .restoreSettings = false, .autosavePath = {}, .autosave = false});
        window.resize(1400, 900);
        window.show();
        QString error;
        QVERIFY2(window.openSession(file, &error), qPrintable(error));
        QCOMPARE(window.session()->runs().size(), damagedRuns().size()); // kept, none lost
        for (const RunRecord &run : window.session()->runs()) {
            window.selection()->select(run.runId);
            QCoreApplication::processEvents();
            const bool good = run.runId == QLatin1String("good");
            QCOMPARE(catalogRefusal(run).isEmpty(), good);
            // Marked in the table: the row says why it is not modelled.
            const int row = window.session()->indexOf(run.runId);
            const QString tip = window.resultsModel()->index(row, 0).data(Qt::ToolTipRole).toString();
            if (!good)
                QVERIFY2(tip.contains(QStringLiteral("not modelled")), qPrintable(run.runId + ": " + tip));
        }
    }

    // Defect 2: import accepted a result without a positive median; load refused it, so every
    // later save and autosave of the session was refused too.
    void whateverImportAcceptsLoadAccepts_data()
    {
        QTest::addColumn<QJsonObject>("timing");
        QTest::newRow("median 0") << QJsonObject{{"median_ms", 0}, {"count", 5}};
        QTest::newRow("median missing") << QJsonObject{{"count", 5}};
        QTest::newRow("median negative") << QJsonObject{{"median_ms", -3}};
        QTest::newRow("median a string") << QJsonObject{{"median_ms", "1.5"}};
        QTest::newRow("no timing") << QJsonObject{};
    }
    void whateverImportAcceptsLoadAccepts()
    {
        QFETCH(QJsonObject, timing);
        QJsonObject result{{"event", "result"},
                           {"id", "b1"},
                           {"stage", "coalesced"},
                           {"params", QJsonObject{{"BM", 64}, {"BN", 64}, {"BK", 8}, {"TM", 4}, {"TN", 4}}},
                           {"size", QJsonObject{{"m", 256}, {"n", 256}, {"k", 256}}},
                           {"verify", QJsonObject{{"passed", true}}}};
        if (!timing.isEmpty())
            result.insert("timing", timing);
        const QJsonObject bench{{"format", "gemmscope-bench"},
                                {"version", 1},
                                {"rows", QJsonArray{QJsonObject{{"stage", "coalesced"}, {"event", result}}}}};
        const QString benchFile = m_dir.filePath(QStringLiteral("bench.json"));
        writeJson(benchFile, bench);
        Session session;
        QString error;
        QVERIFY2(session.importBench(benchFile, &error), qPrintable(error));
        QCOMPARE(session.runs().size(), 1);
        const RunRecord &run = session.runs().first();
        QCOMPARE(run.status, RunStatus::Failed); // no time: never plotted as one
        QCOMPARE(run.errorKind, QStringLiteral("protocol_error"));
        QVERIFY(run.errorMessage.contains(QStringLiteral("no positive median")));
        const QString saved = m_dir.filePath(QStringLiteral("imported.json"));
        QVERIFY2(session.saveAs(saved, &error), qPrintable(error));
        Session reopened;
        QVERIFY2(reopened.open(saved, &error), qPrintable(error));
        QCOMPARE(reopened.runs().size(), 1);
    }

    // Defect 12: version 1.5 or "1" was reported as "version -1".
    void refusalNamesTheVersionReceived_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QJsonValue>("version");
        QTest::addColumn<QString>("says");
        for (const QString &format :
             {QStringLiteral("gemmscope-session"), QStringLiteral("gemmscope-bench")}) {
            QTest::addRow("%s 1.5", qPrintable(format)) << format << QJsonValue(1.5) << "version 1.5;";
            QTest::addRow("%s \"1\"", qPrintable(format)) << format << QJsonValue("1") << "version \"1\";";
            QTest::addRow("%s missing", qPrintable(format))
                << format << QJsonValue(QJsonValue::Undefined) << "version missing;";
            QTest::addRow("%s null", qPrintable(format))
                << format << QJsonValue(QJsonValue::Null) << "version null;";
        }
    }
    void refusalNamesTheVersionReceived()
    {
        QFETCH(QString, format);
        QFETCH(QJsonValue, version);
        QFETCH(QString, says);
        QJsonObject root{{"format", format}, {"runs", QJsonArray{}}, {"rows", QJsonArray{}}};
        if (!version.isUndefined())
            root.insert("version", version);
        const QByteArray bytes = QJsonDocument(root).toJson();
        const SessionParse parsed =
            format == QLatin1String("gemmscope-session") ? parseSessionJson(bytes) : importBenchJson(bytes);
        QVERIFY(!parsed.data);
        QVERIFY2(parsed.error.contains(says), qPrintable(parsed.error));
        QVERIFY(!parsed.error.contains(QStringLiteral("-1")));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDamagedSession)
#include "tst_damaged_session.moc"
