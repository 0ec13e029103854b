#include "chart_layout.h"

#include "flow_legend.h"
#include "text_box.h"

#include <QHash>

#include <cmath>

namespace gemmscope {

QVector<double> LogTicker125::createTickVector(double, const QCPRange &range)
{
    QVector<double> ticks;
    if (range.lower <= 0 || range.upper <= range.lower)
        return ticks;
    const int first = int(std::floor(std::log10(range.lower)));
    const int last = int(std::ceil(std::log10(range.upper)));
    const int decades = last - first;
    // 1-2-5 where a decade has room for three labels (120 px across, 60 up); each decade, then every other,
    // beyond.
    const double span = std::log10(range.upper / range.lower);
    const double pixels = m_axis && m_axis->axisRect()
                              ? double(m_axis->orientation() == Qt::Horizontal ? m_axis->axisRect()->width()
                                                                               : m_axis->axisRect()->height())
                              : 400.0;
    const double perDecade = pixels / std::max(span, 0.1);
    const bool room = perDecade >= (m_axis && m_axis->orientation() == Qt::Vertical ? 60 : 120);
    const QList<double> mantissas = room ? QList<double>{1, 2, 5} : QList<double>{1};
    const int stride = decades <= 8 ? 1 : 2;
    for (int d = first; d <= last; ++d) {
        if ((d - first) % stride != 0)
            continue;
        for (double m : mantissas) {
            const double v = m * std::pow(10.0, d);
            if (v >= range.lower * 0.999 && v <= range.upper * 1.001)
                ticks << v;
        }
    }
    // Nothing to name on an axis shorter than a 1-2-5 step: its two ends.
    if (ticks.size() < 2)
        return {range.lower, range.upper};
    // Where the axis runs on well past its last label (a runtime axis to 40 ms after "20"), a round
    // value near its end is named too: an unlabelled stretch reads as if the scale stopped there.
    const double minGapPx = m_axis && m_axis->orientation() == Qt::Vertical ? 28 : 48;
    const auto pixelsBetween = [&](double a, double b) { return std::abs(std::log10(b / a)) * perDecade; };
    if (pixelsBetween(ticks.last(), range.upper) >= minGapPx) {
        const double decade = std::pow(10.0, std::floor(std::log10(range.upper)));
        for (double m : {9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.5, 2.0, 1.5, 1.0}) {
            const double v = m * decade;
            if (v <= range.upper * 1.001 && v > ticks.last() && pixelsBetween(ticks.last(), v) >= minGapPx) {
                ticks << v;
                break;
            }
        }
    }
    return ticks;
}

QVector<double> LogTicker125::createSubTickVector(int, const QVector<double> &ticks)
{
    QVector<double> subTicks;
    if (ticks.size() < 2)
        return subTicks;
    const double lo = ticks.first(), hi = ticks.last();
    for (int d = int(std::floor(std::log10(lo))); d <= int(std::ceil(std::log10(hi))); ++d)
        for (int m = 1; m <= 9; ++m) {
            const double v = m * std::pow(10.0, d);
            if (v > lo && v < hi && !ticks.contains(v))
                subTicks << v;
        }
    return subTicks;
}

void useLogTicks125(QCPAxis *axis)
{
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<LogTicker125>::create(axis));
    axis->setNumberFormat(QStringLiteral("g")); // 0.1, 0.2, 0.5, 1, 2, 5, 10: no 10^n notation
    axis->setNumberPrecision(6);
}

