// TileLoadScheme::GuardedStrips (coarsened, worklog step 2): the threads with tx < BK load TM rows
// of A, the threads with ty < BK load TN columns of B, one instruction per row or column:
//   if (tx < BK) tileA[ty*TM + i][tx] = A(...);   if (ty < BK) tileB[ty][tx*TN + j] = B(...);
#include "load_scheme.h"

namespace gemmscope {

namespace {

class GuardedStrips final : public LoadScheme {
public:
    GuardedStrips() : LoadScheme(TileLoadScheme::GuardedStrips, "guarded strips") {}

    int instructionCount(const KernelShape &shape, Operand operand) const override
    {
        return operand == Operand::A ? shape.tm : shape.tn;
    }

    std::optional<TileCell> element(const KernelShape &shape, Operand operand, int instruction,
                                    const ThreadCoord &t) const override
    {
        if (operand == Operand::A)
            return t.tx < shape.bk ? std::optional<TileCell>(TileCell{t.ty * shape.tm + instruction, t.tx})
                                   : std::nullopt;
        return t.ty < shape.bk ? std::optional<TileCell>(TileCell{t.ty, t.tx * shape.tn + instruction})
                               : std::nullopt;
    }

    std::string instructionLabel(const KernelShape &, Operand operand, int instruction) const override
    {
        const std::string i = std::to_string(instruction);
        return operand == Operand::A ? "load A into tileA[ty*TM + i][tx] (tx < BK), i = " + i
                                     : "load B into tileB[ty][tx*TN + j] (ty < BK), j = " + i;
    }
};

} // namespace

const LoadScheme &guardedStripLoads()
{
    static const GuardedStrips scheme;
    return scheme;
}

} // namespace gemmscope
