// TileLoadScheme::Cooperative (coalesced, worklog step 3 on: loadTilesCoalesced, one float per
// load) and TileLoadScheme::CooperativeVec4 (vectorized, warptiled, pipelined: one float4 per load).
#include "cooperative_loads.h"

namespace gemmscope {

CooperativeFamily::CooperativeFamily(TileLoadScheme id, std::string name, Traits traits)
    : LoadScheme(id, std::move(name)), m_traits(std::move(traits))
{
}

int CooperativeFamily::instructionCount(const KernelShape &shape, Operand operand) const
{
    const TileCell e = tileExtent(shape, operand);
    const int perThread = e.row * e.col / width(shape, operand);
    return (perThread + shape.threads() - 1) / shape.threads();
}

int CooperativeFamily::width(const KernelShape &, Operand operand) const
{
    return operand == Operand::A ? m_traits.widthA : m_traits.widthB;
}

std::optional<TileCell> CooperativeFamily::element(const KernelShape &shape, Operand operand, int instruction,
                                                   const ThreadCoord &thread) const
{
    const TileCell e = tileExtent(shape, operand);
    const int w = width(shape, operand), perRow = e.col / w;
    const int idx = thread.tid + instruction * shape.threads();
    if (idx >= e.row * perRow)
        return std::nullopt;
    return TileCell{idx / perRow, (idx % perRow) * w};
}

std::string CooperativeFamily::instructionLabel(const KernelShape &shape, Operand operand,
                                                int instruction) const
{
    using std::to_string;
    std::string label = m_traits.verb + " " + operandName(operand);
    if (m_traits.namesWidth)
        label += width(shape, operand) == 4 ? " float4" : " float";
    return label + ", pass " + to_string(instruction + 1) + " of " +
           to_string(instructionCount(shape, operand)) + " (idx = tid + " + to_string(instruction) + " x " +
           to_string(shape.threads()) + ")";
}

const LoadScheme &cooperativeLoads()
{
    static const CooperativeFamily scheme(TileLoadScheme::Cooperative, "cooperative", {});
    return scheme;
}

const LoadScheme &cooperativeVec4Loads()
{
    static const CooperativeFamily scheme(TileLoadScheme::CooperativeVec4, "cooperative float4",
                                          {.widthA = 4, .widthB = 4, .namesWidth = true});
    return scheme;
}

} // namespace gemmscope
