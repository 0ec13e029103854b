#include "mapping_loaders.h"

#include "mma_fragments.h"

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
    if (operand == Operand::C && shape.isTensorCore()) {
        const FragmentOwner o = fragmentOwnerOf(shape, cell.row, cell.col);
        if (shape.layout == ThreadLayout::WgmmaWarpgroups) {
            const int local = o.tid - shape.firstConsumerThread;
            return FragmentCell{local % kWarpgroupThreads, o.reg, o.tid / kWarpgroupThreads, 'd'};
        }
        return FragmentCell{o.tid % kWarpSize, o.reg, o.tid / kWarpSize, 'c'};
    }
    if (shape.layout != ThreadLayout::MmaFragments || operand == Operand::C)
        return std::nullopt;
    // A (BM x BK): m16k8 fragments; B (BK x BN): k8n8 fragments.
    const FragmentSlot slot = operand == Operand::A
                                  ? mmaSlotOf(Operand::A, cell.row % kMmaM, cell.col % kMmaK)
                                  : mmaSlotOf(Operand::B, cell.row % kMmaK, cell.col % kMmaN);
    return FragmentCell{slot.lane, slot.reg, -1, operand == Operand::A ? 'a' : 'b'};
}

} // namespace gemmscope
