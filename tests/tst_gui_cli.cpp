// The GUI binary's headless modes, run as a user runs them. `--measure-ui-stall --preload` once
// waited forever: the runner's status arrived while the big session still loaded, before the
// measurement listened for it (on the H200 and here). With a runner that cannot start,
// the command must now end with the runner's sentence, however long the session takes to open.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestGuiCli : public QObject {
    Q_OBJECT
private slots:
    void stallMeasurementWithAPreloadEndsWhenRunningIsOff()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // 3,000 runs: opening them takes far longer than a missing runner takes to say so.
        QFile source(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject session = QJsonDocument::fromJson(source.readAll()).object();
        const QJsonArray runs = session.value(QStringLiteral("runs")).toArray();
        QVERIFY(!runs.isEmpty());
        QJsonArray many;
        for (int i = 0; i < 3000; ++i) {
            QJsonObject run = runs.at(i % runs.size()).toObject();
            run.insert(QStringLiteral("run_id"), QStringLiteral("big%1").arg(i));
            many.append(run);
        }
        session.insert(QStringLiteral("runs"), many);
        const QString preload = dir.filePath(QStringLiteral("big.json"));
        QFile out(preload);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(session).toJson(QJsonDocument::Compact));
        out.close();

        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GEMMSCOPE_RUNNER"), dir.filePath(QStringLiteral("no-such-runner")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), dir.path()); // no settings of the user's
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(GEMMSCOPE_GUI),
                  {QStringLiteral("--measure-ui-stall"), QStringLiteral("--preload"), preload,
                   QStringLiteral("--size"), QStringLiteral("64")});
        QVERIFY(gui.waitForStarted(10000));
        const bool ended = gui.waitForFinished(90000);
        if (!ended)
            gui.kill();
        QVERIFY2(ended, "gemmscope --measure-ui-stall --preload did not end without a runner");
        QCOMPARE(gui.exitCode(), 1);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("running is off")), qPrintable(err));
    }

    // --import-bench given a session names it and says how to open it; given a damaged bench, why.
    void importBenchGivenASessionSaysToOpenIt()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString session =
            QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json");
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(GEMMSCOPE_GUI),
                  {QStringLiteral("--import-bench"), session, QStringLiteral("--save"),
                   dir.filePath(QStringLiteral("out.json"))});
        QVERIFY(gui.waitForFinished(60000));
        QCOMPARE(gui.exitCode(), 1);
        const QString err = QString::fromUtf8(gui.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("is a GemmScope session; open it directly: gemmscope ")),
                 qPrintable(err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("out.json"))));
    }
};

QTEST_APPLESS_MAIN(TestGuiCli)
#include "tst_gui_cli.moc"
