#include "stall_reasons.h"

#include <QHash>

namespace gemmscope {

namespace {

struct Entry {
    const char *key, *name, *nsightName, *sentence, *remedy;
    StallGroup group;
    unsigned color;
};

// The Nsight Compute Kernel Profiling Guide, "Warp Stall Reasons" (the smsp__pcsamp_* names),
// in the words of a GEMM reader: a short name the views print (at most kStallNameMaxChars, so a
// gutter never cuts it), Nsight Compute's name, a sentence, and what usually shortens the stall in
// a GEMM kernel (for "Why not cuBLAS?"). Colours by group so related reasons share a hue.
constexpr Entry kEntries[] = {
    {"selected", "issuing", "Selected",
     "The warp was picked by the scheduler and issued an instruction: time spent working, not waiting.",
     "nothing to shorten: this is the warp working", StallGroup::Issuing, 0x2ca02c},
    {"not_selected", "ready", "Not Selected",
     "The warp was ready, but the scheduler issued another warp's instruction that cycle: there are "
     "enough eligible warps to hide latency.",
     "nothing to shorten: another warp used the cycle", StallGroup::Ready, 0x98df8a},
    {"long_scoreboard", "global load", "Long Scoreboard",
     "The warp waited for the result of an L1TEX operation (global, local, texture or surface memory), "
     "most often a global load on its way back from L2 or DRAM.",
     "load the next tile earlier (double buffering, cp.async) or keep more warps resident to hide the wait",
     StallGroup::GlobalMemory, 0x1f77b4},
    {"lg_throttle", "global queue", "LG Throttle",
     "The warp waited for room in the L1 queue of local and global memory instructions: too many of them "
     "in flight (narrow loads, spills).",
     "issue fewer, wider global loads (128-bit) and avoid spills", StallGroup::GlobalMemory, 0x6baed6},
    {"drain", "store drain", "Drain",
     "The warp had exited and waited for its outstanding memory writes to complete before its resources "
     "were freed.",
     "write C in fewer, wider, coalesced stores", StallGroup::GlobalMemory, 0x9ecae1},
    {"tex_throttle", "texture queue", "Tex Throttle",
     "The warp waited for room in the L1 queue of texture operations.", "issue fewer texture operations",
     StallGroup::GlobalMemory, 0xc6dbef},
    {"mio_throttle", "shared queue", "MIO Throttle",
     "The warp waited for room in the MIO (memory input/output) instruction queue, which takes shared-memory "
     "instructions, special math and dynamic branches: for a GEMM, too many shared-memory loads.",
     "issue fewer shared-memory instructions: wider (128-bit) shared loads, larger register tiles, no bank "
     "conflicts",
     StallGroup::SharedMemory, 0xff7f0e},
    {"short_scoreboard", "shared load", "Short Scoreboard",
     "The warp waited for the result of an MIO operation (not L1TEX): most often a shared-memory load, "
     "also special math (MUFU) or a dynamic branch.",
     "read shared memory less often per FMA (larger register tiles, 128-bit loads) and remove bank conflicts",
     StallGroup::SharedMemory, 0xffbb78},
    {"barrier", "barrier", "Barrier",
     "The warp waited at a block-wide barrier for the other warps of its block to arrive.",
     "synchronise less often: a larger BK, or more pipeline stages between barriers",
     StallGroup::Synchronisation, 0xd62728},
    {"membar", "memory fence", "Membar",
     "The warp waited on a memory barrier (a fence) for its earlier memory operations to become visible.",
     "fence less often, or with a narrower scope", StallGroup::Synchronisation, 0xff9896},
    {"warpgroup_arrive", "wgmma arrive", "Warpgroup Arrive",
     "The warp waited at a WARPGROUP.ARRIVES or WARPGROUP.WAIT instruction: for wgmma, the asynchronous "
     "tensor-core work it depends on.",
     "keep more stages in flight so the tensor core has the next tile ready", StallGroup::Math, 0x9467bd},
    {"gmma", "wgmma wait", "GMMA",
     "The warp waited for an asynchronous warpgroup matrix multiply (wgmma) to make progress.",
     "keep more stages in flight so the tensor core has the next tile ready", StallGroup::Math, 0xc5b0d5},
    {"math_pipe_throttle", "math pipe busy", "Math Pipe Throttle",
     "The warp's next instruction needed an execution pipe (FMA, tensor, ...) that was busy with other "
     "warps' "
     "instructions.",
     "nothing but fewer instructions on that pipe: the pipe is already the limit", StallGroup::Math,
     0x8c564b},
    {"wait", "fixed latency", "Wait",
     "The warp waited a fixed number of cycles for a result of an earlier instruction with a known latency "
     "(an FFMA's, an integer op's).",
     "put more independent instructions between dependent ones (larger register tiles, interleaved loads)",
     StallGroup::Math, 0xc49c94},
    {"dispatch_stall", "dispatch", "Dispatch Stall",
     "The warp had an instruction ready, but the dispatcher held it back for a conflict or event in the "
     "pipeline.",
     "change the instruction mix the compiler schedules (another TM x TN, unroll factor or register count)",
     StallGroup::Frontend, 0xe377c2},
    {"no_instructions", "i-cache miss", "No Instructions",
     "The warp had no instruction fetched: an instruction-cache miss, or waiting to be picked for a fetch "
     "(common right after a branch or in very short kernels).",
     "unroll less (a smaller inner loop, fewer #pragma unroll) so the hot loop fits the instruction cache",
     StallGroup::Frontend, 0xf7b6d2},
    {"branch_resolving", "branch", "Branch Resolving",
     "The warp waited for a branch target to be computed and its program counter to be updated.",
     "take branches out of the inner loop (unroll it, hoist the bounds checks)", StallGroup::Frontend,
     0xbcbd22},
    {"imc_miss", "constant miss", "IMC Miss",
     "The warp waited for a miss in the immediate constant cache (kernel parameters, c[bank][offset]) "
     "to be served.",
     "read fewer distinct constants in the hot loop", StallGroup::Frontend, 0xdbdb8d},
    {"sleeping", "sleeping", "Sleeping",
     "All the warp's threads were blocked, yielded or asleep (NANOSLEEP).", "sleep or yield less",
     StallGroup::Other, 0x7f7f7f},
    {"misc", "other", "Misc", "The warp was stalled for a miscellaneous hardware reason.",
     "see Nsight Compute for the detail", StallGroup::Other, 0xc7c7c7},
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

QString StallReason::cuptiName() const
{
    return QStringLiteral("smsp__pcsamp_warps_issue_stalled_") + key;
}

StallReason stallReason(const QString &key)
{
    if (const Entry *e = entriesByKey().value(key)) {
        return {QString::fromLatin1(e->key),
                QString::fromLatin1(e->name),
                QString::fromLatin1(e->nsightName),
                QString::fromLatin1(e->sentence),
                QString::fromLatin1(e->remedy),
                e->group,
                true};
    }
    // A reason this GemmScope does not know (a newer GPU's): its name stands, said as unknown, cut
    // to the length every name keeps (the tooltip holds the whole key).
    QString name = key.isEmpty() ? QStringLiteral("(unnamed)") : key;
    name.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (name.size() > kStallNameMaxChars)
        name = name.left(kStallNameMaxChars - 1) + QChar(0x2026);
    return {key,
            name,
            QString(),
            QStringLiteral(
                "A stall reason GemmScope does not describe (\"%1\"): see the Nsight Compute Profiling "
                "Guide's Warp Stall Reasons.")
                .arg(key),
            QStringLiteral("see the Nsight Compute Profiling Guide"),
            StallGroup::Other,
            false};
}

QString stallReasonName(const QString &key)
{
    return stallReason(key).name;
}

QString stallReasonTooltip(const QString &key)
{
    const StallReason r = stallReason(key);
    QString tip = QStringLiteral("%1: %2\nCUPTI: %3").arg(r.name, r.sentence, r.cuptiName());
    if (!r.nsightName.isEmpty())
        tip += QStringLiteral(" (Nsight Compute: %1)").arg(r.nsightName);
    return tip;
}

QString stallReasonWithCupti(const QString &key)
{
    return QStringLiteral("%1 (CUPTI: %2)").arg(stallReasonName(key), key);
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
