// The cooperative family of load schemes: the block's linear thread id strides through each tile,
// `width` floats per instruction:
//   for (idx = tid; idx < rows*cols/width; idx += threads)
//       r = idx / (cols/width), c = (idx % (cols/width))*width;
// as loads into registers then stores (Cooperative, CooperativeVec4: cooperative_loads.cpp) or as
// cp.async copies (AsyncCopies, AsyncCopiesVec4: async_copies.cpp).
#pragma once

#include "load_scheme.h"

namespace gemmscope {

class CooperativeFamily : public LoadScheme {
public:
    struct Traits {
        int widthA = 1, widthB = 1; // floats per instruction of each tile
        bool namesWidth = false;    // labels say "float" / "float4"
        std::string verb = "load";  // "load" or "cp.async"
    };
    CooperativeFamily(TileLoadScheme id, std::string name, Traits traits);

    int instructionCount(const KernelShape &shape, Operand operand) const override;
    int width(const KernelShape &, Operand operand) const override;
    std::optional<TileCell> element(const KernelShape &shape, Operand operand, int instruction,
                                    const ThreadCoord &thread) const override;
    std::string instructionLabel(const KernelShape &shape, Operand operand, int instruction) const override;

private:
    Traits m_traits;
};

} // namespace gemmscope
