#include "profile_digest.h"

#include <QSet>
#include <algorithm>
#include <numeric>
#include <vector>

namespace gemmscope {

std::shared_ptr<const ProfileDigest> digestOf(const protocol::ProfileEvent &profile)
{
    auto digest = std::make_shared<ProfileDigest>();
    digest->event = profile; // shared, not copied: read through const access only, it never detaches
    const protocol::ProfileEvent &p = digest->event;
    digest->breakdown = stallBreakdown(p);
    digest->lines = foldOntoLines(p, &digest->unattributedSamples);
    digest->heat = instructionHeat(p);
    digest->memory = memoryInstructions(p);
    digest->mainFunction = mainFunction(p);
    QSet<QString> functions;
    for (const protocol::ProfileInstruction &i : p.instructions)
        functions.insert(i.function);
    digest->functionCount = int(functions.size());
    digest->lineRows = hotspotRowsOfLines(digest->lines);
    digest->instructionRows =
        hotspotRowsOfInstructions(digest->heat, functions.size() > 1 ? QString() : digest->mainFunction);
    return digest;
}

std::shared_ptr<const ProfileDigest> ProfileDigestSlot::digestOf(const protocol::ProfileEvent &event)
{
    const std::lock_guard lock(m_mutex); // a second caller waits for the first one's digest
    if (!m_digest)
        m_digest = gemmscope::digestOf(event);
    return m_digest;
}

bool ProfileDigestSlot::isMade() const
{
    const std::lock_guard lock(m_mutex);
    return m_digest != nullptr;
}

std::shared_ptr<const ProfileDigest> digestOf(const StoredProfile &profile)
{
    return profile.digest ? profile.digest->digestOf(profile.event) : digestOf(profile.event);
}

void foldAhead(const QList<StoredProfile> &profiles)
{
    std::vector<qsizetype> order(size_t(profiles.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        return profiles[a].event.instructions.size() > profiles[b].event.instructions.size();
    });
    qsizetype folded = 0;
    for (const qsizetype i : order) {
        const qsizetype instructions = profiles[i].event.instructions.size();
        if (instructions < kFoldAheadFromInstructions || folded + instructions > kFoldAheadBudget)
            break;
        digestOf(profiles[i]);
        folded += instructions;
    }
}

} // namespace gemmscope
