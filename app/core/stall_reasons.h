// What each PC-sampling stall reason means, in words a GemmScope user reads without the Nsight
// Compute manual open. Keys are the protocol's (CUPTI's smsp__pcsamp_warps_issue_stalled_<key>
// without the prefix; docs/protocol.md "Profile"). This table is the one vocabulary of the window:
// the Source and SASS gutters, the stall legend, the hot-line tables, "Why not cuBLAS?" and the
// glossary all print `name`, and put CUPTI's and Nsight Compute's names in the tooltip
// (stallReasonTooltip). A key this table does not know (a new GPU's reason) still gets a name and
// a sentence, never an empty one.
#pragma once

#include <QList>
#include <QString>

namespace gemmscope {

// The part of the machine a reason points at: the views colour a reason by its group, so that
// memory waits, shared-memory pressure, synchronisation and issue read apart at a glance.
enum class StallGroup { Issuing, Ready, GlobalMemory, SharedMemory, Synchronisation, Math, Frontend, Other };

// The longest name, so that "48 % <name>" fits a gutter of 20 characters (code_heat_edit.cpp).
inline constexpr int kStallNameMaxChars = 14;

struct StallReason {
    QString key;        // "mio_throttle"
    QString name;       // "shared queue": what every view prints, at most kStallNameMaxChars
    QString nsightName; // "MIO Throttle": Nsight Compute's name, for the tooltip
    QString sentence;   // one sentence for tooltips: what the warp waited for
    QString remedy;     // what usually shortens it in a GEMM, a clause ("use larger register tiles")
    StallGroup group = StallGroup::Other;
    bool known = true; // false: a key this table does not describe
    // CUPTI's counter, "smsp__pcsamp_warps_issue_stalled_mio_throttle".
    QString cuptiName() const;
};

// The reason of `key`; for an unknown key, one made from the key itself (name = key, shortened).
StallReason stallReason(const QString &key);
// The name every view prints for `key` (stallReason(key).name).
QString stallReasonName(const QString &key);
// The tooltip every view shows for `key`: the name, the sentence, then CUPTI's and Nsight
// Compute's names ("CUPTI: smsp__pcsamp_warps_issue_stalled_short_scoreboard (Nsight Compute:
// Short Scoreboard)").
QString stallReasonTooltip(const QString &key);
// "shared load (CUPTI: short_scoreboard)": a reason in a tooltip's list of reasons.
QString stallReasonWithCupti(const QString &key);
// Every key the table describes, in the order the views list a legend when shares tie.
const QList<QString> &knownStallReasonKeys();
// A colour for a reason (0xRRGGBB), one per key, grouped by hue (memory blues, shared oranges...).
unsigned stallReasonColor(const QString &key);

} // namespace gemmscope
