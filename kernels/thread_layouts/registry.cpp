// The registry: every ThreadLayout's object, registered once here. A new layout is its file in this
// folder (a LayoutScheme subclass and the function that returns its one object) and a line in each
// list below.
#include "layout_scheme.h"

#include <array>
#include <cstddef>

namespace gemmscope {

// One file each, in this folder.
const LayoutScheme &contiguousLayout();     // contiguous.cpp
const LayoutScheme &stridedLayout();        // strided.cpp
const LayoutScheme &warpTiledLayout();      // warp_tiled.cpp
const LayoutScheme &mmaFragmentLayout();    // mma_fragment_tiles.cpp
const LayoutScheme &wgmmaWarpgroupLayout(); // wgmma_warpgroups.cpp

const LayoutScheme &layoutScheme(ThreadLayout id)
{
    static const std::array<const LayoutScheme *, kThreadLayoutCount> byId = [] {
        std::array<const LayoutScheme *, kThreadLayoutCount> table{};
        for (const LayoutScheme *layout : {&contiguousLayout(), &stridedLayout(), &warpTiledLayout(),
                                           &mmaFragmentLayout(), &wgmmaWarpgroupLayout()})
            table[std::size_t(layout->id())] = layout;
        return table;
    }();
    const auto index = std::size_t(id);
    return index < byId.size() && byId[index] ? *byId[index] : contiguousLayout();
}

} // namespace gemmscope
