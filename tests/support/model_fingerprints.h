// Test helper: a fingerprint of everything the mapping and access models say about the loads and
// the owners of every catalog stage (each parameter set of its presets and its defaults, at a few
// sizes), one line per parameter set. tests/data/model_fingerprints.txt holds the lines the models
// gave before the load schemes became objects (main at 676568c) and, for the owners section, before
// the thread layouts did (main at b079338); tst_load_schemes checks they still give them.
// A line is "<stage> <params>|<section>=<digest> ...": the digest is FNV-1a 64 over the section's
// text, so a mismatch names the stage and the part of the model that moved.
#pragma once

#include "access_model.h"
#include "mapping_model.h"
#include "stage_catalog.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace gemmscope::test {

namespace fingerprint_detail {

inline std::string digest(const std::string &text)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", (unsigned long long)h);
    return out;
}

inline void put(std::ostream &o, const WarpLanes &lanes)
{
    for (const LaneAccess &l : lanes)
        o << (l.active ? 1 : 0) << ':' << l.address << ':' << l.thread << ':' << l.bytes << ',';
}

inline void put(std::ostream &o, const ClassSummary &c)
{
    o << c.requests << '/' << c.sectors << '/' << c.usefulBytes << ';';
}

inline void putShape(std::ostream &o, const KernelShape &s)
{
    o << s.bm << ' ' << s.bn << ' ' << s.bk << ' ' << s.tm << ' ' << s.tn << ' ' << s.blockX << ' '
      << s.blockY << ' ' << s.padB << ' ' << s.buffers << ' ' << s.transposedA << ' ' << s.padA << ' '
      << s.vectorWidth << ' ' << s.ldmatrixA << ' ' << s.usesSharedMemory << ' ' << s.wm << ' ' << s.wn << ' '
      << s.firstConsumerThread << ' ' << s.consumerThreads << ' ' << s.transposedD << ' ' << int(s.layout)
      << ' ';
    // NotModelled by name: a scheme added before it (CONTRIBUTING.md) moves its number.
    if (s.loads == TileLoadScheme::NotModelled)
        o << "not modelled";
    else
        o << int(s.loads);
}

// Which tile element every thread loads at every instruction, with the counts and widths.
inline void putLoads(std::ostream &o, const KernelShape &s)
{
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
        const int count = loadInstructionCount(s, op);
        o << operandName(op) << ' ' << count << ' ' << loadWidth(s, op) << ':';
        for (int i = -1; i <= count; ++i) // one past each end: nothing there
            for (int tid = 0; tid < s.threads(); ++tid)
                if (const auto c = loadedElement(s, op, i, tid))
                    o << i << '.' << tid << '=' << c->row << ',' << c->col << ' ';
        o << '\n';
    }
    for (int tid = 0; tid < s.threads(); ++tid)
        o << tileLoadsOf(s, tid).size() << ' ';
}

// Who owns every output (the store loop's map, ownerOf and fragmentOwnerOf of each cell) and what
// each thread reads in its inner loop: what the thread layout answers.
inline void putOwners(std::ostream &o, const KernelShape &s)
{
    for (int owner : ownerMap(s))
        o << owner << ',';
    o << '\n';
    for (int row = 0; row < s.bm; ++row)
        for (int col = 0; col < s.bn; ++col) {
            const FragmentOwner f = fragmentOwnerOf(s, row, col);
            o << ownerOf(s, row, col).tid << ':' << f.tid << ':' << f.reg << ':' << f.tileRow << ':'
              << f.tileCol << ':' << f.accumulator << ',';
        }
    o << '\n';
    for (int tid = 0; tid < s.threads(); ++tid) {
        for (const TileCell &c : outputsOf(s, tid))
            o << c.row << '.' << c.col << ',';
        o << 'a';
        for (int row : aRowsRead(s, tid))
            o << row << ',';
        o << 'b';
        for (int col : bColsRead(s, tid))
            o << col << ',';
        o << ';';
    }
}

inline void putGlobal(std::ostream &o, const KernelShape &s, const AccessContext &ctx)
{
    for (int w = 0; w < s.warps(); ++w)
        for (const GlobalAccess &g : globalAccesses(s, ctx, w)) {
            o << g.label << '|' << int(g.operand) << int(g.kind) << ' ' << g.warp << ' ' << g.instruction
              << ' ' << g.activeLanes << ' ' << g.uniqueBytes << ':';
            put(o, g.lanes);
            for (long long sector : g.sectors)
                o << sector << ',';
            o << '\n';
        }
}

inline void putShared(std::ostream &o, const KernelShape &s, const AccessContext &ctx, bool allK)
{
    for (int w = 0; w < s.warps(); ++w)
        for (const SharedAccess &a : sharedAccesses(s, ctx, w, allK)) {
            o << a.label << '|' << int(a.operand) << int(a.kind) << ' ' << a.warp << ' ' << a.activeLanes
              << ' ' << a.conflictDegree << ' ' << a.ldmatrixMatrices << ' ' << a.tensorCoreRead << ':';
            put(o, a.lanes);
            for (int b : a.bankOfLane)
                o << b << ',';
            for (int d : a.distinctWordsPerBank)
                o << d << ',';
            o << '\n';
        }
}

