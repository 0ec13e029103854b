// The tile map's state and input: the shape, side-by-side and fragment switches, the selected
// thread, zoom and pan, and the export. Drawing is tile_map_paint.cpp, the key tile_map_key.cpp,
// what lies under a point tile_map_hit.cpp.
#include "tile_map_view.h"

#include "chart_interaction.h"
#include "plot_export.h"
#include "tile_map_style.h"

#include <QCheckBox>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QResizeEvent>
#include <QWheelEvent>
#include <cmath>
#include <utility>

namespace gemmscope {

TileMapView::TileMapView(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    // The shared chart interaction: tooltips, and a context menu with the window's common entries.
    auto *interaction = new ChartInteraction(this, [this](const QPointF &pos) {
        return ChartInteraction::Hit{QString(), toolTipAt(pos)};
    });
    m_sideButton = new QCheckBox(tr("Side by side: contiguous | strided"), this);
    m_sideButton->setObjectName(QStringLiteral("sideBySideButton"));
    m_sideButton->setAutoFillBackground(true); // it sits over the drawing
    m_sideButton->setToolTip(
        tr("The contiguous layout (steps 2-6) beside the strided one (steps 7-8) for the "
           "same tile parameters"));
    connect(m_sideButton, &QCheckBox::toggled, this, &TileMapView::setSideBySide);
    m_fragmentButton = new QCheckBox(tr("A, B: fragments"), this);
    m_fragmentButton->setObjectName(QStringLiteral("fragmentButton"));
    m_fragmentButton->setAutoFillBackground(true);
    m_fragmentButton->setChecked(m_fragments);
    m_fragmentButton->setToolTip(tr("On: the A and B tiles show which lane and register of the mma.sync "
                                    "m16n8k8 fragments holds each element. Off: which warp copies it in."));
    m_fragmentButton->setVisible(false);
    connect(m_fragmentButton, &QCheckBox::toggled, this, &TileMapView::setShowFragments);
    interaction->setMenuBuilder([this](QMenu &menu, const QPointF &) {
        menu.addAction(tr("Zoom in (+)"), this, [this] { setZoom(m_zoom * 1.5); });
        menu.addAction(tr("Fit the whole tile (0)"), this, &TileMapView::resetZoom);
        if (tile_map::isRegisterTiled(m_shape)) {
            QAction *side = menu.addAction(tr("Contiguous and strided side by side"));
            side->setCheckable(true);
            side->setChecked(m_sideBySide);
            connect(side, &QAction::toggled, this, &TileMapView::setSideBySide);
        }
    });
    setAttribute(Qt::WA_OpaquePaintEvent);
}

QColor TileMapView::selectionColor()
{
    return QColor(0x11, 0x11, 0x11);
}

void TileMapView::setShape(const KernelShape &shape)
{
    m_shape = shape;
    m_sideButton->setVisible(tile_map::isRegisterTiled(shape));
    m_fragmentButton->setVisible(layoutSchemeOf(shape).hasOperandFragments());
    if (!tile_map::isRegisterTiled(shape))
        m_sideBySide = false;
    if (m_selected >= shape.threads())
        m_selected = -1;
    placeButtons(); // the key's row moves with the tiles' height
    update();
}

void TileMapView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    placeButtons();
}

void TileMapView::placeButtons()
{
    // On the key's row, after its swatches: what they switch is what the key explains. Right-aligned
    // under the tiles where there is room, never over the swatches.
    const QRectF area(0, 0, width(), height());
    const QRectF key = keyRect(area);
    const QRectF panels = panelsArea(area);
    double tilesRight = 0;
    for (int i = 0; i < panelCount(); ++i)
        tilesRight = std::max(tilesRight, geometryIn(i, panels, false).c.right());
    for (QCheckBox *button : {m_sideButton, m_fragmentButton}) {
        button->adjustSize();
        const double right = std::min(double(width()) - 4, tilesRight + 16);
        const double x = std::max(keyEnd(key) + 16, right - button->width());
        button->move(int(std::min(x, double(width() - button->width() - 4))),
                     int(key.center().y() - button->height() / 2.0));
    }
}

void TileMapView::setShowFragments(bool on)
{
    {
        const QSignalBlocker block(m_fragmentButton);
        m_fragmentButton->setChecked(on);
    }
    m_fragments = on;
    placeButtons();
    update();
}

bool TileMapView::fragmentsApply() const
{
    return m_fragments && layoutSchemeOf(m_shape).hasOperandFragments();
}

