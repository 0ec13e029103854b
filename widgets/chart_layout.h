// Layout helpers shared by the QCustomPlot charts: the legend in its own row under the plot (so
// it never covers data and is there at every width), titles that wrap instead of eliding, 1-2-5
// log ticks, and the geometry of placed labels (the roofline's placement: roofline_label_placer.h).
#pragma once

#include <QLineF>
#include <QList>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <Qt>
#include <functional>
#include <qcustomplot.h>

namespace gemmscope {

// Log axis ticks at 1, 2 and 5 of each decade (every decade only where the axis spans many), so
// a band such as 100-250 ms always carries a label; minor ticks at 1..9 of each decade.
class LogTicker125 : public QCPAxisTickerLog {
public:
    explicit LogTicker125(QCPAxis *axis = nullptr) : m_axis(axis) {}

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double> &ticks) override;
    int getSubTickCount(double) override { return 8; }

private:
    QPointer<QCPAxis> m_axis; // its length decides between 1-2-5 and one label per decade
};
void useLogTicks125(QCPAxis *axis);

// Moves the legend out of the axis rect into a row below it (compact font, wraps into columns).
void placeLegendBelow(QCustomPlot *plot);

// Moves the legend out of the axis rect into a column on its right, at the top, one entry a row,
// at the widget's (the application's) font: the plot keeps its height whatever the entry count.
void placeLegendBeside(QCustomPlot *plot, const QFont &font);
bool legendIsBeside(const QCustomPlot *plot);

// A legend entry drawn by a function rather than by a plottable: a group of stages (its colours
// side by side), a hatch, a marker. Its text may hold line breaks.
class KeyLegendItem : public QCPAbstractLegendItem {
    Q_OBJECT
public:
    using IconPainter = std::function<void(QCPPainter *, const QRectF &)>;
    KeyLegendItem(QCPLegend *legend, const QString &text, IconPainter icon);
    QString text() const { return m_text; }
    // The icon's height at least this (px), for a marker taller than the legend's icons (the
    // current settings' 13 px circle in a legend of 9 px icons): its row grows, the icon is whole.
    void setMinimumIconHeight(int height) { m_minimumIconHeight = height; }
    // Where the icon is drawn (and clipped to), in the plot's pixels, after a layout.
    QRect iconRect() const;

protected:
    void draw(QCPPainter *painter) override;
    QSize minimumOuterSizeHint() const override;

private:
    QSize iconSize() const;
    QString m_text;
    IconPainter m_icon;
    int m_minimumIconHeight = 0;
};
// Adds a KeyLegendItem to the plot's legend; returns it.
KeyLegendItem *addKeyItem(QCustomPlot *plot, const QString &text, KeyLegendItem::IconPainter icon);
// Adds an entry for a marker as the plot draws it: its icon tall enough for the whole marker.
KeyLegendItem *addMarkerKey(QCustomPlot *plot, const QString &text, const QCPScatterStyle &style);
// Icons: colours as stripes side by side (a group of stages), optionally hatched.
KeyLegendItem::IconPainter stripesIcon(const QList<QColor> &colors, Qt::BrushStyle style = Qt::SolidPattern);
// The text of a legend entry of either kind (a plottable's name or a KeyLegendItem's text).
QString legendItemText(QCPAbstractLegendItem *item);
// The most columns a legend of entries `widths` wide (in order, filled column by column) can have
// within `available` pixels, each column as wide as its widest entry; at least 1.
int legendColumnsThatFit(const QList<int> &widths, int available, int columnSpacing);

// Fits a chart to its width: the full title, on two lines where one is too narrow (split at the
// last ", " or ": " that fits), never elided while two lines hold it; the legend's columns.
// `printing` keeps everything regardless of width.
void fitTitleAndLegend(QCustomPlot *plot, const QString &fullTitle, bool legendWanted);

// The bottom axis's title, kept whole: fitTitleAndLegend shows it on one line where the axis is wide
// enough, else broken before its parenthesis. QCustomPlot centres an axis title on its axis and lets
// a wider one run off the widget (the roofline beside its legend read "nmetic intensity (FLOP/byte
// of DRAM, L2 ...", H200 window at 1600x1000).
void setBottomAxisTitle(QCustomPlot *plot, const QString &fullTitle);
QString fittedAxisTitle(const QString &fullTitle, const QFont &font, int axisWidth);

// The title text shown, with its line breaks as spaces (equal to the full title unless elided).
QString shownTitle(QCustomPlot *plot);

// Whether a line segment passes through (or ends inside) a rect.
bool segmentCrossesRect(const QLineF &segment, const QRectF &rect);

// The pixel rect a QCPItemText occupies at its current position (after a replot).
QRectF labelRect(QCPItemText *item);
// Its glyphs: the rect less its padding across, the ink of its text up and down (a line's box is
// ~13 px high at 8 pt, its digits ~8 px: neighbours 11 px apart overlap by their boxes only).
QRectF labelGlyphRect(QCPItemText *item);

} // namespace gemmscope
