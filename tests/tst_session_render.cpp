// `gemmscope --render-session`'s pages, read back from the files: every bar of a 23-run ladder
// labelled, the runtime chart's SVG clipped at the plot as the PNG is, and the Kernel pages of a
// session without counters titled by the kernel they draw (the last run, cuBLAS, has no diagram:
// its title once stood over another kernel's greyed picture), with the pages that have nothing to
// show left out and said why.
#include "session_render.h"
#include "support/file_bytes.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;
using gemmscope::test::readAll;
using gemmscope::test::writeAll;

namespace {

const QString kLadder = QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/recorded/h200-full-ladder-4096.json");

// The text elements of an SVG, as drawn (entities decoded).
QStringList svgTexts(const QString &path)
{
    QStringList texts;
    static const QRegularExpression text(QStringLiteral("<text[^>]*>([^<]*)</text>"));
    const QString svg = QString::fromUtf8(readAll(path));
    for (auto it = text.globalMatch(svg); it.hasNext();) {
        QString t = it.next().captured(1).trimmed();
        t.replace(QLatin1String("&amp;"), QLatin1String("&"))
            .replace(QLatin1String("&lt;"), QLatin1String("<"))
            .replace(QLatin1String("&gt;"), QLatin1String(">"));
        texts << t;
    }
    return texts;
}

QString svgTitle(const QString &path)
{
    static const QRegularExpression title(QStringLiteral("<title>([^<]*)</title>"));
    return title.match(QString::fromUtf8(readAll(path))).captured(1);
}

// Pixels of a strong colour (a bar, never the black text or grey grid) in `area`.
int colouredPixels(const QImage &image, const QRect &area)
{
    int count = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            count += c.hsvSaturation() > 100 && c.value() > 80;
        }
    return count;
}

QImage rasterSvg(const QString &path, QSize size)
{
    QSvgRenderer renderer(path);
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    return image;
}

QJsonObject ladderSession()
{
    return QJsonDocument::fromJson(readAll(kLadder)).object();
}

} // namespace

