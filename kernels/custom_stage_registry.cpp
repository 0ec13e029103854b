// The custom stages registered in this process. Readers (findStage() from any thread: the GUI,
// the runner's job thread, sweeps) share a lock; registering takes it alone. A deque keeps every
// entry where it is, so references handed out stay valid while others are added.
#include "custom_stage.h"

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace gemmscope {
namespace {

struct CustomRegistry {
    std::shared_mutex mutex;
    std::deque<StageInfo> stages;
    std::unordered_map<std::string, const StageInfo *> byKey;
};

CustomRegistry &registry()
{
    static CustomRegistry r;
    return r;
}

} // namespace

const StageInfo &registerCustomStage(StageInfo stage)
{
    if (!isCustomStageKey(stage.key))
        stage.key = customStageKey(stage.sourceText);
    stage.isCustom = true;
    stage.id = StageId(stage.key);
    CustomRegistry &r = registry();
    std::unique_lock lock(r.mutex);
    if (const auto it = r.byKey.find(stage.key); it != r.byKey.end())
        return *it->second;
    const StageInfo &added = r.stages.emplace_back(std::move(stage));
    r.byKey.emplace(added.key, &added);
    return added;
}

const StageInfo *findCustomStage(std::string_view key)
{
    CustomRegistry &r = registry();
    std::shared_lock lock(r.mutex);
    const auto it = r.byKey.find(std::string(key));
    return it == r.byKey.end() ? nullptr : it->second;
}

CustomStageParse registerCustomKernel(const CustomKernelSource &source)
{
    CustomStageParse parsed = parseCustomStage(source);
    if (parsed.stage)
        parsed.stage = registerCustomStage(std::move(*parsed.stage));
    return parsed;
}

std::vector<const StageInfo *> customStages()
{
    CustomRegistry &r = registry();
    std::shared_lock lock(r.mutex);
    std::vector<const StageInfo *> out;
    out.reserve(r.stages.size());
    for (const StageInfo &s : r.stages)
        out.push_back(&s);
    return out;
}

} // namespace gemmscope
