#include "tile_map_view.h"

#include "chart_interaction.h"
#include "layout_scheme.h"
#include "load_scheme.h"
#include "mapping_loaders.h"
#include "mma_fragments.h"
#include "plot_export.h"
#include "plot_theme.h"

#include <QCheckBox>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QToolTip>
#include <QWheelEvent>
#include <climits>
#include <utility>

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

constexpr double kKeyHeight = 22;        // the warp-colour key under the panels
constexpr double kWarpOutlineCellPx = 4; // below this cell size warps are outlined and named

bool isRegisterTiled(const KernelShape &s)
{
    // One output per thread has no micro-tile to lay out; tensor-core layouts have no
    // contiguous/strided counterpart to compare with.
    return !loadSchemeOf(s).onePerThread() && !layoutSchemeOf(s).tensorCore();
}

// What a colour stands for: the warp, or for wgmma the warpgroup (its unit of work).
int colourUnit(const KernelShape &s, int tid)
{
    return tid / layoutSchemeOf(s).colourUnitThreads();
}

// The PTX figures' register colours for the A and B fragments (a0..a3, b0, b1).
QColor registerColor(int reg)
{
    static const QColor colors[] = {QColor(0x4e79a7), QColor(0xf28e2b), QColor(0x59a14f), QColor(0xb07aa1)};
    return colors[std::clamp(reg, 0, 3)];
}

