#include "stall_breakdown_bar.h"

#include "chart_text.h"
#include "stall_reasons.h"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

namespace gemmscope {

namespace {

constexpr double kOtherBelow = 0.005; // reasons under half a percent share the "other" segment
constexpr int kBarMargin = 4, kBarHeight = 18, kSwatch = 10, kGap = 14, kLineGap = 3;

QString percentText(double share)
{
    return shareText(share);
}

} // namespace

StallBreakdownBar::StallBreakdownBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("stallBreakdownBar"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setMouseTracking(true);
}

void StallBreakdownBar::setBreakdown(const StallBreakdown &breakdown, const QString &title)
{
    m_title = title;
    m_message.clear();
    m_segments.clear();
    m_tooltips.clear();
    double other = 0;
    int otherCount = 0;
    QStringList otherNames;
    for (const ReasonShare &r : breakdown.reasons) {
        if (r.share < kOtherBelow) {
            other += r.share;
            ++otherCount;
            otherNames << stallReasonName(r.key);
            continue;
        }
        m_segments.append({r.key, QStringLiteral("%1 %2").arg(stallReasonName(r.key), percentText(r.share)),
                           r.share, stallReasonColor(r.key)});
        m_tooltips.append(
            QStringLiteral("%1 of the samples, %2 samples.\n%3")
                .arg(percentText(r.share), QLocale().toString(r.samples, 'f', 0), stallReasonTooltip(r.key)));
    }
    if (otherCount > 0) {
        m_segments.append({QString(), QStringLiteral("%1 other %2").arg(otherCount).arg(percentText(other)),
                           other, 0xbbbbbb});
        m_tooltips.append(
            QStringLiteral("Reasons under 0.5 % each: %1.").arg(otherNames.join(QStringLiteral(", "))));
    }
    if (m_segments.isEmpty())
        m_message = tr("The profile holds no PC samples.");
    fitHeight();
}

void StallBreakdownBar::setMessage(const QString &sentence)
{
    m_title.clear();
    m_segments.clear();
    m_tooltips.clear();
    m_message = sentence;
    fitHeight();
}

StallBreakdownBar::Layout StallBreakdownBar::layoutFor(int width) const
{
    Layout l;
    const QFontMetrics fm(font());
    const int w = std::max(width - 2 * kBarMargin, 60);
    double y = kBarMargin;
    if (!m_message.isEmpty() && m_segments.isEmpty()) {
        const QRect text = fm.boundingRect(QRect(0, 0, w, 10000), Qt::TextWordWrap, m_message);
        l.title = QRectF(kBarMargin, y, w, text.height());
        l.height = int(y + text.height() + kBarMargin);
        return l;
    }
    if (!m_title.isEmpty()) {
        l.title = QRectF(kBarMargin, y, w, fm.height());
        y += fm.height() + kLineGap;
    }
    l.bar = QRectF(kBarMargin, y, w, kBarHeight);
    double x = kBarMargin;
    for (const Segment &s : m_segments) {
        const double sw = s.share * w;
        l.segmentRects.append(QRectF(x, y, sw, kBarHeight));
        x += sw;
    }
    y += kBarHeight + kLineGap + 2;
    // The legend flows left to right, wrapping where an entry would not fit.
    double lx = kBarMargin;
    const double rowHeight = std::max(fm.height(), kSwatch);
    for (const Segment &s : m_segments) {
        const double entry = kSwatch + 4 + fm.horizontalAdvance(s.legend);
        if (lx > kBarMargin && lx + entry > kBarMargin + w) {
            lx = kBarMargin;
            y += rowHeight + kLineGap;
        }
        l.legendRects.append(QRectF(lx, y, std::min(entry, double(w)), rowHeight));
        lx += entry + kGap;
    }
    y += rowHeight;
    l.height = int(y + kBarMargin);
    return l;
}

void StallBreakdownBar::fitHeight()
{
    // The legend wraps with the width: the bar is as tall as its layout at this width.
    setFixedHeight(heightForWidth(width() > 0 ? width() : 600));
    update();
}

void StallBreakdownBar::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (heightForWidth(width()) != height())
        fitHeight();
}

int StallBreakdownBar::heightForWidth(int width) const
{
    return layoutFor(width).height;
}

QSize StallBreakdownBar::sizeHint() const
{
    const int w = width() > 0 ? width() : 600;
    return {w, heightForWidth(w)};
}

QSize StallBreakdownBar::minimumSizeHint() const
{
    return {120, heightForWidth(width() > 0 ? width() : 600)};
}

void StallBreakdownBar::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const Layout l = layoutFor(width());
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    if (!m_message.isEmpty() && m_segments.isEmpty()) {
        p.drawText(l.title, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, m_message);
        return;
    }
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(bold).elidedText(m_title, Qt::ElideRight, int(l.title.width())));
        p.setFont(font());
    }
    p.setPen(Qt::NoPen);
    p.setBrush(palette().color(QPalette::AlternateBase));
    p.drawRect(l.bar);
    for (int i = 0; i < m_segments.size(); ++i) {
        p.setBrush(QColor::fromRgb(m_segments[i].color));
        p.drawRect(l.segmentRects[i]);
    }
    // Segment labels where they fit: the share on the bar itself.
    for (int i = 0; i < m_segments.size(); ++i) {
        const QString share = percentText(m_segments[i].share);
        if (QFontMetrics(font()).horizontalAdvance(share) + 6 < l.segmentRects[i].width()) {
            const QColor c = QColor::fromRgb(m_segments[i].color);
            p.setPen(c.lightnessF() > 0.55 ? Qt::black : Qt::white);
            p.drawText(l.segmentRects[i], Qt::AlignCenter, share);
        }
    }
    for (int i = 0; i < m_segments.size(); ++i) {
        const QRectF r = l.legendRects[i];
        p.setPen(Qt::NoPen);
        p.setBrush(QColor::fromRgb(m_segments[i].color));
        p.drawRect(QRectF(r.left(), r.center().y() - kSwatch / 2.0, kSwatch, kSwatch));
        p.setPen(text);
        p.drawText(QRectF(r.left() + kSwatch + 4, r.top(), r.width() - kSwatch - 4, r.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, m_segments[i].legend);
    }
}

QString StallBreakdownBar::tooltipAt(const QPoint &pos) const
{
    const Layout l = layoutFor(width());
    for (int i = 0; i < m_segments.size(); ++i)
        if (l.segmentRects[i].contains(pos) || l.legendRects[i].contains(pos))
            return m_tooltips.value(i);
    return {};
}

bool StallBreakdownBar::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = tooltipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), plainTooltip(tip), this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace gemmscope
