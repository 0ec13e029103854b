// RichTextLabel: a word-wrapped rich-text label (the Counters workspace's tables) lays its text
// out once per width asked, and answers the heights QLabel would, also after its text or font
// changes.
#include "rich_text_label.h"

#include <QtTest>

using namespace gemmscope;

namespace {

// An HTML table of `rows` rows, as the access check and the against-cuBLAS view write them.
QString table(int rows, const QString &word = QStringLiteral("sectors"))
{
    QString html = QStringLiteral("<p>What the counters say against the model, row by row.</p><table>");
    for (int r = 0; r < rows; ++r)
        html += QStringLiteral("<tr><td>Global loads %1</td><td>4.0 %2 per request</td><td>agrees</td></tr>")
                    .arg(r)
                    .arg(word);
    return html + QStringLiteral("</table>");
}

// A plain QLabel of the same settings.
std::unique_ptr<QLabel> qlabel(const QString &text, const QFont &font = QFont())
{
    auto label = std::make_unique<QLabel>();
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setFont(font);
    label->setText(text);
    return label;
}

// The height a plain QLabel of the same settings lays the text out to.
int qlabelHeight(const QString &text, int width, const QFont &font = QFont())
{
    QLabel label;
    label.setTextFormat(Qt::RichText);
    label.setWordWrap(true);
    label.setFont(font);
    label.setText(text);
    return label.heightForWidth(width);
}

} // namespace

class TestRichTextLabel : public QObject {
    Q_OBJECT
private slots:
    void aWidthIsLaidOutOnce()
    {
        RichTextLabel label;
        label.setText(table(6));
        const int at400 = label.heightForWidth(400);
        const int at200 = label.heightForWidth(200);
        QCOMPARE(label.layoutsDone(), 2);
        for (int i = 0; i < 5; ++i) { // a box layout asks again and again
            QCOMPARE(label.heightForWidth(400), at400);
            QCOMPARE(label.heightForWidth(200), at200);
        }
        QCOMPARE(label.layoutsDone(), 2);
    }

    void heightsAreQLabels()
    {
        RichTextLabel label;
        label.setText(table(6));
        for (int width : {120, 300, 640})
            QCOMPARE(label.heightForWidth(width), qlabelHeight(table(6), width));
        QVERIFY(label.heightForWidth(120) > label.heightForWidth(640)); // it wraps: narrower is taller
    }

    void minimumSizeIsQLabels()
    {
        // Its width keeps a table whole (a narrower label would cut its columns); its height is
        // the one QLabel gives a layout for its least.
        for (const QString &text : {table(6), QStringLiteral("<p>One paragraph of words that wrap.</p>")}) {
            RichTextLabel label;
            label.setText(text);
            QCOMPARE(label.minimumSizeHint(), qlabel(text)->minimumSizeHint());
        }
    }

    void aNewTextIsMeasuredInAFewLayouts()
    {
        // What a box layout asks of a label with a new text: its two size hints and its height at
        // the widths it tries. QLabel laid the text out twice for each height and six to eight
        // times for the hints; a third of these is enough.
        RichTextLabel label;
        label.setText(table(8));
        for (int i = 0; i < 3; ++i) {
            QVERIFY(label.sizeHint().width() >= label.minimumSizeHint().width());
            QVERIFY(label.heightForWidth(480) > 0);
            QVERIFY(label.heightForWidth(640) > 0);
        }
        QVERIFY2(label.layoutsDone() <= 6, qPrintable(QString::number(label.layoutsDone())));
    }

    void theShownDocumentIsLeftToPainting()
    {
        // QLabel measured on the document it paints, laying it out at each width asked and back;
        // this label leaves that one to painting, at the label's own width.
        RichTextLabel label;
        label.setText(table(8));
        const QList<QTextDocument *> shown = label.findChildren<QTextDocument *>();
        QVERIFY(!shown.isEmpty()); // the label's own (selectable text: a text control holds it)
        int relaidOut = 0;
        for (QTextDocument *document : shown)
            connect(document->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
                    [&relaidOut] { ++relaidOut; });
        label.minimumSizeHint();
        label.sizeHint();
        label.heightForWidth(480);
        label.heightForWidth(640);
        QCOMPARE(relaidOut, 0);
    }

    void aNewTextIsLaidOutAgain()
    {
        RichTextLabel label;
        label.setText(table(2));
        const int two = label.heightForWidth(300);
        label.setText(table(12));
        const int twelve = label.heightForWidth(300);
        QCOMPARE(twelve, qlabelHeight(table(12), 300));
        QVERIFY(twelve > two);
        QCOMPARE(label.layoutsDone(), 2);
    }

    void aNewFontIsLaidOutAgain()
    {
        RichTextLabel label;
        label.setText(table(6));
        const int before = label.heightForWidth(300);
        QFont large = label.font();
        large.setPointSizeF(large.pointSizeF() * 2);
        label.setFont(large);
        const int after = label.heightForWidth(300);
        QCOMPARE(after, qlabelHeight(table(6), 300, large));
        QVERIFY(after > before);
    }
};

QTEST_MAIN(TestRichTextLabel)
#include "tst_rich_text_label.moc"
