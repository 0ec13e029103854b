#include "sweep_plan.h"

#include <algorithm>

namespace gemmscope {

namespace {

const ParamSpec *findParam(const StageInfo &stage, const std::string &name)
{
    for (const ParamSpec &p : stage.params)
        if (p.name == name)
            return &p;
    return nullptr;
}

// The axis's values as given, each checked against the parameter's legal values, or all of them.
bool axisValues(const ParamSpec &param, const SweepAxis &axis, std::vector<int> &out, std::string &error)
{
    const std::vector<int> legal = legalValues(param);
    if (axis.values.empty()) {
        out = legal;
        return true;
    }
    out.clear();
    for (int v : axis.values) {
        if (std::find(legal.begin(), legal.end(), v) == legal.end()) {
            error = param.name + " cannot be " + std::to_string(v) + ": it takes " +
                    (param.choices.empty() ? std::to_string(param.min) + " to " + std::to_string(param.max)
                                           : "one of its choices") +
                    ".";
            return false;
        }
        if (std::find(out.begin(), out.end(), v) == out.end())
            out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return true;
}

} // namespace

std::vector<int> legalValues(const ParamSpec &spec)
{
    if (!spec.choices.empty())
        return spec.choices;
    std::vector<int> values;
    for (long long v = spec.min; v <= spec.max; v += std::max(1, spec.step))
        values.push_back(int(v));
    return values;
}

std::size_t SweepPlan::validPointCount() const
{
    return std::size_t(
        std::count_if(points.begin(), points.end(), [](const SweepPoint &p) { return p.valid(); }));
}

const SweepCell *SweepPlan::cellAt(int xIndex, int yIndex) const
{
    if (xIndex < 0 || yIndex < 0 || xIndex >= int(xValues.size()) || yIndex >= int(yValues.size()))
        return nullptr;
    return &cells[std::size_t(yIndex) * xValues.size() + std::size_t(xIndex)];
}

std::vector<ProblemSize> sizeSweepSizes(SizeShape shape, long long from, long long to, bool midpoints)
{
    std::vector<long long> largest;
    for (long long p = 1; p <= to; p *= 2) {
        if (p >= from)
            largest.push_back(p);
        if (midpoints && p >= 2 && p + p / 2 >= from && p + p / 2 <= to)
            largest.push_back(p + p / 2);
    }
    std::sort(largest.begin(), largest.end());
    std::vector<ProblemSize> out;
    for (long long s : largest) {
        if (shape == SizeShape::Square)
            out.push_back({s, s, s});
        else if (s % 4 == 0) // 8192:4096:6144 = 4:2:3, so M = s, N = s/2, K = 3s/4
            out.push_back({s, s / 2, s / 4 * 3});
    }
    return out;
}

namespace {

SweepPlan planSizeSweep(const SweepSpec &spec)
{
    SweepPlan plan;
    plan.spec = spec;
    if (spec.series.empty() || spec.sizes.empty()) {
        plan.error = "A size sweep needs at least one stage and one size.";
        return plan;
    }
    for (const SizeSeries &s : spec.series)
        if (!findStage(s.stage.key())) {
            plan.error = "There is no stage \"" + s.stage.str() + "\" in the catalog.";
            return plan;
        }
    const std::size_t total = spec.series.size() * spec.sizes.size();
    if (total > spec.maxPoints) {
        plan.error = "This sweep has " + std::to_string(total) + " configurations, more than the " +
                     std::to_string(spec.maxPoints) + " a sweep may have.";
        return plan;
    }
    for (std::size_t i = 0; i < spec.sizes.size(); ++i)
        plan.xValues.push_back(int(i));
    for (std::size_t i = 0; i < spec.series.size(); ++i)
        plan.yValues.push_back(int(i));
    for (std::size_t yi = 0; yi < spec.series.size(); ++yi) {
        for (std::size_t xi = 0; xi < spec.sizes.size(); ++xi) {
            SweepCell cell;
            cell.xIndex = cell.x = int(xi);
            cell.yIndex = cell.y = int(yi);
            SweepPoint point;
            point.cell = int(plan.cells.size());
            point.stage = spec.series[yi].stage;
            point.size = spec.sizes[xi];
            point.params = spec.series[yi].params;
            point.invalid = violations(point.stage, point.params, point.size);
            if (point.valid())
                cell.validPoints = 1;
            else
                cell.invalidReason = point.invalid.front();
            cell.points.push_back(int(plan.points.size()));
            plan.points.push_back(std::move(point));
            plan.cells.push_back(std::move(cell));
        }
    }
    return plan;
}

} // namespace

SweepPlan planSweep(const SweepSpec &spec)
{
    if (spec.kind == SweepKind::Sizes)
        return planSizeSweep(spec);
    SweepPlan plan;
    plan.spec = spec;
    const StageInfo *stage = findStage(spec.stage.key());
    if (!stage) {
        plan.error = "There is no stage \"" + spec.stage.str() + "\" in the catalog.";
        return plan;
    }
    if (stage->isLibrary || stage->params.size() < 2) {
        plan.error = "A sweep needs a stage with at least two parameters; " + stage->key + " has " +
                     std::to_string(stage->params.size()) + ".";
        return plan;
    }
    const ParamSpec *xParam = findParam(*stage, spec.x.param);
    const ParamSpec *yParam = findParam(*stage, spec.y.param);
    if (!xParam || !yParam) {
        plan.error = "The stage " + stage->key + " has no parameter \"" +
                     (xParam ? spec.y.param : spec.x.param) + "\".";
        return plan;
    }
    if (xParam == yParam) {
        plan.error = "The two axes must be two different parameters (both are " + xParam->name + ").";
        return plan;
    }
    if (!axisValues(*xParam, spec.x, plan.xValues, plan.error) ||
        !axisValues(*yParam, spec.y, plan.yValues, plan.error))
        return plan;

    // The other parameters: one value each (fixed), or every legal value (best over the rest).
    const ParamValues defaults = defaultParams(spec.stage);
    std::vector<std::pair<std::string, std::vector<int>>> rest;
    for (const ParamSpec &p : stage->params) {
        if (&p == xParam || &p == yParam)
            continue;
        if (spec.rest == SweepRest::BestOverRest) {
            rest.emplace_back(p.name, legalValues(p));
        } else {
            const auto it = spec.fixed.find(p.name);
            rest.emplace_back(p.name,
                              std::vector<int>{it != spec.fixed.end() ? it->second : defaults.at(p.name)});
        }
    }
    std::size_t perCell = 1;
    for (const auto &[name, values] : rest)
        perCell *= values.size();
    const std::size_t total = perCell * plan.xValues.size() * plan.yValues.size();
    if (total > spec.maxPoints) {
        plan.error = "This sweep has " + std::to_string(total) + " configurations, more than the " +
                     std::to_string(spec.maxPoints) +
                     " a sweep may have: fix some parameters or narrow an axis.";
        return plan;
    }

    plan.cells.reserve(plan.xValues.size() * plan.yValues.size());
    plan.points.reserve(total);
    for (std::size_t yi = 0; yi < plan.yValues.size(); ++yi) {
        for (std::size_t xi = 0; xi < plan.xValues.size(); ++xi) {
            SweepCell cell;
            cell.xIndex = int(xi);
            cell.yIndex = int(yi);
            cell.x = plan.xValues[xi];
            cell.y = plan.yValues[yi];
            const int cellIndex = int(plan.cells.size());
            for (std::size_t combo = 0; combo < perCell; ++combo) {
                SweepPoint point;
                point.cell = cellIndex;
                point.stage = spec.stage;
                point.size = spec.size;
                point.params[xParam->name] = cell.x;
                point.params[yParam->name] = cell.y;
                std::size_t rem = combo;
                for (auto it = rest.rbegin(); it != rest.rend(); ++it) { // the last parameter varies fastest
                    point.params[it->first] = it->second[rem % it->second.size()];
                    rem /= it->second.size();
                }
                point.invalid = violations(spec.stage, point.params, spec.size);
                if (point.valid())
                    ++cell.validPoints;
                else if (cell.invalidReason.empty())
                    cell.invalidReason = point.invalid.front();
                cell.points.push_back(int(plan.points.size()));
                plan.points.push_back(std::move(point));
            }
            if (cell.valid())
                cell.invalidReason.clear();
            else if (cell.points.size() > 1)
                cell.invalidReason = "None of the " + std::to_string(cell.points.size()) +
                                     " configurations of this cell may run; the first: " + cell.invalidReason;
            plan.cells.push_back(std::move(cell));
        }
    }
    return plan;
}

std::string sweepPointKey(StageId stage, const ParamValues &params, const ProblemSize &size)
{
    return stage.str() + "|" + formatParams(params) + "|" + std::to_string(size.m) + "x" +
           std::to_string(size.n) + "x" + std::to_string(size.k);
}

} // namespace gemmscope
