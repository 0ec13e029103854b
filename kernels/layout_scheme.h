// A thread layout as one object: which thread owns which output of a block tile (and, for the
// tensor-core layouts, which register of which PTX fragment holds it), what a thread reads of the A
// and B tiles in its inner loop, how the access model writes its index expressions, and what the
// Kernel workspace's tile map draws and says for it. Plain C++20, no Qt: the views' hooks are data
// (numbers, names, sentences), which widgets/ renders.
//
// A KernelShape names its layout by ThreadLayout; layoutScheme() finds the object. Each layout is
// one file in kernels/thread_layouts/ and two lines in kernels/thread_layouts/registry.cpp.
// mapping_model.h (outputRow, outputCol, ownerOf, fragmentOwnerOf, aRowsRead, bColsRead),
// access_model.h (labels, fragment reads) and the tile map ask the layout; nothing else switches on
// ThreadLayout.
#pragma once

#include "mapping_model.h"
#include "mma_fragments.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemmscope {

class LayoutScheme {
public:
    LayoutScheme(ThreadLayout id, std::string name) : m_id(id), m_name(std::move(name)) {}
    virtual ~LayoutScheme() = default;
    LayoutScheme(const LayoutScheme &) = delete;
    LayoutScheme &operator=(const LayoutScheme &) = delete;

    ThreadLayout id() const { return m_id; }
    const std::string &name() const { return m_name; } // "contiguous", for messages and tests

    // ---- The owners (mapping_model.h). ----
    // Row (col) within the C tile of the thread's i-th (j-th) micro-tile row (column), as the
    // kernel's store loop computes it.
    virtual int outputRow(const KernelShape &shape, const ThreadCoord &thread, int i) const = 0;
    virtual int outputCol(const KernelShape &shape, const ThreadCoord &thread, int j) const = 0;
    // The thread that stores C-tile element (row, col), 0 <= row < BM, 0 <= col < BN.
    virtual ThreadCoord ownerOf(const KernelShape &shape, int row, int col) const = 0;
    // Which register of which thread holds the element. By default (CUDA-core layouts) the owner's
    // accumulator index i*TN + j, tiles 0; the tensor-core layouts answer from the PTX tables.
    virtual FragmentOwner fragmentOwnerOf(const KernelShape &shape, int row, int col) const;
    // The rows of the A tile and columns of the B tile an output thread reads in its inner loop: by
    // default its output rows and columns (aFrag[i] = tileA[row(i)][k], bFrag[j] = tileB[k][col(j)]).
    virtual std::vector<int> aRowsRead(const KernelShape &shape, const ThreadCoord &thread) const;
    virtual std::vector<int> bColsRead(const KernelShape &shape, const ThreadCoord &thread) const;

    // ---- The access model (access_model.h). ----
    // The C-tile row and column of output (i, j) as the kernel source writes them, for the labels
    // of C stores and inner-loop reads: "ty*TM + i", "tx + j*16".
    virtual std::string rowExpression(const KernelShape &shape) const = 0;
    virtual std::string colExpression(const KernelShape &shape) const = 0;
    // Whether the inner loop reads the shared tiles as mma.sync fragments (one ld.shared per
    // fragment register, or ldmatrix) instead of a row of A and a column of B per output.
    virtual bool readsMmaFragments() const { return false; }

    // ---- What the views draw and say. ----
    // The outputs sit in a tensor core's accumulator fragments: fragmentOwnerOf's register and
    // tiles are the PTX table's, and the tile map outlines the fragment tiles. Such a layout has no
    // contiguous/strided counterpart of the same parameters to draw side by side.
    virtual bool tensorCore() const { return false; }
    // The C block one colour unit holds (a warp tile, a warpgroup's rows), outlined on the tile map
    // of a tensor-core layout; a side as long as the tile draws no line across it.
    virtual TileCell accumulatorBlock(const KernelShape &shape) const { return {shape.bm, shape.bn}; }
    // The letter of the accumulator registers in the PTX tables: 'c' (mma), 'd' (wgmma).
    virtual char accumulatorRegister() const { return 'c'; }
    // The A and B tiles' elements are held in per-lane register fragments (mma.sync): where element
    // `cell` of the operand lands; nothing for the layouts without operand fragments and for C.
    virtual bool hasOperandFragments() const { return false; }
    virtual std::optional<FragmentSlot> operandFragmentSlot(Operand, TileCell) const { return std::nullopt; }
    // The tensor core reads A and B from shared memory itself (wgmma's descriptors): no thread holds
    // them in registers, and the sentence the tile map says over their tiles.
    virtual bool operandsStayInSharedMemory() const { return false; }
    virtual std::string operandTileNote() const { return {}; }

    // What one colour of the tile map stands for: the warp, or the warpgroup (wgmma's unit of work).
    virtual int colourUnitThreads() const { return kWarpSize; }
    virtual std::string colourUnitName() const { return "warp"; }
    // How many colour units the key names: by default every warp of the block.
    virtual int colourUnitCount(const KernelShape &shape) const { return shape.warps(); }
    // The tensor-core tooltip's words for the owner of an output: where its thread sits in its colour
    // unit (" (warpgroup 1, thread 5 of it)", empty for a warp) and what its register is.
    virtual std::string ownerUnitNote(const KernelShape &, const FragmentOwner &) const { return {}; }
    virtual std::string registerNote(const KernelShape &, const FragmentOwner &) const { return {}; }
    // The sentence under the tile map explaining its colours and labels; `fragmentsShown`: the A and
    // B tiles show operand fragments (hasOperandFragments and the view's switch on).
    virtual std::string tileMapNote(bool fragmentsShown) const;

private:
    ThreadLayout m_id;
    std::string m_name;
};

// The registered object of a layout (kernels/thread_layouts/registry.cpp). Every ThreadLayout has
// one (tst_thread_layouts checks it); an unregistered value gets the contiguous layout's.
const LayoutScheme &layoutScheme(ThreadLayout id);
inline const LayoutScheme &layoutSchemeOf(const KernelShape &shape)
{
    return layoutScheme(shape.layout);
}

} // namespace gemmscope