inline void putCounts(std::ostream &o, const KernelShape &s, const ProblemSize &size)
{
    if (const auto c = kernelInstructionCounts(s, size))
        o << c->globalLoads << ' ' << c->globalStores << ' ' << c->sharedLoads << ' ' << c->sharedStores
          << ' ' << c->transpose.globalLoads << ' ' << c->transpose.globalStores << ' '
          << c->transpose.sharedLoads << ' ' << c->transpose.sharedStores;
    else
        o << "none";
    o << '|';
    AccessContext ctx;
    ctx.size = size;
    if (accessContextError(s, ctx).empty()) {
        const AccessSummary b = summarizeBlock(s, ctx);
        for (const ClassSummary *c :
             {&b.loadA, &b.loadB, &b.storeC, &b.globalLoads, &b.sharedLoads, &b.sharedStores})
            put(o, *c);
    }
    o << '|';
    if (const auto l = summarizeLaunch(s, size))
        for (const ClassSummary *c :
             {&l->loadA, &l->loadB, &l->storeC, &l->globalLoads, &l->sharedLoads, &l->sharedStores})
            put(o, *c);
    o << '\n';
}

inline void putBoxes(std::ostream &o, const KernelShape &s, const AccessContext &ctx)
{
    for (const TmaBox &b : tmaBoxes(s, ctx))
        o << int(b.operand) << b.tensor << ' ' << b.rows << 'x' << b.cols << ' ' << b.firstRow << ','
          << b.firstCol << ' ' << b.stage << ' ' << b.sharedByte << ' ' << b.bytes() << ' ' << b.atoms()
          << ';';
    o << '\n';
}

// The contexts a parameter set is looked at in: block (0, 0) at k-step 0, and the last block at
// k-step 1 (the second buffer), at sizes the tiles divide; the raw sizes only for the refusals.
inline std::vector<AccessContext> contextsOf(const KernelShape &s)
{
    std::vector<AccessContext> out;
    for (const ProblemSize raw :
         {ProblemSize{1024, 1024, 1024}, ProblemSize{2048, 512, 256}, ProblemSize{8192, 4096, 6144}}) {
        AccessContext first;
        first.size = roundedUpToTiles(s, raw);
        out.push_back(first);
        AccessContext last = first;
        last.blockRow = first.size.m / s.bm - 1;
        last.blockCol = first.size.n / s.bn - 1;
        last.kStep = first.size.k / s.bk > 1 ? 1 : 0;
        out.push_back(last);
    }
    return out;
}

inline std::string fingerprintLine(const StageInfo &stage, const ParamValues &params)
{
    std::string line = stage.key + ' ' + formatParams(params) + '|';
    const KernelShapeResult r = kernelShape(stage.id, params);
    if (!r.shape)
        return line + "error=" + digest(r.error);
    const KernelShape &s = *r.shape;
    std::map<std::string, std::ostringstream> sections;
    putShape(sections["shape"], s);
    putLoads(sections["loads"], s);
    putOwners(sections["owners"], s);
    for (const ProblemSize raw : {ProblemSize{1024, 1024, 1024}, ProblemSize{1000, 1000, 1000},
                                  ProblemSize{8192, 4096, 6144}, ProblemSize{2048, 512, 256}}) {
        AccessContext ctx;
        ctx.size = raw;
        sections["refusal"] << accessContextError(s, ctx) << '\n';
        putCounts(sections["counts"], s, roundedUpToTiles(s, raw));
    }
    for (const AccessContext &ctx : contextsOf(s)) {
        sections["refusal"] << accessContextError(s, ctx) << '\n';
        if (!accessContextError(s, ctx).empty())
            continue;
        putGlobal(sections["global"], s, ctx);
        putShared(sections["shared"], s, ctx, false);
        putShared(sections["sharedAllK"], s, ctx, true);
        putBoxes(sections["tma"], s, ctx);
    }
    for (auto &[name, text] : sections)
        line += ' ' + name + '=' + digest(text.str());
    return line;
}

} // namespace fingerprint_detail

// One line per stage with a source and each distinct parameter set: its defaults, its presets', and
// the defaults with one parameter at the smallest or largest value the catalog accepts there.
inline std::vector<std::string> modelFingerprints()
{
    std::vector<std::string> lines;
    for (const StageInfo &stage : stages()) {
        if (stage.isLibrary)
            continue;
        std::vector<ParamValues> sets{defaultParams(stage.id)};
        const auto add = [&](const ParamValues &p) {
            if (std::find(sets.begin(), sets.end(), p) == sets.end())
                sets.push_back(p);
        };
        for (const Preset &p : presets())
            if (p.stage == stage.id)
                add(p.params);
        for (const ParamSpec &spec : stage.params) {
            const std::vector<int> ends = spec.choices.empty()
                                              ? std::vector<int>{spec.min, spec.max}
                                              : std::vector<int>{spec.choices.front(), spec.choices.back()};
            for (int v : ends) {
                ParamValues p = defaultParams(stage.id);
                p[spec.name] = v;
                if (violations(stage.id, p, ProblemSize{1024, 1024, 1024}).empty())
                    add(p);
            }
        }
        for (const ParamValues &params : sets)
            lines.push_back(fingerprint_detail::fingerprintLine(stage, params));
    }
    return lines;
}

} // namespace gemmscope::test