void placeLegendBelow(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    legend->setVisible(true);
    QFont font = legend->font();
    font.setPointSize(7);
    legend->setFont(font);
    legend->setIconSize(14, 9);
    legend->setRowSpacing(-3);
    legend->setColumnSpacing(10);
    legend->setMargins(QMargins(4, 1, 4, 1));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    if (QCPLayoutInset *inset = plot->axisRect()->insetLayout(); inset->elements(false).contains(legend))
        inset->take(legend);
    plot->axisRect()->insetLayout()->simplify();
    QCPLayoutGrid *grid = plot->plotLayout();
    const int row = grid->rowCount();
    grid->addElement(row, 0, legend);
    grid->setRowStretchFactor(row, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
}

namespace {

// The legend gives every entry room below its text: QCustomPlot clips an entry to its own rect, and
// a rect exactly the text's height cuts the rows under the baseline (the underscores of
// `__restrict__`) once the picture is scaled for a PNG export.
constexpr int kLegendItemBottomRoom = 3;

void takeLegendOut(QCustomPlot *plot)
{
    QCPLegend *legend = plot->legend;
    if (QCPLayoutInset *inset = plot->axisRect()->insetLayout(); inset->elements(false).contains(legend))
        inset->take(legend);
    plot->axisRect()->insetLayout()->simplify();
    if (auto *grid = qobject_cast<QCPLayoutGrid *>(legend->layout())) {
        grid->take(legend);
        grid->simplify();
    }
}

} // namespace

void placeLegendBeside(QCustomPlot *plot, const QFont &font)
{
    QCPLegend *legend = plot->legend;
    legend->setVisible(true);
    legend->setFont(font);
    legend->setIconSize(18, 11);
    legend->setRowSpacing(2);
    legend->setColumnSpacing(10);
    legend->setMargins(QMargins(6, 2, 10, 2));
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    takeLegendOut(plot);
    // [axis rect | column], the column holding the legend on top of an empty stretch, so the legend
    // keeps its own height and the axis rect every pixel of the row.
    QCPLayoutGrid *grid = plot->plotLayout();
    QCPAxisRect *rect = plot->axisRect();
    int row = 0;
    for (; row < grid->rowCount(); ++row)
        if (grid->element(row, 0) == rect)
            break;
    grid->take(rect);
    auto *side = new QCPLayoutGrid;
    grid->addElement(row, 0, side);
    side->addElement(0, 0, rect);
    auto *column = new QCPLayoutGrid;
    side->addElement(0, 1, column);
    side->setColumnStretchFactor(1, 0.001);
    side->setColumnSpacing(0);
    column->addElement(0, 0, legend);
    column->addElement(1, 0, new QCPLayoutElement(plot));
    column->setRowStretchFactor(0, 0.001);
    column->setRowSpacing(0);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
    legend->setWrap(0);
    legend->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    legend->setProperty("gemmscopeBeside", true);
}

bool legendIsBeside(const QCustomPlot *plot)
{
    return plot->legend->property("gemmscopeBeside").toBool();
}

KeyLegendItem::KeyLegendItem(QCPLegend *legend, const QString &text, IconPainter icon)
    : QCPAbstractLegendItem(legend), m_text(text), m_icon(std::move(icon))
{
}

QSize KeyLegendItem::iconSize() const
{
    const QSize legendIcon = mParentLegend->iconSize();
    return {legendIcon.width(), std::max(legendIcon.height(), m_minimumIconHeight)};
}

QRect KeyLegendItem::iconRect() const
{
    const QFontMetrics metrics(mFont);
    const QSize icon = iconSize();
    return {mRect.topLeft() + QPoint(0, std::max(0, (metrics.height() - icon.height()) / 2)), icon};
}

void KeyLegendItem::draw(QCPPainter *painter)
{
    painter->setFont(mFont);
    painter->setPen(QPen(mTextColor));
    const QSize icon = iconSize();
    const QFontMetrics metrics(mFont);
    const QRect textRect = metrics.boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, m_text);
    // A text lower than its icon sits level with the icon's middle.
    const int textTop = mRect.y() + std::max(0, (icon.height() - textRect.height()) / 2);
    painter->drawText(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), textTop, textRect.width(),
                      std::max(textRect.height(), icon.height()), Qt::TextDontClip, m_text);
    const QRect iconArea = iconRect();
    painter->save();
    painter->setClipRect(iconArea);
    if (m_icon)
        m_icon(painter, QRectF(iconArea));
    painter->restore();
}

QSize KeyLegendItem::minimumOuterSizeHint() const
{
    const QFontMetrics metrics(mFont);
    const QSize icon = iconSize();
    const QRect textRect = metrics.boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, m_text);
    return QSize(icon.width() + mParentLegend->iconTextPadding() + textRect.width() + mMargins.left() +
                     mMargins.right(),
                 std::max(textRect.height(), icon.height()) + mMargins.top() + mMargins.bottom());
}

KeyLegendItem *addKeyItem(QCustomPlot *plot, const QString &text, KeyLegendItem::IconPainter icon)
{
    auto *item = new KeyLegendItem(plot->legend, text, std::move(icon));
    plot->legend->addItem(item);
    return item;
}