constexpr double kFragmentGridCellPx = 3;   // m16n8 tile outlines from this cell size
constexpr double kFragmentLabelCellPx = 26; // "l31 c3" fits a cell from here

} // namespace

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
        if (isRegisterTiled(m_shape)) {
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
    m_sideButton->setVisible(isRegisterTiled(shape));
    m_fragmentButton->setVisible(layoutSchemeOf(shape).hasOperandFragments());
    if (!isRegisterTiled(shape))
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

QRectF TileMapView::panelsArea(const QRectF &area) const
{
    const QRectF most(area.left(), area.top(), area.width(), area.height() - kKeyHeight);
    // The tiles' bottom, the panel's margin and its note row under them (mapping_tile_geometry),
    // and a gap's worth of slack so the cells keep their size in the shorter area.
    const TilePanelGeometry g = layoutTilePanel(
        panelShape(0), QRectF(most.left(), most.top(), most.width() / panelCount(), most.height()));
    const double used = g.a.bottom() - most.top() + kTilePanelBottomPx + kTilePanelSlackPx;
    return QRectF(most.left(), most.top(), most.width(), std::min(most.height(), used));
}

QFont TileMapView::keyFont() const
{
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    return small;
}

QString TileMapView::keyLabel() const
{
    // Only the warpgroup layouts have producers: a warpgroup before the consumers, or a warp after.
    const QString unit = QString::fromStdString(layoutSchemeOf(m_shape).colourUnitName());
    const bool trailingProducer = m_shape.firstConsumerThread + m_shape.outputThreads() < m_shape.threads();
    return m_shape.firstConsumerThread > 0 ? tr("%1 colour (0: producer):").arg(unit)
           : trailingProducer ? tr("%1 colour (the producer warp after them stores nothing):").arg(unit)
                              : tr("%1 colour:").arg(unit);
}

double TileMapView::swatchWidth(const QRectF &key) const
{
    const QFontMetricsF metrics(keyFont());
    const int warps = std::max(1, keyWarpCount());
    double notes = metrics.horizontalAdvance(keyLabel()) + 6;
    if (warps > 16)
        notes += 4 + metrics.horizontalAdvance(tr("(16 colours repeat)"));
    if (fragmentsApply())
        notes += 12 + metrics.horizontalAdvance(tr("A, B register:")) + 6 + 4 * 40;
    for (const QCheckBox *button : {m_sideButton, m_fragmentButton}) // on the key's row, after it
        if (!button->isHidden())
            notes += 16 + button->sizeHint().width();
    return std::max(4.0, std::min(28.0, (key.width() - notes) / warps));
}

double TileMapView::keyEnd(const QRectF &key) const
{
    // As paintAll draws it: the label, a swatch a warp, then the notes that follow them.
    const QFontMetricsF metrics(keyFont());
    const double labelW = metrics.horizontalAdvance(keyLabel()) + 6;
    const int warps = std::max(1, keyWarpCount());
    double end = key.left() + labelW + warps * swatchWidth(key);
    if (warps > 16)
        end += 4 + metrics.horizontalAdvance(tr("(16 colours repeat)"));
    if (fragmentsApply())
        end += 12 + metrics.horizontalAdvance(tr("A, B register:")) + 6 + 4 * 40;
    return end;
}

QRectF TileMapView::keyRect(const QRectF &area) const
{
    const QRectF panels = panelsArea(area);
    return QRectF(area.left() + 8, panels.bottom() + 2, area.width() - 16, kKeyHeight - 4);
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

int TileMapView::keyWarpCount() const
{
    return layoutSchemeOf(m_shape).colourUnitCount(m_shape);
}

bool TileMapView::fragmentsApply() const
{
    return m_fragments && layoutSchemeOf(m_shape).hasOperandFragments();
}

QString TileMapView::cellLabel(Operand operand, TileCell cell) const
{
    if (operand != Operand::C && !fragmentsApply())
        return {};
    const auto f = fragmentCellAt(m_shape, operand, cell);
    return f ? f->text() : QString();
}

QString TileMapView::noteText() const
{
    return QString::fromStdString(layoutSchemeOf(m_shape).tileMapNote(fragmentsApply()));
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
    const LayoutScheme &layout = layoutSchemeOf(s);
    if (op == Operand::C && layout.tensorCore()) {
        const FragmentOwner o = fragmentOwnerOf(s, cell.row, cell.col);
        const ThreadCoord t = threadCoord(s, o.tid);
        QString text = QStringLiteral("tid %1, warp %2, lane %3").arg(o.tid).arg(t.warp).arg(t.lane);
        text += QString::fromStdString(layout.ownerUnitNote(s, o));
        text += QStringLiteral("\noutput (%1, %2) of the block tile").arg(cell.row).arg(cell.col);
        text += QLatin1Char('\n') + QString::fromStdString(layout.registerNote(s, o));
        return text + QStringLiteral(" = accumulator %1 of the thread").arg(o.accumulator);
    }
    if (op == Operand::C)
        return threadName(ownerOf(s, cell.row, cell.col)) +
               QStringLiteral("\noutput (%1, %2) of the block tile").arg(cell.row).arg(cell.col);
    if (const std::string note = layout.operandTileNote(); !note.empty())
        return QStringLiteral("%1 tile (%2, %3): %4")
            .arg(QString::fromStdString(operandName(op)))
            .arg(cell.row)
            .arg(cell.col)
            .arg(QString::fromStdString(note));
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
    if (const auto f = fragmentCellAt(s, op, cell))
        text +=
            QStringLiteral("\nfragment: lane %1, register %2%3 of every warp whose warp tile spans its %4")
                .arg(f->lane)
                .arg(QLatin1Char(f->name))
                .arg(f->reg)
                .arg(op == Operand::A ? QStringLiteral("rows") : QStringLiteral("columns"));
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
                const QColor col = warpColor(colourUnit(s, t.tid));
                img.setPixelColor(c, r,
                                  !selecting            ? col
                                  : t.tid == m_selected ? selectionColor()
                                                        : faded(col));
            }
        return img;
    }
    if (layoutSchemeOf(s).hasOperandFragments() && m_fragments) {
        // Coloured by fragment register; the selected thread's own fragment elements in black.
        std::vector<int> rows, cols;
        if (selecting) {
            rows = op == Operand::A ? aRowsRead(s, m_selected) : std::vector<int>{};
            cols = op == Operand::B ? bColsRead(s, m_selected) : std::vector<int>{};
        }
        const int lane = m_selected % kWarpSize;
        for (int r = 0; r < extent.row; ++r)
            for (int c = 0; c < extent.col; ++c) {
                const auto f = fragmentCellAt(s, op, {r, c});
                const QColor col = registerColor(f ? f->reg : 0);
                const bool mine = selecting && f && f->lane == lane &&
                                  (op == Operand::A ? std::find(rows.begin(), rows.end(), r) != rows.end()
                                                    : std::find(cols.begin(), cols.end(), c) != cols.end());
                img.setPixelColor(c, r, mine ? selectionColor() : selecting ? faded(col) : col);
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

void TileMapView::paintPanel(QPainter &p, int panel, const TilePanelGeometry &g) const
{
    const KernelShape s = panelShape(panel);

    QString title;
    if (panelCount() == 2)
        title = panel == 0 ? tr("Contiguous micro-tiles (steps 2-6)") : tr("Strided layout (steps 7-8)");
    else
        title = QString::fromStdString(stageInfo(s.stage).title);
    title += tr(" — %1 x %2 block tile, %3 threads, colour = %4")
                 .arg(s.bm)
                 .arg(s.bn)
                 .arg(s.threads())
                 .arg(QString::fromStdString(layoutSchemeOf(s).colourUnitName()));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, title);

    p.save();
    p.setClipRect(g.bounds.adjusted(0, g.title.height(), 0, 0));
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

    // Zoomed out (cells too small for threads): each warp's block of outputs outlined and named,
    // where the warp owns a rectangle (the contiguous layouts); per thread once zoomed in.
    if (g.cell < kWarpOutlineCellPx) {
        struct Box {
            int r0 = INT_MAX, c0 = INT_MAX, r1 = -1, c1 = -1;
            long long cells = 0;
        };
        std::vector<Box> boxes(std::size_t(std::max(1, s.warps())));
        for (int r = 0; r < s.bm; ++r)
            for (int c = 0; c < s.bn; ++c) {
                const int w = ownerOf(s, r, c).warp;
                if (w < 0 || w >= int(boxes.size()))
                    continue;
                Box &b = boxes[std::size_t(w)];
                b.r0 = std::min(b.r0, r);
                b.c0 = std::min(b.c0, c);
                b.r1 = std::max(b.r1, r);
                b.c1 = std::max(b.c1, c);
                ++b.cells;
            }
        QFont label = p.font();
        label.setPointSizeF(label.pointSizeF() * 0.85);
        label.setBold(true);
        p.setFont(label);
        for (int w = 0; w < int(boxes.size()); ++w) {
            const Box &b = boxes[std::size_t(w)];
            if (b.r1 < 0 || b.cells != (long long)(b.r1 - b.r0 + 1) * (b.c1 - b.c0 + 1))
                continue; // scattered (strided layout): the colours alone show it
            const QRectF box(g.c.left() + b.c0 * g.cell, g.c.top() + b.r0 * g.cell,
                             (b.c1 - b.c0 + 1) * g.cell, (b.r1 - b.r0 + 1) * g.cell);
            p.setPen(QPen(QColor(255, 255, 255, 200), 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box);
            if (box.width() >= 44 && box.height() >= 12) {
                p.setPen(Qt::white);
                p.drawText(box, Qt::AlignCenter, tr("warp %1").arg(w));
            }
        }
        p.setFont(font());
    }

    if (layoutSchemeOf(s).tensorCore())
        paintFragments(p, s, g);

    // What the selected thread reads in its inner loop: its rows of A and columns of B.
    if (m_selected >= 0 && s.usesSharedMemory) {
        p.setPen(QPen(selectionColor(), 1.5));
        for (int r : aRowsRead(s, m_selected))
            p.drawRect(QRectF(g.a.left(), g.a.top() + r * g.cell, g.a.width(), g.cell));
        for (int c : bColsRead(s, m_selected))
            p.drawRect(QRectF(g.b.left() + c * g.cell, g.b.top(), g.cell, g.b.height()));
    }

    // The three tiles named beside them (never over an element): A on its left, B above, C on its right.
    QFont bold = p.font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetricsF metrics(bold);
    const auto fitted = [&](QString text, double room) {
        return metrics.horizontalAdvance(text) + 4 > room ? text.left(1) : text;
    };
    p.drawText(QRectF(g.b.left(), g.b.top() - 16, g.b.width(), 16), Qt::AlignHCenter | Qt::AlignBottom,
               fitted(tr("B %1x%2").arg(s.bk).arg(s.bn), g.b.width()));
    const auto vertical = [&](const QRectF &tile, double x, const QString &text) {
        p.save();
        p.translate(x, tile.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-tile.height() / 2, -8, tile.height(), 16), Qt::AlignCenter,
                   fitted(text, tile.height()));
        p.restore();
    };
    vertical(g.a, g.a.left() - 9, tr("A %1x%2").arg(s.bm).arg(s.bk));
    vertical(g.c, g.c.right() + 9, tr("C %1x%2").arg(s.bm).arg(s.bn));
    p.restore();

    p.setPen(palette().color(QPalette::WindowText));
    QFont small = p.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    QString note = noteText();
    if (g.cell < kMinReadableCellPx)
        note = tr("%1 px per element: each warp's outputs outlined; zoom (wheel) to see threads")
                   .arg(g.cell, 0, 'f', 1);
    else if (m_zoom > 1)
        note = tr("zoom %1x: drag to pan, double-click or 0 to fit").arg(m_zoom, 0, 'g', 3);
    p.drawText(QRectF(g.title.left(), g.bounds.bottom() - 22, g.title.width(), 22),
               Qt::AlignLeft | Qt::AlignVCenter, note);
    p.setFont(font());
}

// Tensor-core layouts: the m16n8 tiles outlined (m16k8 in A, k8n8 in B), the warp tiles or warpgroup
// slabs in C outlined thicker, and once a cell can hold it each element's lane and register.
void TileMapView::paintFragments(QPainter &p, const KernelShape &s, const TilePanelGeometry &g) const
{
    if (g.cell < kFragmentGridCellPx)
        return;
    const LayoutScheme &layout = layoutSchemeOf(s);
    const auto grid = [&](const QRectF &rect, TileCell extent, int rowStep, int colStep, const QPen &pen) {
        p.setPen(pen);
        for (int r = rowStep; r < extent.row; r += rowStep)
            p.drawLine(QPointF(rect.left(), rect.top() + r * g.cell),
                       QPointF(rect.right(), rect.top() + r * g.cell));
        for (int c = colStep; c < extent.col; c += colStep)
            p.drawLine(QPointF(rect.left() + c * g.cell, rect.top()),
                       QPointF(rect.left() + c * g.cell, rect.bottom()));
    };
    const QPen thin(QColor(0, 0, 0, 90), 1), thick(QColor(0, 0, 0, 200), 2);
    grid(g.c, tileExtent(s, Operand::C), kMmaM, kMmaN, thin);
    const TileCell block = layout.accumulatorBlock(s);
    grid(g.c, tileExtent(s, Operand::C), block.row, block.col, thick);
    if (layout.hasOperandFragments() && m_fragments) {
        grid(g.a, tileExtent(s, Operand::A), kMmaM, kMmaK, thin);
        grid(g.b, tileExtent(s, Operand::B), kMmaK, kMmaN, thin);
    }
    if (g.cell < kFragmentLabelCellPx)
        return;
    QFont f = p.font();
    f.setPointSizeF(std::min(9.0, g.cell / 4.2));
    p.setFont(f);
    for (Operand op : {Operand::C, Operand::A, Operand::B}) {
        if (op != Operand::C && !fragmentsApply())
            continue;
        const QRectF rect = op == Operand::A ? g.a : op == Operand::B ? g.b : g.c;
        const QRectF visible = rect.intersected(g.bounds);
        if (visible.isEmpty())
            continue;
        const TileCell e = tileExtent(s, op);
        const int r0 = std::max(0, int((visible.top() - rect.top()) / g.cell));
        const int r1 = std::min(e.row - 1, int((visible.bottom() - rect.top()) / g.cell));
        const int c0 = std::max(0, int((visible.left() - rect.left()) / g.cell));
        const int c1 = std::min(e.col - 1, int((visible.right() - rect.left()) / g.cell));
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) {
                const auto cell = fragmentCellAt(s, op, {r, c});
                if (!cell)
                    continue;
                const QRectF box(rect.left() + c * g.cell, rect.top() + r * g.cell, g.cell, g.cell);
                p.setPen(QColor(255, 255, 255, 235));
                p.drawText(box, Qt::AlignCenter, cell->text().replace(QLatin1Char(' '), QLatin1Char('\n')));
            }
    }
    p.setFont(font());
}

void TileMapView::paintAll(QPainter &p, const QRectF &area, bool print) const
{
    p.fillRect(area, print ? QColor(Qt::white) : palette().color(QPalette::Base));
    // The warp-colour key under the tiles: one swatch per warp of the block.
    const QRectF key = keyRect(area);
    const QRectF panels = panelsArea(area);
    for (int i = 0; i < panelCount(); ++i)
        paintPanel(p, i, geometryIn(i, panels, !print));
    const QFont small = keyFont();
    p.setFont(small);
    p.setPen(palette().color(QPalette::WindowText));
    const QString label = keyLabel();
    const double labelW = QFontMetricsF(small).horizontalAdvance(label) + 6;
    p.drawText(QRectF(key.left(), key.top(), labelW, key.height()), Qt::AlignLeft | Qt::AlignVCenter, label);
    const int warps = std::max(1, keyWarpCount());
    const double sw = swatchWidth(key);
    for (int w = 0; w < warps; ++w) {
        const QRectF box(key.left() + labelW + w * sw, key.top() + 2, sw - 2, key.height() - 4);
        p.fillRect(box, warpColor(w));
        if (sw >= 14) {
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, QString::number(w));
        }
    }
    if (warps > 16) {
        p.setPen(palette().color(QPalette::WindowText));
        const QString repeat = tr("(16 colours repeat)");
        p.drawText(QRectF(key.left() + labelW + warps * sw + 4, key.top(),
                          QFontMetricsF(small).horizontalAdvance(repeat) + 2, key.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, repeat);
    }
    if (fragmentsApply()) { // the A and B colours: the fragment registers
        double x = key.left() + labelW + warps * sw + 12;
        p.setPen(palette().color(QPalette::WindowText));
        const QString regs = tr("A, B register:");
        const double w = QFontMetricsF(small).horizontalAdvance(regs) + 6;
        p.drawText(QRectF(x, key.top(), w, key.height()), Qt::AlignLeft | Qt::AlignVCenter, regs);
        x += w;
        for (int r = 0; r < 4; ++r) {
            const QRectF box(x + r * 40, key.top() + 2, 38, key.height() - 4);
            p.fillRect(box, registerColor(r));
            p.setPen(Qt::white);
            p.drawText(box, Qt::AlignCenter, r < 2 ? tr("a%1 b%1").arg(r) : tr("a%1").arg(r));
        }
    }
    p.setFont(font());
}

void TileMapView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    paintAll(p, QRectF(rect()), false);
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
