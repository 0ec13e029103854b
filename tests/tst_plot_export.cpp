// Exports must write real files of the format the extension names (checked by magic bytes),
// for plots and for plain widgets, and refuse bad targets with a sentence instead of failing silently.
#include "chart_layout.h"
#include "file_write.h"
#include "plot_export.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>
#include <sys/stat.h>

using namespace gemmscope;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A plot with something on it, so an empty-looking file cannot pass.
void fillPlot(QCustomPlot &plot)
{
    QCPGraph *graph = plot.addGraph();
    graph->setData({1, 2, 3, 4}, {1, 4, 9, 16});
    plot.xAxis->setLabel(QStringLiteral("x"));
    plot.rescaleAxes();
    plot.resize(640, 400);
    plot.replot();
}

} // namespace

class TstPlotExport : public QObject {
    Q_OBJECT

private slots:
    void formatFromExtension_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("format"); // -1: none
        QTest::newRow("png") << "a/b/chart.png" << int(ExportFormat::Png);
        QTest::newRow("upper-case PDF") << "chart.PDF" << int(ExportFormat::Pdf);
        QTest::newRow("svg") << "chart.svg" << int(ExportFormat::Svg);
        QTest::newRow("jpeg refused") << "chart.jpg" << -1;
        QTest::newRow("no extension") << "chart" << -1;
    }
    void formatFromExtension()
    {
        QFETCH(QString, path);
        QFETCH(int, format);
        const auto f = exportFormatForPath(path);
        QCOMPARE(f ? int(*f) : -1, format);
    }

    void writesEachFormat_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<QByteArray>("magic");
        QTest::addColumn<bool>("plot"); // QCustomPlot, or a plain widget
        QTest::newRow("plot png") << "png" << QByteArray("\x89PNG") << true;
        QTest::newRow("plot pdf") << "pdf" << QByteArray("%PDF") << true;
        QTest::newRow("plot svg") << "svg" << QByteArray("<svg") << true;
        QTest::newRow("widget png") << "png" << QByteArray("\x89PNG") << false;
        QTest::newRow("widget pdf") << "pdf" << QByteArray("%PDF") << false;
        QTest::newRow("widget svg") << "svg" << QByteArray("<svg") << false;
    }
    void writesEachFormat()
    {
        QFETCH(QString, suffix);
        QFETCH(QByteArray, magic);
        QFETCH(bool, plot);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("out.") + suffix);

        QCustomPlot customPlot;
        QLabel label(QStringLiteral("thread (3, 5) owns C[3][5]"));
        std::optional<QString> error;
        if (plot) {
            fillPlot(customPlot);
            error = exportPlot(&customPlot, path);
        } else {
            label.resize(300, 120);
            error = exportWidget(&label, path);
        }
        QVERIFY2(!error, qPrintable(error.value_or(QString())));
        const QByteArray bytes = readAll(path);
        QVERIFY2(bytes.size() > 200, qPrintable(QStringLiteral("only %1 bytes").arg(bytes.size())));
        if (suffix == QLatin1String("svg"))
            QVERIFY(bytes.left(512).contains(magic)); // after the XML declaration
        else
            QVERIFY(bytes.startsWith(magic));
    }

    void pngIsRenderedAtTwiceTheSize()
    {
        QTemporaryDir dir;
        QCustomPlot plot;
        fillPlot(plot);
        const QString path = dir.filePath(QStringLiteral("hi.png"));
        QVERIFY(!exportPlot(&plot, path));
        const QImage image(path);
        QCOMPARE(image.size(), plot.size() * 2);
    }

    // An SVG's texts are as large against its shapes as the view's: the plot lays its texts out at
    // the screen's 96 dpi, and the generator's own 72 drew a 9 pt label 9 px high where the plot had
    // made room for 12 (a list's lines drifted off the swatches and leaders drawn beside them).
    void svgTextsKeepTheViewsSize()
    {
        QTemporaryDir dir;
        QCustomPlot plot;
        fillPlot(plot);
        plot.xAxis->setLabelFont(QFont(QApplication::font().family(), 9));
        plot.xAxis->setLabel(QStringLiteral("intensity"));
        plot.replot();
        const QString path = dir.filePath(QStringLiteral("sized.svg"));
        QVERIFY(!exportPlot(&plot, path));
        const QString svg = QString::fromUtf8(readAll(path));
        const QRegularExpressionMatch label =
            QRegularExpression(QStringLiteral("font-size=\"([0-9.]+)\"[^<]*<text[^>]*>intensity<"))
                .match(svg);
        QVERIFY2(label.hasMatch(), qPrintable(svg.left(400)));
        QCOMPARE(label.captured(1).toDouble(), 12.0); // 9 pt at 96 dpi
    }

    // "__restrict__" lost its underscores in PNG exports. QCustomPlot clips a legend
    // entry to its own rect, exactly the text's height; at the PNG's 2x the underscores, drawn at
    // the bottom of that height, fell outside it. The rows under the entry's baseline must hold ink.
    void pngKeepsUnderscores_data()
    {
        QTest::addColumn<bool>("beside");
        QTest::newRow("legend below") << false;
        QTest::newRow("legend beside") << true;
    }
    void pngKeepsUnderscores()
    {
        QFETCH(bool, beside);
        QCustomPlot plot;
        fillPlot(plot);
        plot.graph(0)->setName(QStringLiteral("__restrict__"));
        plot.addGraph()->setName(QStringLiteral("next row"));
        plot.plotLayout()->insertRow(0); // the charts' title row, which fitTitleAndLegend fills
        plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, QString()));
        if (beside)
            placeLegendBeside(&plot, plot.font());
        else
            placeLegendBelow(&plot);
        fitTitleAndLegend(&plot, QString(), true);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("underscores.png"));
        QVERIFY(!exportPlot(&plot, path, plot.size()));
        QImage image(path);
        QVERIFY(!image.isNull());
        // The entry's text, at the export's scale: ink in the rows below its baseline.
        QCPAbstractLegendItem *item = plot.legend->item(0);
        const QFontMetrics metrics(plot.legend->font());
        const double scale = double(image.width()) / plot.width();
        const int left = int((item->rect().left() + plot.legend->iconSize().width()) * scale);
        const int right = int(item->rect().right() * scale);
        const int baseline = int((item->rect().top() + metrics.ascent()) * scale);
        const int bottom = int((item->rect().top() + metrics.height() + 2) * scale);
        int ink = 0;
        for (int y = baseline + 1; y <= bottom && y < image.height(); ++y)
            for (int x = left; x <= right; ++x)
                ink += qGray(image.pixel(x, y)) < 128;
        QVERIFY2(ink >= 10, qPrintable(QStringLiteral("%1 dark pixels under the baseline").arg(ink)));
    }

    void refusesUnknownExtension_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("txt") << "chart.txt"
                             << "\".txt\" is not a supported format";
        QTest::newRow("none") << "chart"
                              << "needs an extension";
    }
    void refusesUnknownExtension()
    {
        QFETCH(QString, name);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QCustomPlot plot;
        const QString path = dir.filePath(name);
        const auto error = exportPlot(&plot, path);
        QVERIFY(error);
        QVERIFY2(error->contains(expected), qPrintable(*error));
        QVERIFY(!QFile::exists(path));
    }

    void refusesMissingFolder()
    {
        QTemporaryDir dir;
        QCustomPlot plot;
        const QString path = dir.filePath(QStringLiteral("no/such/folder/chart.png"));
        const auto error = exportPlot(&plot, path);
        QVERIFY(error);
        QVERIFY2(error->contains(QStringLiteral("does not exist")), qPrintable(*error));
    }

    void refusesUnwritableTarget()
    {
        // A directory in the file's place cannot be opened for writing, even as root (where
        // permission bits would not stop anything).
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("taken.svg")));
        QLabel label(QStringLiteral("x"));
        const auto error = exportWidget(&label, dir.filePath(QStringLiteral("taken.svg")));
        QVERIFY(error);
        QVERIFY2(error->startsWith(QStringLiteral("Cannot export to")), qPrintable(*error));
        QVERIFY(QFileInfo(dir.filePath(QStringLiteral("taken.svg"))).isDir());
    }

    // An export replaces the file whole or leaves it as it was; a full disk (injected
    // here; tst_file_write mounts a real one) keeps the old picture byte-identical.
    void fullDiskKeepsTheOldPicture_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("png") << "chart.png";
        QTest::newRow("pdf") << "chart.pdf";
        QTest::newRow("svg") << "chart.svg";
    }
    void fullDiskKeepsTheOldPicture()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        const QByteArray old("an earlier export");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(old);
        }
        QCustomPlot plot;
        gemmscope::simulateFullDiskAfter(16);
        const auto error = exportPlot(&plot, path);
        gemmscope::simulateFullDiskAfter(-1);
        QVERIFY(error);
        QVERIFY2(error->contains(QStringLiteral("the disk is full")), qPrintable(*error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), old);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary left
    }

    void aPipeIsRefusedAndKept()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("chart.png"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        QLabel label(QStringLiteral("x"));
        const auto error = exportWidget(&label, path); // returns at once: never blocks on the pipe
        QVERIFY(error);
        QVERIFY2(error->contains(QStringLiteral("not a regular file")), qPrintable(*error));
        QVERIFY(QFileInfo(path).exists() && !QFileInfo(path).isFile());
    }
};

QTEST_MAIN(TstPlotExport)
#include "tst_plot_export.moc"
