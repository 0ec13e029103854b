// A heatmap cell's text fitted to its size (widgets/sweep_cell_text.h): the best run's other
// parameters on one line where the cell is wide enough, broken between words where it is
// narrower, left out where it is too small; the value and the marks always kept; no line wider
// than the cell.
#include "sweep_cell_text.h"

#include <QFontMetrics>
#include <QtTest>

using namespace gemmscope;

class TestSweepCellText : public QObject {
    Q_OBJECT
private slots:
    void fitsTheParametersToTheCell_data();
    void fitsTheParametersToTheCell();
    void nothingToNameIsNoLine();
};

namespace {

const SweepCellText kCell{QStringLiteral("★51.2"), QStringLiteral("BK=16 TM=8 TN=4"),
                          QStringLiteral("s reg")};

QFontMetrics metrics()
{
    return QFontMetrics(QFont(QStringLiteral("DejaVu Sans"), 8));
}

} // namespace

void TestSweepCellText::fitsTheParametersToTheCell_data()
{
    // The cell's size from the text's own measure, so that the cases hold for any font found.
    const QFontMetrics m = metrics();
    const int pad = 2 * kCellTextPadding + 1;
    const int wide = m.horizontalAdvance(kCell.params) + pad;
    const int word = std::max({m.horizontalAdvance(QStringLiteral("BK=16 TM=8")),
                               m.horizontalAdvance(kCell.value), m.horizontalAdvance(kCell.marks)}) +
                     pad;
    const int line = m.lineSpacing();
    QVERIFY2(word < wide, "a font in which the two first names are as wide as all three");
    QTest::addColumn<QSizeF>("cell");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("one line") << QSizeF(wide, 3 * line + pad)
                              << QStringList{kCell.value, kCell.params, kCell.marks};
    QTest::newRow("broken between words")
        << QSizeF(word, 4 * line + pad)
        << QStringList{kCell.value, QStringLiteral("BK=16 TM=8"), QStringLiteral("TN=4"), kCell.marks};
    QTest::newRow("too low for the names")
        << QSizeF(wide, 3 * line - 1) << QStringList{kCell.value, kCell.marks};
    QTest::newRow("too narrow for a name")
        << QSizeF(m.horizontalAdvance(QStringLiteral("BK=16")) + 2 * kCellTextPadding - 1, 10 * line)
        << QStringList{kCell.value, kCell.marks};
    QTest::newRow("not laid out yet") << QSizeF() << QStringList{kCell.value, kCell.marks};
}

void TestSweepCellText::fitsTheParametersToTheCell()
{
    QFETCH(QSizeF, cell);
    QFETCH(QStringList, lines);
    const FittedCellText fitted = fitCellText(kCell, metrics(), cell);
    QCOMPARE(fitted.text.split(QLatin1Char('\n')), lines);
    QCOMPARE(fitted.paramsShown, lines.size() > 2);
    if (fitted.paramsShown)
        for (const QString &l : lines)
            QVERIFY2(metrics().horizontalAdvance(l) <= cell.width() - 2 * kCellTextPadding, qPrintable(l));
}

void TestSweepCellText::nothingToNameIsNoLine()
{
    // A fixed sweep's cell, or one not run: the value (and its marks) alone, however large the cell.
    const FittedCellText fitted = fitCellText({QStringLiteral("12.5"), {}, {}}, metrics(), QSizeF(500, 500));
    QCOMPARE(fitted.text, QStringLiteral("12.5"));
    QVERIFY(!fitted.paramsShown);
    QCOMPARE(fitCellText({QString(), {}, QStringLiteral("✗")}, metrics(), QSizeF(500, 500)).text,
             QStringLiteral("\n✗"));
}

QTEST_MAIN(TestSweepCellText)
#include "tst_sweep_cell_text.moc"
