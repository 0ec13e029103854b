// The embedded resources (default session) live in the static gemmscope_gui library, whose
// resource initializer the linker would drop: call this before reading ":/gemmscope/...".
#pragma once

namespace gemmscope {
void initResources();
}
