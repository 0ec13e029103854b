#include "load_scheme.h"

namespace gemmscope {

std::string LoadScheme::instructionLabel(const KernelShape &, Operand operand, int) const
{
    return "load " + operandName(operand);
}

BankPicture LoadScheme::bankPicture(const KernelShape &shape, const AccessContext &context, int warp) const
{
    BankPicture picture;
    picture.accesses = sharedAccesses(shape, context, warp);
    return picture;
}

} // namespace gemmscope
