// The widgets/ layer paints and commands; it never starts a runner, opens a sweep journal or runs a
// sweep: no file in widgets/ includes app/core's runner-launching or orchestrating
// units. The Sweep views reach sweeps only through SweepControl (app/core/sweep_control.h), which
// the window's SweepController implements.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

class TestWidgetIncludes : public QObject {
    Q_OBJECT
private slots:
    void widgetsIncludeNoRunnerUnit()
    {
        const QStringList forbidden{
            QStringLiteral("runner_client.h"),    QStringLiteral("runner_command.h"),
            QStringLiteral("runner_locator.h"),   QStringLiteral("runner_transport.h"),
            QStringLiteral("run_controller.h"),   QStringLiteral("sweep_run.h"),
            QStringLiteral("sweep_controller.h"), QStringLiteral("sweep_journals.h")};
        const QString widgets = QStringLiteral(GEMMSCOPE_SOURCE_DIR "/widgets");
        QVERIFY2(QDir(widgets).exists(), qPrintable(widgets));
        const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*[\"<]([^\">]+)[\">]"),
                                         QRegularExpression::MultilineOption);
        QStringList found;
        int files = 0;
        QDirIterator it(widgets, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            ++files;
            const QString text = QString::fromUtf8(f.readAll());
            for (auto m = include.globalMatch(text); m.hasNext();) {
                const QString header = m.next().captured(1).section(QLatin1Char('/'), -1);
                if (forbidden.contains(header))
                    found
                        << QStringLiteral("%1 includes %2").arg(QDir(widgets).relativeFilePath(path), header);
            }
        }
        QVERIFY(files > 20);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestWidgetIncludes)
#include "tst_widget_includes.moc"
