#include "tile_map_view.h"

#include "mapping_loaders.h"
#include "plot_export.h"
#include "plot_theme.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace gemmscope {

namespace {

QColor faded(const QColor &c)
{
    // Towards white, so the selected thread's cells stand out without losing the warp pattern.
    return QColor((c.red() + 2 * 255) / 3, (c.green() + 2 * 255) / 3, (c.blue() + 2 * 255) / 3);
}

QString threadName(const ThreadCoord &t)
{
    return QStringLiteral("thread (%1,%2) = tid %3, warp %4, lane %5")
        .arg(t.tx)
        .arg(t.ty)
        .arg(t.tid)
        .arg(t.warp)
        .arg(t.lane);
}

bool isRegisterTiled(const KernelShape &s)
{
    return s.loads != TileLoadScheme::OneElementPerThread;
}

} // namespace

TileMapView::TileMapView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QColor TileMapView::selectionColor()
{
    return QColor(0x11, 0x11, 0x11);
}

void TileMapView::setShape(const KernelShape &shape)
{
    m_shape = shape;
    if (m_selected >= shape.threads())
        m_selected = -1;
    update();
}

void TileMapView::setSideBySide(bool on)
{
    m_sideBySide = on;
    update();
}

void TileMapView::setSelectedThread(int tid)
{
    const int t = (tid >= 0 && tid < m_shape.threads()) ? tid : -1;
    if (t == m_selected)
        return;
    m_selected = t;
    update();
    emit threadSelected(t);
}

int TileMapView::panelCount() const
{
    return (m_sideBySide && isRegisterTiled(m_shape)) ? 2 : 1;
}

KernelShape TileMapView::panelShape(int panel) const
{
    if (panelCount() == 1)
        return m_shape;
    KernelShape s = m_shape;
    s.layout = panel == 0 ? ThreadLayout::Contiguous : ThreadLayout::Strided;
    return s;
}

TilePanelGeometry TileMapView::panelGeometry(int panel) const
{
    const int n = panelCount();
    const double w = double(width()) / n;
    return layoutTilePanel(panelShape(panel), QRectF(panel * w, 0, w, height()));
}

bool TileMapView::isSampled() const
{
    return panelGeometry(0).cell < kMinReadableCellPx;
}

int TileMapView::panelAt(QPointF pos) const
{
    for (int i = 0; i < panelCount(); ++i)
        if (panelGeometry(i).bounds.contains(pos))
            return i;
    return -1;
}

std::optional<int> TileMapView::threadAtPos(QPointF pos) const
{
    const int panel = panelAt(pos);
    if (panel < 0)
        return std::nullopt;
    const KernelShape s = panelShape(panel);
    const auto hit = panelGeometry(panel).hit(s, pos);
    if (!hit)
        return std::nullopt;
    if (hit->first == Operand::C)
        return ownerOf(s, hit->second.row, hit->second.col).tid;
    const int loader = tileLoaders(s, hit->first).firstAt(hit->second);
    return loader >= 0 ? std::optional<int>(loader) : std::nullopt;
}

QString TileMapView::toolTipAt(QPointF pos) const
{
    const int panel = panelAt(pos);
    if (panel < 0)
        return {};
    const KernelShape s = panelShape(panel);
    const auto hit = panelGeometry(panel).hit(s, pos);
    if (!hit)
        return {};
    const auto [op, cell] = *hit;
    if (op == Operand::C)
        return threadName(ownerOf(s, cell.row, cell.col)) +
               QStringLiteral("\noutput (%1, %2) of the block tile").arg(cell.row).arg(cell.col);
    const TileLoaders loaders = tileLoaders(s, op);
    const int first = loaders.firstAt(cell);
    const QString where = QStringLiteral("%1 tile (%2, %3)")
                              .arg(QString::fromStdString(operandName(op)))
                              .arg(cell.row)
                              .arg(cell.col);
    if (first < 0)
        return where + QStringLiteral(": loaded by no thread");
    QString text = where + QStringLiteral(": loaded by ") + threadName(threadCoord(s, first));
    if (loaders.countAt(cell) > 1)
        text += QStringLiteral(" and %1 other threads (no shared tile: each reads it from global memory)")
                    .arg(loaders.countAt(cell) - 1);
    return text;
}

