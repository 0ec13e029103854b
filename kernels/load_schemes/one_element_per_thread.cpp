// TileLoadScheme::OneElementPerThread (naive, smem_tiled): thread (tx, ty) loads element (ty, tx)
// of each tile, one instruction per operand. smem_tiled: tileA[ty][tx] = A(row, t*TILE + tx),
// tileB[ty][tx] = B(t*TILE + ty, col). The naive kernel has no tiles: its "A tile" is the column of
// A its threads read at one k (row ty), its "B tile" the row of B (column tx).
#include "load_scheme.h"

namespace gemmscope {

namespace {

class OneElementPerThread final : public LoadScheme {
public:
    OneElementPerThread() : LoadScheme(TileLoadScheme::OneElementPerThread, "one element per thread") {}

    int instructionCount(const KernelShape &, Operand) const override { return 1; }

    std::optional<TileCell> element(const KernelShape &shape, Operand operand, int,
                                    const ThreadCoord &t) const override
    {
        if (shape.usesSharedMemory)
            return TileCell{t.ty, t.tx};
        return operand == Operand::A ? TileCell{t.ty, 0} : TileCell{0, t.tx};
    }

    std::string instructionLabel(const KernelShape &shape, Operand operand, int) const override
    {
        if (!shape.usesSharedMemory)
            return operand == Operand::A ? "load A[row*K + k]" : "load B[k*N + col]";
        const std::string name = operandName(operand);
        return "load " + name + " into tile" + name + "[ty][tx]";
    }

    bool onePerThread() const override { return true; }
};

} // namespace

const LoadScheme &oneElementPerThreadLoads()
{
    static const OneElementPerThread scheme;
    return scheme;
}

} // namespace gemmscope
