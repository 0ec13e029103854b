// The registry: every TileLoadScheme's object, registered once here. A new scheme is its file in
// this folder (a LoadScheme subclass and the function that returns its one object) and a line in
// each list below.
#include "load_scheme.h"

#include <array>
#include <cstddef>

namespace gemmscope {

// One file each, in this folder.
const LoadScheme &oneElementPerThreadLoads(); // one_element_per_thread.cpp
const LoadScheme &guardedStripLoads();        // guarded_strips.cpp
const LoadScheme &cooperativeLoads();         // cooperative_loads.cpp
const LoadScheme &cooperativeVec4Loads();     // cooperative_loads.cpp
const LoadScheme &asyncCopies();              // async_copies.cpp
const LoadScheme &asyncCopiesVec4();          // async_copies.cpp
const LoadScheme &tmaSwizzled128Copies();     // tma_swizzled128.cpp
const LoadScheme &notModelledLoads();         // not_modelled.cpp

const LoadScheme &loadScheme(TileLoadScheme id)
{
    static const std::array<const LoadScheme *, kTileLoadSchemeCount> byId = [] {
        std::array<const LoadScheme *, kTileLoadSchemeCount> table{};
        for (const LoadScheme *scheme :
             {&oneElementPerThreadLoads(), &guardedStripLoads(), &cooperativeLoads(), &cooperativeVec4Loads(),
              &asyncCopies(), &asyncCopiesVec4(), &tmaSwizzled128Copies(), &notModelledLoads()})
            table[std::size_t(scheme->id())] = scheme;
        return table;
    }();
    const auto index = std::size_t(id);
    return index < byId.size() && byId[index] ? *byId[index] : notModelledLoads();
}

} // namespace gemmscope
