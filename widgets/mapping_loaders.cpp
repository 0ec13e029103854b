#include "mapping_loaders.h"

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

} // namespace gemmscope
