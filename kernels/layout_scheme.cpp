#include "layout_scheme.h"

namespace gemmscope {

FragmentOwner LayoutScheme::fragmentOwnerOf(const KernelShape &shape, int row, int col) const
{
    // CUDA-core layouts: the register is the thread's accumulator index i*TN + j.
    const ThreadCoord t = ownerOf(shape, row, col);
    int reg = 0;
    for (int i = 0; i < shape.tm; ++i)
        for (int j = 0; j < shape.tn; ++j)
            if (outputRow(shape, t, i) == row && outputCol(shape, t, j) == col)
                reg = i * shape.tn + j;
    return {t.tid, reg, 0, 0, reg};
}

std::vector<int> LayoutScheme::aRowsRead(const KernelShape &shape, const ThreadCoord &thread) const
{
    std::vector<int> rows;
    for (int i = 0; i < shape.tm; ++i)
        rows.push_back(outputRow(shape, thread, i));
    return rows;
}

std::vector<int> LayoutScheme::bColsRead(const KernelShape &shape, const ThreadCoord &thread) const
{
    std::vector<int> cols;
    for (int j = 0; j < shape.tn; ++j)
        cols.push_back(outputCol(shape, thread, j));
    return cols;
}

std::string LayoutScheme::tileMapNote(bool) const
{
    return "C: warp that stores the output; A, B: warp that loads the element";
}

} // namespace gemmscope