class TestSessionRender : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void everyBarOfTheLadderIsLabelled()
    {
        const QString out = m_dir.filePath(QStringLiteral("ladder"));
        QString error;
        QStringList skipped;
        const QStringList written = renderSession(kLadder, out, &error, &skipped);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(skipped.isEmpty(), qPrintable(skipped.join('\n'))); // counters and a kernel: every page
        for (const char *page :
             {"runtime", "roofline", "mapping", "coalescing", "bank", "counters", "speedup"})
            QVERIFY2(written.contains(QDir(out).filePath(QLatin1String(page) + ".png")), page);
        const QJsonArray runs = ladderSession().value(QStringLiteral("runs")).toArray();
        QCOMPARE(runs.size(), 23);
        const QStringList texts = svgTexts(QDir(out).filePath(QStringLiteral("runtime.svg")));
        static const QRegularExpression value(QStringLiteral("^\\d[\\d.,]* ms$"));
        QCOMPARE(texts.filter(value).size(), runs.size()); // a value at every bar
        // A name at every bar: a preset's label ("+tma — Tensor cores: ...") or a cuBLAS baseline's.
        int named = 0;
        for (const QString &t : texts)
            named += (t.contains(QStringLiteral(" — ")) || t.startsWith(QLatin1String("cuBLAS FP32 (")) ||
                      t.startsWith(QLatin1String("cuBLAS TF32 ("))) &&
                     !value.match(t).hasMatch();
        QCOMPARE(named, runs.size());
    }

    void theRuntimeSvgClipsAsThePngDoes()
    {
        const QString out = m_dir.filePath(QStringLiteral("ladder"));
        if (!QFile::exists(QDir(out).filePath(QStringLiteral("runtime.svg"))))
            QSKIP("everyBarOfTheLadderIsLabelled renders the pages");
        const QImage png = QImage(QDir(out).filePath(QStringLiteral("runtime.png")))
                               .scaled(1200, 800, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        const QImage svg = rasterSvg(QDir(out).filePath(QStringLiteral("runtime.svg")), QSize(1200, 800));
        // The stage names' column, left of the plot: black text only, in both (the log-scale bars
        // start at the axis; unclipped, the SVG drew them from the page's edge over the names).
        const QRect names(0, 40, 240, 700);
        QCOMPARE(colouredPixels(png, names), 0);
        QCOMPARE(colouredPixels(svg, names), 0);
        // Yet the bars are there, right of it.
        QVERIFY(colouredPixels(svg, QRect(400, 40, 300, 700)) > 1000);
    }

    void kernelPagesOfASessionWithoutCountersNameWhatTheyDraw()
    {
        // The ladder as a user's 23 runs at another size, read without counters: the last run is
        // cuBLAS TF32, which the access model does not draw.
        QJsonObject session = ladderSession();
        QJsonArray runs;
        for (const QJsonValue &v : session.value(QStringLiteral("runs")).toArray()) {
            QJsonObject run = v.toObject();
            QJsonObject raw = run.value(QStringLiteral("raw")).toObject();
            raw.remove(QStringLiteral("counters"));
            run.insert(QStringLiteral("raw"), raw);
            run.insert(QStringLiteral("size"), QJsonObject{{"m", 8192}, {"n", 4096}, {"k", 6144}});
            runs.append(run);
        }
        session.insert(QStringLiteral("runs"), runs);
        const QString file = m_dir.filePath(QStringLiteral("no-counters.json"));
        QVERIFY(writeAll(file, QJsonDocument(session).toJson()));

        const QString out = m_dir.filePath(QStringLiteral("no-counters"));
        QString error;
        QStringList skipped;
        const QStringList written = renderSession(file, out, &error, &skipped);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // No run has counters: no counters page, and a sentence saying so.
        QVERIFY(!QFile::exists(QDir(out).filePath(QStringLiteral("counters.png"))));
        QCOMPARE(skipped.size(), 1);
        QVERIFY2(skipped.first().startsWith(QLatin1String("counters not written: ")),
                 qPrintable(skipped.first()));
        QVERIFY2(skipped.first().contains(QLatin1String("counters")), qPrintable(skipped.first()));
        // The Kernel pages draw one kernel, and their titles name it (never cuBLAS).
        const QString mapping = svgTitle(QDir(out).filePath(QStringLiteral("mapping.svg")));
        QVERIFY2(mapping.startsWith(QLatin1String("Tile map: ")), qPrintable(mapping));
        const QString kernel = mapping.mid(QStringLiteral("Tile map: ").size());
        QVERIFY(!kernel.isEmpty());
        QVERIFY2(!kernel.contains(QLatin1String("cuBLAS")), qPrintable(kernel));
        for (const char *page : {"coalescing", "bank"}) {
            const QString title = svgTitle(QDir(out).filePath(QLatin1String(page) + ".svg"));
            QVERIFY2(title.contains(kernel), qPrintable(title + " / " + kernel));
            // Drawn live, not greyed as the Kernel tab is for a kernel it cannot draw.
            const QImage png(QDir(out).filePath(QLatin1String(page) + ".png"));
            QVERIFY(!png.isNull());
            const QColor corner = png.pixelColor(png.width() - 4, png.height() - 4);
            QCOMPARE(corner, QColor(Qt::white));
        }
        QVERIFY(written.contains(QDir(out).filePath(QStringLiteral("runtime.svg"))));
    }

    void aSessionOfLibraryKernelsWritesNoKernelPages()
    {
        QJsonObject session = ladderSession();
        QJsonArray runs;
        for (const QJsonValue &v : session.value(QStringLiteral("runs")).toArray())
            if (v.toObject().value(QStringLiteral("stage")).toString().startsWith(QLatin1String("cublas")))
                runs.append(v);
        QCOMPARE(runs.size(), 2);
        session.insert(QStringLiteral("runs"), runs);
        const QString file = m_dir.filePath(QStringLiteral("cublas.json"));
        QVERIFY(writeAll(file, QJsonDocument(session).toJson()));
        const QString out = m_dir.filePath(QStringLiteral("cublas"));
        QString error;
        QStringList skipped;
        renderSession(file, out, &error, &skipped);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        for (const char *page : {"mapping", "coalescing", "bank"}) {
            QVERIFY2(!QFile::exists(QDir(out).filePath(QLatin1String(page) + ".png")), page);
            QVERIFY2(
                !skipped.filter(QRegularExpression(QLatin1String("^") + page + " not written: .*library"))
                     .isEmpty(),
                qPrintable(skipped.join('\n')));
        }
        QVERIFY(QFile::exists(QDir(out).filePath(QStringLiteral("runtime.png"))));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestSessionRender)
#include "tst_session_render.moc"
