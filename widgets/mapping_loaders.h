// Who loads each element of the A and B tiles, inverted from the mapping model once per shape,
// so the tile map can colour and name loaders without searching every thread per pixel.
#pragma once

#include "mapping_model.h"

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

} // namespace gemmscope
