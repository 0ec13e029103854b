#include "stall_reasons.h"

#include <QHash>

namespace gemmscope {

namespace {

struct Entry {
    const char *key, *label, *words, *sentence;
    StallGroup group;
    unsigned color;
};

// The Nsight Compute Kernel Profiling Guide, "Warp Stall Reasons" (the smsp__pcsamp_* names),
// in the words of a GEMM reader; colours by group so related reasons share a hue.
constexpr Entry kEntries[] = {
    {"selected", "Selected", "issuing",
     "The warp was picked by the scheduler and issued an instruction: time spent working, not waiting.",
     StallGroup::Issuing, 0x2ca02c},
    {"not_selected", "Not selected", "ready, another warp issued (a sign of enough parallelism)",
     "The warp was ready, but the scheduler issued another warp's instruction that cycle: there are "
     "enough eligible warps to hide latency.",
     StallGroup::Ready, 0x98df8a},
    {"long_scoreboard", "Long scoreboard", "waiting for a global/local memory load (L1TEX)",
     "The warp waited for the result of an L1TEX operation (global, local, texture or surface memory), "
     "most often a global load on its way back from L2 or DRAM.",
     StallGroup::GlobalMemory, 0x1f77b4},
    {"lg_throttle", "LG throttle", "global/local memory queue full",
     "The warp waited for room in the L1 queue of local and global memory instructions: too many of them "
     "in flight (narrow loads, spills).",
     StallGroup::GlobalMemory, 0x6baed6},
    {"drain", "Drain", "draining stores after exit",
     "The warp had exited and waited for its outstanding memory writes to complete before its resources "
     "were freed.",
     StallGroup::GlobalMemory, 0x9ecae1},
    {"tex_throttle", "Tex throttle", "texture queue full",
     "The warp waited for room in the L1 queue of texture operations.", StallGroup::GlobalMemory, 0xc6dbef},
    {"mio_throttle", "MIO throttle", "shared-memory/MIO queue full",
     "The warp waited for room in the MIO (memory input/output) instruction queue, which takes shared-memory "
     "instructions, special math and dynamic branches: for a GEMM, too many shared-memory loads.",
     StallGroup::SharedMemory, 0xff7f0e},
    {"short_scoreboard", "Short scoreboard", "waiting for a shared-memory load or special math",
     "The warp waited for the result of an MIO operation (not L1TEX): most often a shared-memory load, "
     "also special math (MUFU) or a dynamic branch.",
     StallGroup::SharedMemory, 0xffbb78},
    {"barrier", "Barrier", "waiting at __syncthreads()",
     "The warp waited at a block-wide barrier for the other warps of its block to arrive.",
     StallGroup::Synchronisation, 0xd62728},
    {"membar", "Membar", "waiting at a memory fence",
     "The warp waited on a memory barrier (a fence) for its earlier memory operations to become visible.",
     StallGroup::Synchronisation, 0xff9896},
    {"warpgroup_arrive", "Warpgroup arrive", "waiting for the tensor core (wgmma)",
     "The warp waited at a WARPGROUP.ARRIVES or WARPGROUP.WAIT instruction: for wgmma, the asynchronous "
     "tensor-core work it depends on.",
     StallGroup::Math, 0x9467bd},
    {"gmma", "GMMA", "waiting for the tensor core (wgmma)",
     "The warp waited for an asynchronous warpgroup matrix multiply (wgmma) to make progress.",
     StallGroup::Math, 0xc5b0d5},
    {"math_pipe_throttle", "Math pipe throttle", "math pipe busy",
     "The warp's next instruction needed an execution pipe (FMA, tensor, ...) that was busy with other "
     "warps' "
     "instructions.",
     StallGroup::Math, 0x8c564b},
    {"wait", "Wait", "fixed-latency dependency",
     "The warp waited a fixed number of cycles for a result of an earlier instruction with a known latency "
     "(an FFMA's, an integer op's).",
     StallGroup::Math, 0xc49c94},
    {"dispatch_stall", "Dispatch stall", "dispatcher held the warp back",
     "The warp had an instruction ready, but the dispatcher held it back for a conflict or event in the "
     "pipeline.",
     StallGroup::Frontend, 0xe377c2},
    {"no_instructions", "No instructions", "instruction cache miss / no instruction",
     "The warp had no instruction fetched: an instruction-cache miss, or waiting to be picked for a fetch "
     "(common right after a branch or in very short kernels).",
     StallGroup::Frontend, 0xf7b6d2},
    {"branch_resolving", "Branch resolving", "resolving a branch",
     "The warp waited for a branch target to be computed and its program counter to be updated.",
     StallGroup::Frontend, 0xbcbd22},
    {"imc_miss", "IMC miss", "constant-cache miss",
     "The warp waited for a miss in the immediate constant cache (kernel parameters, c[bank][offset]) "
     "to be served.",
     StallGroup::Frontend, 0xdbdb8d},
    {"sleeping", "Sleeping", "sleeping (nanosleep / yield)",
     "All the warp's threads were blocked, yielded or asleep (NANOSLEEP).", StallGroup::Other, 0x7f7f7f},
    {"misc", "Misc", "other hardware reason", "The warp was stalled for a miscellaneous hardware reason.",
     StallGroup::Other, 0xc7c7c7},
};

const QHash<QString, const Entry *> &entriesByKey()
{
    static const QHash<QString, const Entry *> byKey = [] {
        QHash<QString, const Entry *> map;
        for (const Entry &e : kEntries)
            map.insert(QString::fromLatin1(e.key), &e);
        return map;
    }();
    return byKey;
}

} // namespace

StallReason stallReason(const QString &key)
{
    if (const Entry *e = entriesByKey().value(key)) {
        return {QString::fromLatin1(e->key),
                QString::fromLatin1(e->label),
                QString::fromLatin1(e->words),
                QString::fromLatin1(e->sentence),
                e->group,
                true};
    }
    // A reason this GemmScope does not know (a newer GPU's): its name stands, said as unknown.
    QString label = key.isEmpty() ? QStringLiteral("(unnamed)") : key;
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    return {key,
            label,
            label,
            QStringLiteral(
                "A stall reason GemmScope does not describe (\"%1\"): see the Nsight Compute Profiling "
                "Guide's Warp Stall Reasons.")
                .arg(key),
            StallGroup::Other,
            false};
}

const QList<QString> &knownStallReasonKeys()
{
    static const QList<QString> keys = [] {
        QList<QString> list;
        for (const Entry &e : kEntries)
            list << QString::fromLatin1(e.key);
        return list;
    }();
    return keys;
}

unsigned stallReasonColor(const QString &key)
{
    if (const Entry *e = entriesByKey().value(key))
        return e->color;
    // Unknown keys: a grey whose shade follows the key, so two unknown reasons still differ.
    const unsigned shade = 0x90 + (qHash(key) % 0x40);
    return (shade << 16) | (shade << 8) | shade;
}

} // namespace gemmscope
