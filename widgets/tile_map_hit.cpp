// What lies under a point of the tile map: the panel, the thread that stores or loads the
// element there, its tooltip, and the label a zoomed-in cell shows.
#include "tile_map_view.h"

#include "mapping_loaders.h"
#include "mma_fragments.h"
#include "tile_map_style.h"

namespace gemmscope {

namespace {

QString threadName(const ThreadCoord &t)
{
    return QStringLiteral("thread (%1,%2) = tid %3, warp %4, lane %5")
        .arg(t.tx)
        .arg(t.ty)
        .arg(t.tid)
        .arg(t.warp)
        .arg(t.lane);
}

} // namespace

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

QString TileMapView::cellLabel(Operand operand, TileCell cell) const
{
    if (operand != Operand::C && !fragmentsApply())
        return {};
    const auto f = fragmentCellAt(m_shape, operand, cell);
    return f ? f->text() : QString();
}

} // namespace gemmscope
