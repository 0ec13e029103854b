#include "mapping_loaders.h"

#include "layout_scheme.h"

namespace gemmscope {

TileLoaders tileLoaders(const KernelShape &shape, Operand operand)
{
    TileLoaders l;
    l.extent = tileExtent(shape, operand);
    const std::size_t n = std::size_t(l.extent.row) * std::size_t(l.extent.col);
    l.first.assign(n, -1);
    l.count.assign(n, 0);
    for (int i = 0; i < loadInstructionCount(shape, operand); ++i)
        for (int tid = 0; tid < shape.threads(); ++tid)
            if (const auto c = loadedElement(shape, operand, i, tid)) {
                const std::size_t at = std::size_t(c->row * l.extent.col + c->col);
                if (l.first[at] < 0 || tid < l.first[at])
                    l.first[at] = tid;
                ++l.count[at];
            }
    return l;
}

QString FragmentCell::text() const
{
    return QStringLiteral("%1%2 %3%4")
        .arg(name == 'd' ? QLatin1Char('t') : QLatin1Char('l'))
        .arg(lane)
        .arg(QLatin1Char(name))
        .arg(reg);
}

std::optional<FragmentCell> fragmentCellAt(const KernelShape &shape, Operand operand, TileCell cell)
{
    const TileCell extent = tileExtent(shape, operand);
    if (cell.row < 0 || cell.col < 0 || cell.row >= extent.row || cell.col >= extent.col)
        return std::nullopt;
    const LayoutScheme &layout = layoutSchemeOf(shape);
    if (operand == Operand::C && layout.tensorCore()) {
        // The lane counts from the unit's first thread: a warpgroup after a producer one starts at 0.
        const FragmentOwner o = fragmentOwnerOf(shape, cell.row, cell.col);
        const int unit = layout.colourUnitThreads();
        return FragmentCell{(o.tid - shape.firstConsumerThread) % unit, o.reg, o.tid / unit,
                            layout.accumulatorRegister()};
    }
    const auto slot = layout.operandFragmentSlot(operand, cell);
    if (!slot)
        return std::nullopt;
    return FragmentCell{slot->lane, slot->reg, -1, operand == Operand::A ? 'a' : 'b'};
}

} // namespace gemmscope
