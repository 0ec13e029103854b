// The cp.async schemes: the cooperative family's strides, each element copied global -> shared by
// the copy path (LDGSTS) without passing a register and without a shared store instruction.
//   TileLoadScheme::AsyncCopies (async_pipelined): A one float per copy, B four.
//   TileLoadScheme::AsyncCopiesVec4 (the mma.sync stages): both tiles 16 bytes per copy, into
//   row-major tiles padded by padA / padB floats per row.
#include "cooperative_loads.h"

namespace gemmscope {

namespace {

class AsyncCopyScheme final : public CooperativeFamily {
public:
    AsyncCopyScheme(TileLoadScheme id, std::string name, int widthA)
        : CooperativeFamily(id, std::move(name),
                            {.widthA = widthA, .widthB = 4, .namesWidth = true, .verb = "cp.async"})
    {
    }

    bool tileStoresAreInstructions() const override { return false; }

    CounterNotes counterNotes(const KernelShape &, const AccessContext &) const override
    {
        CounterNotes notes;
        notes.sharedStoresUncounted = "cp.async writes the tiles without a store instruction (LDGSTS): no "
                                      "shared store to divide by; the model gives its bank use";
        return notes;
    }
};

} // namespace

const LoadScheme &asyncCopies()
{
    static const AsyncCopyScheme scheme(TileLoadScheme::AsyncCopies, "cp.async, A by floats", 1);
    return scheme;
}

const LoadScheme &asyncCopiesVec4()
{
    static const AsyncCopyScheme scheme(TileLoadScheme::AsyncCopiesVec4, "cp.async float4", 4);
    return scheme;
}

} // namespace gemmscope