QImage TileMapView::tileImage(const KernelShape &s, Operand op) const
{
    const TileCell extent = tileExtent(s, op);
    QImage img(extent.col, extent.row, QImage::Format_RGB32);
    const bool selecting = m_selected >= 0;
    if (op == Operand::C) {
        for (int r = 0; r < extent.row; ++r)
            for (int c = 0; c < extent.col; ++c) {
                const ThreadCoord t = ownerOf(s, r, c);
                const QColor col = warpColor(t.warp);
                img.setPixelColor(c, r,
                                  !selecting            ? col
                                  : t.tid == m_selected ? selectionColor()
                                                        : faded(col));
            }
        return img;
    }
    const TileLoaders loaders = tileLoaders(s, op);
    for (int r = 0; r < extent.row; ++r)
        for (int c = 0; c < extent.col; ++c) {
            const int first = loaders.firstAt({r, c});
            const QColor col = first < 0 ? QColor(Qt::white) : warpColor(first / kWarpSize);
            img.setPixelColor(c, r, selecting ? faded(col) : col);
        }
    if (selecting)
        for (const TileLoad &l : tileLoadsOf(s, m_selected))
            if (l.operand == op)
                img.setPixelColor(l.cell.col, l.cell.row, selectionColor());
    return img;
}

void TileMapView::paintPanel(QPainter &p, int panel) const
{
    const KernelShape s = panelShape(panel);
    const TilePanelGeometry g = panelGeometry(panel);

    QString title;
    if (panelCount() == 2)
        title = panel == 0 ? tr("Contiguous micro-tiles (steps 2-6)") : tr("Strided layout (steps 7-8)");
    else
        title = QString::fromStdString(stageInfo(s.stage).title);
    title += tr(" — %1 x %2 block tile, %3 threads, colour = warp").arg(s.bm).arg(s.bn).arg(s.threads());
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, title);

    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
        const QRectF rect = op == Operand::A ? g.a : op == Operand::B ? g.b : g.c;
        p.drawImage(rect, tileImage(s, op));
        if (g.cell >= 6) { // element grid once it is visible
            p.setPen(QPen(QColor(255, 255, 255, 110), 0));
            const TileCell e = tileExtent(s, op);
            for (int r = 1; r < e.row; ++r)
                p.drawLine(QPointF(rect.left(), rect.top() + r * g.cell),
                           QPointF(rect.right(), rect.top() + r * g.cell));
            for (int c = 1; c < e.col; ++c)
                p.drawLine(QPointF(rect.left() + c * g.cell, rect.top()),
                           QPointF(rect.left() + c * g.cell, rect.bottom()));
        }
        p.setPen(QPen(palette().color(QPalette::Mid), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect);
    }

    // What the selected thread reads in its inner loop: its rows of A and columns of B.
    if (m_selected >= 0 && s.usesSharedMemory) {
        p.setPen(QPen(selectionColor(), 1.5));
        for (int r : aRowsRead(s, m_selected))
            p.drawRect(QRectF(g.a.left(), g.a.top() + r * g.cell, g.a.width(), g.cell));
        for (int c : bColsRead(s, m_selected))
            p.drawRect(QRectF(g.b.left() + c * g.cell, g.b.top(), g.cell, g.b.height()));
    }

    p.setPen(palette().color(QPalette::WindowText));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    if (g.a.width() >= 12)
        p.drawText(QRectF(g.a.left(), g.b.top(), g.a.width(), g.b.height()), Qt::AlignCenter,
                   QStringLiteral("A"));
    QString note = tr("A (%1 x %2) and B (%3 x %4) tiles: colour = warp that loads the element")
                       .arg(s.bm)
                       .arg(s.bk)
                       .arg(s.bk)
                       .arg(s.bn);
    if (g.cell < kMinReadableCellPx)
        note = tr("%1 px per element: colours are sampled, enlarge the view to see every element")
                   .arg(g.cell, 0, 'f', 1);
    p.drawText(QRectF(g.title.left(), g.bounds.bottom() - 22, g.title.width(), 22),
               Qt::AlignLeft | Qt::AlignVCenter, note);
    p.setFont(font());
}

void TileMapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    for (int i = 0; i < panelCount(); ++i)
        paintPanel(p, i);
}

void TileMapView::mouseMoveEvent(QMouseEvent *event)
{
    const QString tip = toolTipAt(event->position());
    if (tip.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
    QWidget::mouseMoveEvent(event);
}

void TileMapView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        const auto tid = threadAtPos(event->position());
        // A click on empty space clears the selection; on the selected thread toggles it off.
        setSelectedThread(tid && *tid != m_selected ? *tid : -1);
    }
    QWidget::mousePressEvent(event);
}

bool TileMapView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QString tip = toolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, this);
        return true;
    }
    return QWidget::event(event);
}

std::optional<QString> TileMapView::exportTo(const QString &path)
{
    return exportWidget(this, path);
}

} // namespace gemmscope