KeyLegendItem *addMarkerKey(QCustomPlot *plot, const QString &text, const QCPScatterStyle &style)
{
    // In the marker's own pen and fill (the painter holds the text's pen).
    KeyLegendItem *item = addKeyItem(plot, text, [style](QCPPainter *p, const QRectF &icon) {
        style.applyTo(p, QPen(Qt::black));
        style.drawShape(p, icon.center());
    });
    // Its pen included, with two pixels to spare above and below (antialiased edges).
    item->setMinimumIconHeight(int(std::ceil(style.size() + style.pen().widthF())) + 4);
    return item;
}

KeyLegendItem::IconPainter stripesIcon(const QList<QColor> &colors, Qt::BrushStyle style)
{
    return [colors, style](QCPPainter *p, const QRectF &icon) {
        const QRectF box = icon.adjusted(0.5, 1.5, -0.5, -1.5);
        const double w = box.width() / std::max<qsizetype>(1, colors.size());
        for (int i = 0; i < colors.size(); ++i) {
            const QRectF stripe(box.left() + i * w, box.top(), w, box.height());
            p->fillRect(stripe, style == Qt::SolidPattern ? colors[i].lighter(115) : QColor(Qt::white));
            if (style != Qt::SolidPattern)
                p->fillRect(stripe, QBrush(colors[i], style));
        }
        p->setPen(QPen(QColor(0x50, 0x50, 0x50), 1));
        p->setBrush(Qt::NoBrush);
        p->drawRect(box);
    };
}

QString legendItemText(QCPAbstractLegendItem *item)
{
    if (auto *key = qobject_cast<KeyLegendItem *>(item))
        return key->text();
    if (auto *plottable = qobject_cast<QCPPlottableLegendItem *>(item))
        return plottable->plottable()->name();
    return QString();
}

namespace {

QCPTextElement *titleElement(QCustomPlot *plot)
{
    return qobject_cast<QCPTextElement *>(plot->plotLayout()->element(0, 0));
}

// The title on one line, else on two (broken after the last ", ", ": " or " — " that lets the
// first line fit), else elided as a last resort.
QString wrappedTitle(const QString &full, const QFont &font, int width)
{
    const QFontMetrics metrics(font);
    if (metrics.horizontalAdvance(full) <= width)
        return full;
    for (const QString &sep : {QStringLiteral(" — "), QStringLiteral(": "), QStringLiteral(", "),
                               QStringLiteral(" vs "), QStringLiteral(" ")}) {
        for (int at = full.lastIndexOf(sep); at > 0; at = full.lastIndexOf(sep, at - 1)) {
            // The separator stays at the end of the first line (" —", ":", ","); " vs " and a plain
            // space start the second line instead.
            const bool keep = sep != QStringLiteral(" vs ") && sep != QStringLiteral(" ");
            const QString first =
                full.left(keep ? at + sep.trimmed().size() + (sep.startsWith(QLatin1Char(' ')) ? 1 : 0) : at);
            const QString second = full.mid(at + sep.size()).trimmed();
            if (metrics.horizontalAdvance(first) <= width) {
                if (metrics.horizontalAdvance(second) <= width)
                    return first.trimmed() + QLatin1Char('\n') +
                           (sep == QStringLiteral(" vs ") ? QStringLiteral("vs ") : QString()) + second;
                break;
            }
        }
    }
    return metrics.elidedText(full, Qt::ElideRight, width);
}

constexpr char kFullAxisTitle[] = "gemmscopeFullTitle"; // the axis's property: its whole title

} // namespace

void setBottomAxisTitle(QCustomPlot *plot, const QString &fullTitle)
{
    plot->xAxis->setProperty(kFullAxisTitle, fullTitle);
    plot->xAxis->setLabel(fullTitle); // fitted at the next replot (fitTitleAndLegend)
}

QString fittedAxisTitle(const QString &fullTitle, const QFont &font, int axisWidth)
{
    const QFontMetrics metrics(font);
    const qsizetype paren = fullTitle.indexOf(QStringLiteral(" ("));
    if (axisWidth <= 0 || paren < 0 || metrics.horizontalAdvance(fullTitle) <= axisWidth)
        return fullTitle;
    return fullTitle.left(paren) + QLatin1Char('\n') + fullTitle.mid(paren + 1);
}