void TileMapView::setSideBySide(bool on)
{
    {
        const QSignalBlocker block(m_sideButton);
        m_sideButton->setChecked(on);
    }
    m_sideBySide = on;
    placeButtons();
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
    return (m_sideBySide && tile_map::isRegisterTiled(m_shape)) ? 2 : 1;
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
    return geometryIn(panel, panelsArea(QRectF(0, 0, width(), height())), true);
}

TilePanelGeometry TileMapView::geometryIn(int panel, const QRectF &area, bool zoomed) const
{
    const int n = panelCount();
    const double w = area.width() / n;
    TilePanelGeometry g =
        layoutTilePanel(panelShape(panel), QRectF(area.left() + panel * w, area.top(), w, area.height()));
    if (!zoomed || m_zoom == 1)
        return g;
    // Zoom about the panel's top-left tile corner, then pan.
    const QPointF origin(g.a.left(), g.b.top());
    const auto scaled = [&](const QRectF &r) {
        return QRectF(origin + (r.topLeft() - origin) * m_zoom + m_pan, r.size() * m_zoom);
    };
    g.a = scaled(g.a);
    g.b = scaled(g.b);
    g.c = scaled(g.c);
    g.cell *= m_zoom;
    return g;
}

void TileMapView::setZoom(double zoom, QPointF about)
{
    const double z = std::clamp(zoom, 1.0, 64.0);
    if (z == m_zoom)
        return;
    // Keep the point under `about` where it is.
    const TilePanelGeometry unzoomed = geometryIn(0, panelsArea(QRectF(0, 0, width(), height())), false);
    const QPointF origin(unzoomed.a.left(), unzoomed.b.top());
    if (about.isNull())
        about = unzoomed.c.center();
    const QPointF content = (about - origin - m_pan) / m_zoom;
    m_zoom = z;
    m_pan = z == 1 ? QPointF() : about - origin - content * z;
    update();
}

void TileMapView::resetZoom()
{
    m_zoom = 1;
    m_pan = {};
    update();
}

QString TileMapView::printTitle() const
{
    return m_caption.isEmpty() ? tr("Tile map") : tr("Tile map: %1").arg(m_caption);
}

bool TileMapView::isSampled() const
{
    return panelGeometry(0).cell < kMinReadableCellPx;
}

void TileMapView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && !m_dragged) {
        const auto tid = threadAtPos(event->position());
        // A click on empty space clears the selection; on the selected thread toggles it off.
        setSelectedThread(tid && *tid != m_selected ? *tid : -1);
    }
    m_dragFrom = {};
    m_dragged = false;
    QWidget::mouseReleaseEvent(event);
}

void TileMapView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    setZoom(m_zoom * std::pow(1.25, steps), event->position());
    event->accept();
}

void TileMapView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal)
        setZoom(m_zoom * 1.5);
    else if (event->key() == Qt::Key_Minus)
        setZoom(m_zoom / 1.5);
    else if (event->key() == Qt::Key_0)
        resetZoom();
    else
        QWidget::keyPressEvent(event);
}

void TileMapView::mouseMoveEvent(QMouseEvent *event)
{
    if ((event->buttons() & Qt::LeftButton) && m_zoom > 1 && !m_dragFrom.isNull()) {
        const QPointF delta = event->position() - m_dragFrom;
        if (m_dragged || QLineF(QPointF(), delta).length() > 4) {
            m_dragged = true;
            m_pan += delta;
            m_dragFrom = event->position();
            update();
            return;
        }
    }
    QWidget::mouseMoveEvent(event); // the tooltip comes from the ChartInteraction
}

void TileMapView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragFrom = event->position();
        m_dragged = false;
    }
    setFocus(Qt::MouseFocusReason);
    QWidget::mousePressEvent(event);
}

bool TileMapView::event(QEvent *event)
{
    if (event->type() == QEvent::MouseButtonDblClick) {
        resetZoom();
        return true;
    }
    return QWidget::event(event);
}

std::optional<QString> TileMapView::exportTo(const QString &path)
{
    // The print layout is the map itself: the thread clicked on screen (black outputs, faded warps,
    // outlined rows and columns) is an inspection state, not part of the picture, and stays here.
    const int selected = std::exchange(m_selected, -1);
    const std::optional<QString> error =
        exportPainted(path, kPrintSize, printTitle(), [&](QPainter &p, const QRectF &page) {
            paintAll(p, paintPrintTitle(p, page, printTitle()).adjusted(8, 0, -8, -4), true);
        });
    m_selected = selected;
    return error;
}

} // namespace gemmscope
