// TileLoadScheme::TmaSwizzled128 (wgmma_tma_tf32): no thread loads anything. Per k tile one
// producer thread has the Tensor Memory Accelerator copy a box of BM x 32 floats of A and one of
// BN x 32 of BT into the stage's tiles, each 128-byte row stored with the 128-byte swizzle (16-byte
// chunk q of row r at chunk q ^ (r % 8)); wgmma reads the tiles through descriptors. What is
// modelled is the boxes and the swizzle (access_model.h), not lanes; the views draw those instead.
#include "load_scheme.h"

namespace gemmscope {

namespace {

class TmaSwizzled128 final : public LoadScheme {
public:
    TmaSwizzled128() : LoadScheme(TileLoadScheme::TmaSwizzled128, "TMA, 128-byte swizzle") {}

    // The copy engine loads: no thread has a load instruction.
    int instructionCount(const KernelShape &, Operand) const override { return 0; }
    std::optional<TileCell> element(const KernelShape &, Operand, int, const ThreadCoord &) const override
    {
        return std::nullopt;
    }

    // TMA fills the tiles and wgmma reads them: no lane touches shared memory, and the copies are
    // no store instructions.
    bool lanesAccessSharedTiles() const override { return false; }
    bool tileStoresAreInstructions() const override { return false; }

    std::vector<TmaBox> tileCopies(const KernelShape &shape, const AccessContext &ctx) const override
    {
        const TileOrigin o = tileOrigin(shape, ctx);
        const long long aStage = (long long)shape.bm * shape.bk * kFloatBytes;
        const long long btStage = (long long)shape.bn * shape.bk * kFloatBytes;
        // wgmma_tma_tf32.cuh: STAGES A tiles, then STAGES BT tiles, from the 1024-byte aligned base.
        TmaBox a{Operand::A, "A", shape.bm, shape.bk, o.bRow, o.k0, o.buffer, o.buffer * aStage};
        TmaBox bt{Operand::B, "BT", shape.bn, shape.bk,
                  o.bCol,     o.k0, o.buffer, shape.buffers * aStage + o.buffer * btStage};
        return {a, bt};
    }

    // No lane reads or writes the tiles: what the tensor core asks of the banks instead, each k
    // chunk of an atom's 8 rows (entries 0..7, the swizzle view's outline), then chunk 0 unswizzled,
    // shown beside chunk 0 swizzled.
    BankPicture bankPicture(const KernelShape &, const AccessContext &, int) const override
    {
        BankPicture picture;
        for (int chunk = 0; chunk < kSwizzleChunks; ++chunk)
            picture.accesses.push_back(tensorCoreChunkRead(chunk, true));
        picture.accesses.push_back(tensorCoreChunkRead(0, false));
        picture.swizzleAtoms = true;
        picture.comparePair = std::pair{0, kSwizzleChunks};
        return picture;
    }

    CounterNotes counterNotes(const KernelShape &shape, const AccessContext &ctx) const override
    {
        CounterNotes notes;
        const std::string transposeOnly =
            "all from the B transpose run in the same launch (transpose.cuh); the "
            "TMA kernel itself issues none";
        notes.perRequest = {"the B transpose's loads alone: TMA copies are not LSU requests",
                            "C stores from registers, and the B transpose's stores of BT", transposeOnly,
                            transposeOnly};
        notes.sharedReadsAsWritten = true;
        notes.kernelOwnSharedCount = "the TMA kernel's own: 0";
        const std::vector<TmaBox> boxes = tileCopies(shape, ctx);
        using std::to_string;
        notes.unobserved.push_back(
            {"TMA tile copies (per k tile)",
             "A " + to_string(boxes[0].rows) + "×" + to_string(boxes[0].cols) + " + BT " +
                 to_string(boxes[1].rows) + "×" + to_string(boxes[1].cols) + " floats, " +
                 to_string((boxes[0].bytes() + boxes[1].bytes()) / 1024) + " KiB, 128-byte swizzle",
             "bulk tensor copies of the TMA unit are not LSU requests: none of the counters read here counts "
             "them (the tile map's traffic model gives their bytes)"});
        notes.unobserved.push_back(
            {"Tensor-core reads of the tiles (wgmma)",
             "1 wavefront per 8-row k chunk (swizzled: all 32 banks once)",
             "wgmma reads shared memory through descriptors, outside the LSU pipe: not in the shared-memory "
             "counters above (the Bank conflicts tab draws the swizzle)"});
        return notes;
    }

    std::string coalescingNote() const override
    {
        return "Only the C stores are lane accesses here: no lane loads A or B. Per k tile one producer "
               "thread has the TMA unit copy a box of A and one of BT into shared memory (the Bank "
               "conflicts tab shows the boxes and their 128-byte swizzle).";
    }
};

} // namespace

const LoadScheme &tmaSwizzled128Copies()
{
    static const TmaSwizzled128 scheme;
    return scheme;
}

} // namespace gemmscope
