// Who loads each element of the A and B tiles, inverted from the mapping model once per shape,
// so the tile map can colour and name loaders without searching every thread per pixel.
#pragma once

#include "mapping_model.h"

#include <QString>
#include <optional>
#include <vector>

namespace gemmscope {

struct TileLoaders {
    TileCell extent;
    std::vector<int> first; // row-major: the lowest thread id that loads the element, -1 if none
    std::vector<int> count; // how many threads load it (naive: a whole row or column of threads)

    int firstAt(TileCell c) const { return first[std::size_t(c.row * extent.col + c.col)]; }
    int countAt(TileCell c) const { return count[std::size_t(c.row * extent.col + c.col)]; }
};

TileLoaders tileLoaders(const KernelShape &shape, Operand operand);

// Tensor-core fragments: which lane (wgmma: thread of the warpgroup) and which PTX register holds an
// element, for the tile map's labels and key. C: the accumulator owner (fragmentOwnerOf). A and B
// (mma.sync only; wgmma reads them from shared memory): the m16n8k8 fragment the element lands in,
// held by that lane of every warp whose warp tile spans the element's rows (A) or columns (B).
struct FragmentCell {
    int lane = 0; // lane in its warp (mma), thread in its warpgroup (wgmma)
    int reg = 0;
    int group = 0;        // the warp (mma C) or warpgroup (wgmma C) whose register it is; -1 for A and B
    char name = 'c';      // register letter of the PTX table: 'a', 'b', 'c' (mma C) or 'd' (wgmma D)
    QString text() const; // "l5 c3", "t37 d5"
};
std::optional<FragmentCell> fragmentCellAt(const KernelShape &shape, Operand operand, TileCell cell);

} // namespace gemmscope
