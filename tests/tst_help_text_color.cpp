// The window's quiet help text (help_text_color.h) reads at WCAG's 4.5:1 against what it is drawn
// on, in a light palette and a dark one: the colour checked is the one the labels actually paint
// with (their palette's colour for their foreground role), and a chart's hint's. A no-context
// review found the grey help text hard to read: PlaceholderText's half-transparent text colour
// (3.8:1 on Fusion's window grey) and Qt::gray on a chart (2.6:1 on white).
#include "help_text_color.h"
#include "parameter_panel.h"
#include "roofline_chart.h"
#include "session.h"
#include "support/controlled_sweep_views.h"

#include <QApplication>
#include <QLabel>
#include <QtTest>
#include <qcustomplot.h>

using namespace gemmscope;

Q_DECLARE_METATYPE(QPalette)

namespace {

// A dark theme as a platform might give it: light text, its placeholder that text at half opacity
// (Qt's default), or an opaque grey too dark for the dark window.
QPalette darkPalette(const QColor &placeholder)
{
    QPalette p;
    for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        p.setColor(group, QPalette::Window, QColor(0x2d, 0x2d, 0x2d));
        p.setColor(group, QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        p.setColor(group, QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        p.setColor(group, QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
        p.setColor(group, QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        p.setColor(group, QPalette::Button, QColor(0x35, 0x35, 0x35));
        p.setColor(group, QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        p.setColor(group, QPalette::PlaceholderText, placeholder);
    }
    return p;
}

// The colour a label paints its text with, on the colour it paints it on.
double labelContrast(const QLabel *label)
{
    const QPalette &p = label->palette();
    return contrastRatio(p.color(label->foregroundRole()), p.color(label->backgroundRole()));
}

// The window's help labels: the parameter panel's stage summary, the Sweep views' runner help.
QList<const QLabel *> helpLabels(const QWidget &panel, const QWidget &grid)
{
    return {panel.findChild<QLabel *>(QStringLiteral("stageSummary")),
            grid.findChild<QLabel *>(QStringLiteral("sweepRunnerPlaceholders"))};
}

} // namespace

class TestHelpTextColor : public QObject {
    Q_OBJECT
private slots:
    void init() { QApplication::setPalette(m_light); }
    void cleanupTestCase() { QApplication::setPalette(m_light); }

    void contrastRatioIsWcags_data()
    {
        QTest::addColumn<QColor>("a");
        QTest::addColumn<QColor>("b");
        QTest::addColumn<double>("ratio");
        QTest::newRow("black on white") << QColor(Qt::black) << QColor(Qt::white) << 21.0;
        QTest::newRow("the same") << QColor(0x77, 0x77, 0x77) << QColor(0x77, 0x77, 0x77) << 1.0;
        // WCAG's own examples of the threshold: #767676 is the lightest grey at 4.5:1 on white.
        QTest::newRow("#767676 on white") << QColor(0x76, 0x76, 0x76) << QColor(Qt::white) << 4.54;
        QTest::newRow("Qt::gray on white") << QColor(Qt::gray) << QColor(Qt::white) << 2.61;
    }
    void contrastRatioIsWcags()
    {
        QFETCH(QColor, a);
        QFETCH(QColor, b);
        QFETCH(double, ratio);
        QVERIFY2(std::abs(contrastRatio(a, b) - ratio) < 0.01,
                 qPrintable(QString::number(contrastRatio(a, b))));
        QCOMPARE(contrastRatio(a, b), contrastRatio(b, a));
    }

    void palettes_data()
    {
        QTest::addColumn<QPalette>("palette");
        QTest::newRow("light (this platform's)") << m_light;
        QTest::newRow("dark, placeholder at half opacity") << darkPalette(QColor(0xe6, 0xe6, 0xe6, 128));
        QTest::newRow("dark, placeholder too dark") << darkPalette(QColor(0x50, 0x50, 0x50));
    }

    // Readable on the window and on a list's base, and still quieter than the text.
    void helpTextColorReads_data() { palettes_data(); }
    void helpTextColorReads()
    {
        QFETCH(QPalette, palette);
        const QColor help = helpTextColor(palette);
        // The window, a group box's panel on it (Fusion's, #ececec on #efefef), a list's base.
        for (const QColor &background :
             {palette.color(QPalette::Window), palette.color(QPalette::Window).darker(105),
              palette.color(QPalette::Base)}) {
            QVERIFY2(contrastRatio(help, background) >= kReadableContrast,
                     qPrintable(QStringLiteral("%1 on %2: %3")
                                    .arg(help.name(), background.name())
                                    .arg(contrastRatio(help, background))));
            QVERIFY(contrastRatio(help, background) <=
                    contrastRatio(palette.color(QPalette::Text), background));
        }
        QVERIFY(help != palette.color(QPalette::Text)); // quiet: not the text's own colour
    }

    // The colour the labels paint with, in each palette, made under it.
    void helpLabelsRead_data() { palettes_data(); }
    void helpLabelsRead()
    {
        QFETCH(QPalette, palette);
        QApplication::setPalette(palette);
        Session session;
        session.setAutosavePath({});
        const ParameterPanel panel;
        const test::ControlledSweepView grid(&session);
        for (const QLabel *label : helpLabels(panel, grid)) {
            QVERIFY(label);
            QVERIFY2(
                labelContrast(label) >= kReadableContrast,
                qPrintable(QStringLiteral("%1: %2 on %3, %4:1")
                               .arg(label->objectName(),
                                    label->palette().color(label->foregroundRole()).name(QColor::HexArgb),
                                    label->palette().color(label->backgroundRole()).name())
                               .arg(labelContrast(label), 0, 'f', 2)));
        }
    }

    // Made in a light palette, the labels follow a switch to a dark one (and back).
    void helpLabelsFollowThePalette()
    {
        Session session;
        session.setAutosavePath({});
        const ParameterPanel panel;
        const test::ControlledSweepView grid(&session);
        for (const QPalette &palette : {darkPalette(QColor(0xe6, 0xe6, 0xe6, 128)), m_light}) {
            QApplication::setPalette(palette);
            QApplication::processEvents();
            for (const QLabel *label : helpLabels(panel, grid)) {
                QCOMPARE(label->palette().color(label->foregroundRole()), helpTextColor(palette));
                QVERIFY(labelContrast(label) >= kReadableContrast);
            }
        }
    }

    // A chart's hint, on the chart's white: the roofline without roofs says why.
    void chartHintsRead()
    {
        RooflineChart chart;
        chart.resize(800, 500);
        chart.setRuns({}); // no run, no measured ceilings: no GPU to draw roofs for
        QCustomPlot *plot = chart.findChild<QCustomPlot *>();
        QVERIFY(plot);
        int hints = 0;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (const auto *text = qobject_cast<QCPItemText *>(plot->item(i));
                text && text->text().startsWith(QStringLiteral("No roof"))) {
                ++hints;
                QVERIFY2(contrastRatio(text->color(), Qt::white) >= kReadableContrast,
                         qPrintable(text->color().name()));
            }
        QCOMPARE(hints, 1);
        QVERIFY(contrastRatio(chartHintColor(), Qt::white) >= kReadableContrast);
        QVERIFY(contrastRatio(chartHintColor(QColor(0x20, 0x20, 0x20)), QColor(0x20, 0x20, 0x20)) >=
                kReadableContrast);
    }

private:
    const QPalette m_light = QApplication::palette();
};

QTEST_MAIN(TestHelpTextColor)
#include "tst_help_text_color.moc"
