// ThreadLayout::Strided (strided, final): thread (tx, ty) owns rows ty + i*(BM/TM) and columns
// tx + j*(BN/TN), so that a warp's stores of one (i, j) touch neighbouring columns.
#include "layout_scheme.h"

#include <string>

namespace gemmscope {

namespace {

class Strided final : public LayoutScheme {
public:
    Strided() : LayoutScheme(ThreadLayout::Strided, "strided") {}

    int outputRow(const KernelShape &shape, const ThreadCoord &t, int i) const override
    {
        return t.ty + i * shape.blockY;
    }
    int outputCol(const KernelShape &shape, const ThreadCoord &t, int j) const override
    {
        return t.tx + j * shape.blockX;
    }
    ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const override
    {
        return threadAt(shape, col % shape.blockX, row % shape.blockY);
    }

    std::string rowExpression(const KernelShape &shape) const override
    {
        return shape.tm == 1 ? "ty" : "ty + i*" + std::to_string(shape.blockY);
    }
    std::string colExpression(const KernelShape &shape) const override
    {
        return shape.tn == 1 ? "tx" : "tx + j*" + std::to_string(shape.blockX);
    }
};

} // namespace

const LayoutScheme &stridedLayout()
{
    static const Strided layout;
    return layout;
}

} // namespace gemmscope
