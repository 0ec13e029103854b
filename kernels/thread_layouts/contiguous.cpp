// ThreadLayout::Contiguous (naive to double_buffered, vectorized): thread (tx, ty) owns the TM x TN
// micro-tile of rows ty*TM + i and columns tx*TN + j, neighbouring outputs in one thread.
#include "layout_scheme.h"

namespace gemmscope {

namespace {

class Contiguous final : public LayoutScheme {
public:
    Contiguous() : LayoutScheme(ThreadLayout::Contiguous, "contiguous") {}

    int outputRow(const KernelShape &shape, const ThreadCoord &t, int i) const override
    {
        return t.ty * shape.tm + i;
    }
    int outputCol(const KernelShape &shape, const ThreadCoord &t, int j) const override
    {
        return t.tx * shape.tn + j;
    }
    ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const override
    {
        return threadAt(shape, col / shape.tn, row / shape.tm);
    }

    std::string rowExpression(const KernelShape &shape) const override
    {
        return shape.tm == 1 ? "ty" : "ty*TM + i";
    }
    std::string colExpression(const KernelShape &shape) const override
    {
        return shape.tn == 1 ? "tx" : "tx*TN + j";
    }
};

} // namespace

const LayoutScheme &contiguousLayout()
{
    static const Contiguous layout;
    return layout;
}

} // namespace gemmscope