void fitTitleAndLegend(QCustomPlot *plot, const QString &fullTitle, bool legendWanted)
{
    if (const QString axisTitle = plot->xAxis->property(kFullAxisTitle).toString(); !axisTitle.isEmpty())
        plot->xAxis->setLabel(
            fittedAxisTitle(axisTitle, plot->xAxis->labelFont(), plot->axisRect()->width()));
    QCPTextElement *title = titleElement(plot);
    const int width = std::max(60, plot->viewport().width() - 16);
    title->setText(wrappedTitle(fullTitle, title->font(), width));
    QCPLegend *legend = plot->legend;
    legend->setVisible(legendWanted && legend->itemCount() > 0);
    if (legend->itemCount() == 0)
        return;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i))
            item->setMargins(QMargins(0, 0, 0, kLegendItemBottomRoom));
    auto *flow = qobject_cast<FlowLegend *>(legend);
    if (flow)
        flow->setFlowWidth(0); // a grid, unless flowing takes fewer rows (below)
    if (legendIsBeside(plot)) {
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
        return;
    }
    // As many columns as fit, each as wide as its own widest entry.
    QList<int> widths;
    const QFontMetrics metrics(legend->font());
    const int extra = legend->iconSize().width() + legend->iconTextPadding() + 12;
    for (int i = 0; i < legend->itemCount(); ++i) {
        const QString text = legendItemText(legend->item(i));
        widths << (text.isEmpty() ? 120 : metrics.horizontalAdvance(text)) + extra;
    }
    const int available = plot->viewport().width() - 16;
    const int columns = legendColumnsThatFit(widths, available, legend->columnSpacing());
    // Entries flowing like words where a grid's columns, each as wide as its widest entry, take more
    // rows (a legend that can: FlowLegend). In entry order, one row.
    const qsizetype gridRows = (widths.size() + columns - 1) / columns;
    if (flow && flowRowStarts(widths, available, legend->columnSpacing()).size() < gridRows) {
        legend->setWrap(0);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
        flow->setFlowWidth(plot->viewport().width()); // the legend's row: the plot's width
        return;
    }
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
}

int legendColumnsThatFit(const QList<int> &widths, int available, int columnSpacing)
{
    for (int c = int(widths.size()); c > 1; --c) {
        int total = 0;
        for (int col = 0; col < c; ++col) {
            int widest = 0;
            for (int i = col; i < widths.size(); i += c)
                widest = std::max(widest, widths[i]);
            total += widest + columnSpacing;
        }
        if (total <= available)
            return c;
    }
    return 1;
}

QString shownTitle(QCustomPlot *plot)
{
    QString text = titleElement(plot)->text();
    text.replace(QStringLiteral("\nvs "), QStringLiteral(" vs "));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text;
}

QRectF labelRect(QCPItemText *item)
{
    const QPointF anchor = item->position->pixelPosition();
    const QSizeF text = textBox(item->font(), item->text());
    const QMargins pad = item->padding();
    QSizeF size(text.width() + pad.left() + pad.right(), text.height() + pad.top() + pad.bottom());
    const Qt::Alignment align = item->positionAlignment();
    QPointF topLeft = anchor;
    if (align & Qt::AlignRight)
        topLeft.rx() -= size.width();
    else if (align & Qt::AlignHCenter)
        topLeft.rx() -= size.width() / 2;
    if (align & Qt::AlignBottom)
        topLeft.ry() -= size.height();
    else if (align & Qt::AlignVCenter)
        topLeft.ry() -= size.height() / 2;
    return QRectF(topLeft, size);
}

QRectF labelGlyphRect(QCPItemText *item)
{
    const QRectF box = labelRect(item);
    const QMargins pad = item->padding();
    const QFontMetricsF metrics(item->font());
    const QRectF ink = metrics.tightBoundingRect(item->text());
    const double baseline = box.top() + pad.top() + metrics.ascent();
    return QRectF(QPointF(box.left() + pad.left(), baseline + ink.top()),
                  QPointF(box.right() - pad.right(), baseline + ink.bottom()));
}

bool segmentCrossesRect(const QLineF &segment, const QRectF &rect)
{
    if (rect.contains(segment.p1()) || rect.contains(segment.p2()))
        return true;
    const QList<QLineF> edges{
        QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.topRight(), rect.bottomRight()),
        QLineF(rect.bottomRight(), rect.bottomLeft()), QLineF(rect.bottomLeft(), rect.topLeft())};
    return std::any_of(edges.cbegin(), edges.cend(), [&](const QLineF &edge) {
        return segment.intersects(edge, nullptr) == QLineF::BoundedIntersection;
    });
}

} // namespace gemmscope
