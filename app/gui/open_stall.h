// `gemmscope --measure-open-stall FILE`: opens a session in the real window, as File > Open does,
// shows its first profile in every profile view (the panel set to that profile's configuration,
// the Kernel and Counters workspaces shown in turn) while a 5 ms timer measures the UI thread's
// longest stall, and prints it with the events that filled it. What a big recorded profile costs
// the user who opens it.
#pragma once

#include <QString>

namespace gemmscope {

class EventTimingApplication;

int measureOpenStall(EventTimingApplication &app, const QString &sessionFile);

} // namespace gemmscope
