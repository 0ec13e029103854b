// TileLoadScheme::NotModelled: a stage whose owners are modelled but whose loads are not (wgmma_tf32's
// cp.async into swizzled tiles): no thread loads anything the models know of, and the access model
// refuses with a sentence instead of drawing something untrue.
#include "layout_scheme.h"
#include "load_scheme.h"

namespace gemmscope {

namespace {

class NotModelled final : public LoadScheme {
public:
    NotModelled() : LoadScheme(TileLoadScheme::NotModelled, "not modelled") {}

    int instructionCount(const KernelShape &, Operand) const override { return 0; }
    std::optional<TileCell> element(const KernelShape &, Operand, int, const ThreadCoord &) const override
    {
        return std::nullopt;
    }

    std::string notModelledReason(const KernelShape &shape) const override
    {
        const std::string &title = stageInfo(shape.stage).title;
        if (layoutSchemeOf(shape).operandsStayInSharedMemory())
            return "The tiles of \"" + title +
                   "\" are read by wgmma through shared-memory descriptors, not by per-lane loads, and the "
                   "copies that fill them are not modelled yet: there are no lane addresses to draw.";
        return "The memory accesses of \"" + title +
               "\" are not modelled yet: its loads use a scheme the access model does not describe.";
    }
};

} // namespace

const LoadScheme &notModelledLoads()
{
    static const NotModelled scheme;
    return scheme;
}

} // namespace gemmscope
