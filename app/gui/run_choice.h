// Which run a view should explain when the user has chosen none: the Counters workspace on first
// visit and the headless render pick a finished run whose hardware counters were read and whose
// stage the access model describes, so that the page compares something instead of asking.
#pragma once

#include <QString>

namespace gemmscope {

class Session;

// The id of such a run (the worklog's step 3 where the session has it: its coalescing is the
// ladder's clearest lesson; else the last such run), or the last finished run, or empty.
QString runToExplain(const Session &session);

} // namespace gemmscope
