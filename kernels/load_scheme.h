// A load scheme as one object: how the A and B tiles of a block reach shared memory (which tile
// element each thread loads at each instruction, or a copy engine's boxes), what of it the access
// model describes, and what the Kernel workspace's views draw and say for it. Plain C++20, no Qt:
// the views' hooks are data (accesses to list, sentences), which widgets/ renders.
//
// A KernelShape names its scheme by TileLoadScheme; loadScheme() finds the object. Each scheme is
// one file in kernels/load_schemes/ and two lines in kernels/load_schemes/registry.cpp.
// mapping_model.h (loadInstructionCount, loadWidth, loadedElement) and access_model.h (labels,
// refusals, shared accesses, instruction counts, tmaBoxes) ask the scheme; nothing else switches on
// TileLoadScheme.
#pragma once

#include "access_model.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemmscope {

// What the Bank conflicts view lists for a shape and warp.
struct BankPicture {
    std::vector<SharedAccess> accesses;
    // The swizzle view (the TMA boxes of the k tile, one atom swizzled and not) goes above the list,
    // its outlined chunk following the chosen access (entry i < kSwizzleChunks: chunk i; after: 0).
    bool swizzleAtoms = false;
    std::optional<std::pair<int, int>> comparePair; // two entries drawn side by side from the start
};

// What the Counters view (AccessCheckView) says of a scheme beside its numbers: plain sentences.
struct CounterNotes {
    // Where the model's per-request value comes from when it is not the lanes' own accesses, for
    // the rows global loads, global stores, shared reads and shared stores; empty: the lanes'.
    std::array<std::string, 4> perRequest;
    bool explainsPerRequest() const
    {
        return std::any_of(perRequest.begin(), perRequest.end(),
                           [](const std::string &n) { return !n.empty(); });
    }
    // The kernel's own shared reads stay as the source writes them (nothing for ptxas to merge).
    bool sharedReadsAsWritten = false;
    // Set when the kernel itself makes no shared access, so that a launch's shared instruction
    // counts are its B transpose's alone: what the kernel's own count is ("the TMA kernel's own: 0").
    std::string kernelOwnSharedCount;
    // Why the tiles' shared stores have no store instruction to count (cp.async); empty: they have.
    std::string sharedStoresUncounted;
    // What the scheme does that none of the counters read sees, one row each.
    struct Row {
        std::string quantity, model, note;
    };
    std::vector<Row> unobserved;
};

class LoadScheme {
public:
    LoadScheme(TileLoadScheme id, std::string name) : m_id(id), m_name(std::move(name)) {}
    virtual ~LoadScheme() = default;
    LoadScheme(const LoadScheme &) = delete;
    LoadScheme &operator=(const LoadScheme &) = delete;

    TileLoadScheme id() const { return m_id; }
    const std::string &name() const { return m_name; } // "cooperative", for messages and tests

    // ---- The mapping (mapping_model.h). `operand` is A or B: C is never asked. ----
    // Load instructions a thread executes per k-step for the tile, counting those a guard switches off.
    virtual int instructionCount(const KernelShape &shape, Operand operand) const = 0;
    // Floats one load instruction moves per thread: 4 for 128-bit loads.
    virtual int width(const KernelShape &, Operand) const { return 1; }
    // The tile element the thread loads at `instruction` (0 <= instruction < instructionCount),
    // or nothing when a guard switches it off.
    virtual std::optional<TileCell> element(const KernelShape &shape, Operand operand, int instruction,
                                            const ThreadCoord &thread) const = 0;

    // ---- The access model (access_model.h). ----
    // Why the access model has no lane accesses for the shape, as a sentence; empty when it has.
    virtual std::string notModelledReason(const KernelShape &) const { return {}; }
    // What a load instruction of the tile does, as the source writes it: "load A, pass 1 of 2 (...)".
    virtual std::string instructionLabel(const KernelShape &, Operand operand, int instruction) const;
    // Whether lanes store the tiles and read them back (false: a copy engine fills them and the
    // tensor core reads them through descriptors; no lane touches shared memory).
    virtual bool lanesAccessSharedTiles() const { return true; }
    // Whether the lanes' tile stores are store instructions the hardware counts (false for cp.async,
    // whose copies write shared memory without one).
    virtual bool tileStoresAreInstructions() const { return true; }
    // The copy engine's boxes for the context's k tile (tmaBoxes()); none for lane loads.
    virtual std::vector<TmaBox> tileCopies(const KernelShape &, const AccessContext &) const { return {}; }

    // ---- What the views draw and say. ----
    // Thread (tx, ty) loads tile element (ty, tx) and owns one output: the tile map has no
    // micro-tile to draw contiguous and strided side by side.
    virtual bool onePerThread() const { return false; }
    // The Bank conflicts view's entries: by default the lanes' sharedAccesses() of the warp.
    virtual BankPicture bankPicture(const KernelShape &shape, const AccessContext &context, int warp) const;
    // The Counters view's sentences for a run at the context's size.
    virtual CounterNotes counterNotes(const KernelShape &, const AccessContext &) const { return {}; }
    // The coalescing view's note for stages loading this way, where a stage has none of its own.
    virtual std::string coalescingNote() const { return {}; }

private:
    TileLoadScheme m_id;
    std::string m_name;
};

// The registered object of a scheme (kernels/load_schemes/registry.cpp). Every TileLoadScheme has
// one (tst_load_schemes checks it); an unregistered value gets the NotModelled scheme's, which draws
// owners but refuses accesses with a sentence.
const LoadScheme &loadScheme(TileLoadScheme id);
inline const LoadScheme &loadSchemeOf(const KernelShape &shape)
{
    return loadScheme(shape.loads);
}

} // namespace gemmscope
