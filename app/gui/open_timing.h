// `gemmscope --measure-open FILE`: what a large session costs the user who opens it, in numbers.
// The file is opened in the real window as a drop or the command line does (FileOpener), while a
// 5 ms timer measures the UI thread's stalls; printed: when the read was done and the session
// shown, when the results table first painted it, the longest stall meanwhile, then the time of
// each workspace switch (shown and painted), and the process's peak memory.
#pragma once

#include <QString>

namespace gemmscope {

class EventTimingApplication;

int measureOpen(EventTimingApplication &app, const QString &file);

} // namespace gemmscope
