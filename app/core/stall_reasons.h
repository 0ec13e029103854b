// What each PC-sampling stall reason means, in words a GemmScope user reads without the Nsight
// Compute manual open. Keys are the protocol's (CUPTI's smsp__pcsamp_warps_issue_stalled_<key>
// without the prefix; docs/protocol.md "Profile"). The words follow the Nsight Compute Kernel
// Profiling Guide's "Warp Stall Reasons" table, shortened; a key this table does not know (a new
// GPU's reason) still gets a label and a sentence, never an empty one.
#pragma once

#include <QList>
#include <QString>

namespace gemmscope {

// The part of the machine a reason points at: the views colour a reason by its group, so that
// memory waits, shared-memory pressure, synchronisation and issue read apart at a glance.
enum class StallGroup { Issuing, Ready, GlobalMemory, SharedMemory, Synchronisation, Math, Frontend, Other };

struct StallReason {
    QString key;      // "mio_throttle"
    QString label;    // "MIO throttle": Nsight Compute's name
    QString words;    // "shared-memory/MIO queue full": what the views print
    QString sentence; // one sentence for tooltips: what the warp waited for
    StallGroup group = StallGroup::Other;
    bool known = true; // false: a key this table does not describe
};

// The reason of `key`; for an unknown key, one made from the key itself (label = key).
StallReason stallReason(const QString &key);
// Every key the table describes, in the order the views list a legend when shares tie.
const QList<QString> &knownStallReasonKeys();
// A colour for a reason (0xRRGGBB), one per key, grouped by hue (memory blues, shared oranges...).
unsigned stallReasonColor(const QString &key);

} // namespace gemmscope
