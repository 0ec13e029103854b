// A profile folded once for every view that shows it: where its time goes, its source lines, its
// instructions' heat, its memory instructions and the hot-spot tables' rows. The views folded it
// themselves, each of them at every show (a selection, a configuration): a profile of 50,000
// instructions held the UI thread seconds each time. Now each stored profile is folded once, the
// first time it is shown, and kept with it; where a session is opened, a worker thread folds its
// large profiles before the window sees them. Immutable once made, so threads share it freely.
#pragma once

#include "profile_analysis.h"
#include "profile_record.h"
#include "profile_tables.h"

#include <QList>
#include <QString>
#include <memory>
#include <mutex>

namespace gemmscope {

struct ProfileDigest {
    // The profile itself: it shares the session's instruction list, which the pointers of `heat`
    // and `memory` point into; that list is never changed, so they stay valid while this lives.
    protocol::ProfileEvent event;
    StallBreakdown breakdown;
    QList<LineProfile> lines; // hottest first (foldOntoLines)
    double unattributedSamples = 0;
    QList<InstructionHeat> heat;       // one per instruction, in the profile's order
    QList<MemoryInstruction> memory;   // memoryInstructions
    QString mainFunction;              // the function most samples fall in
    int functionCount = 0;             // distinct functions
    QList<HotspotRow> lineRows;        // the Source tab's hot lines
    QList<HotspotRow> instructionRows; // the SASS tab's: the main function's, or all when several

    ProfileDigest() = default;
    ProfileDigest(const ProfileDigest &) = delete; // the pointers are into this one's `event`
    ProfileDigest &operator=(const ProfileDigest &) = delete;
};

std::shared_ptr<const ProfileDigest> digestOf(const protocol::ProfileEvent &profile);

// Where a stored profile keeps its digest (StoredProfile::digest, shared by every copy of it): made
// by the first caller, from whichever thread.
class ProfileDigestSlot {
public:
    // `event` is the stored profile's own, never changed once stored.
    std::shared_ptr<const ProfileDigest> digestOf(const protocol::ProfileEvent &event);
    bool isMade() const;

private:
    mutable std::mutex m_mutex;
    std::shared_ptr<const ProfileDigest> m_digest;
};

// The stored profile's digest, made now where it has not been (and kept with it).
std::shared_ptr<const ProfileDigest> digestOf(const StoredProfile &profile);

// Folds the largest of `profiles` now, where a worker thread reads a session: those of real size
// and more, largest first, up to two of the largest GemmScope reads in all (a digest of 50,000
// instructions holds ~80 MB; a file of many large profiles is not folded whole). Showing one of
// them then folds nothing on the UI thread; one left to its first show folds there once, a real
// one in tens of milliseconds.
void foldAhead(const QList<StoredProfile> &profiles);
inline constexpr int kFoldAheadFromInstructions = 2000; // the embedded real ones: 300 to 3,500
inline constexpr qsizetype kFoldAheadBudget = 100000;   // instructions folded ahead in all

} // namespace gemmscope
