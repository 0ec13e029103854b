// Reading a kernel's machine code: PTX (from NVRTC, always available) and SASS (nvdisasm's text,
// where the CUDA Toolkit has nvdisasm). Each instruction keeps the source line it came from
// (`.loc` in PTX, `//## File ..., line N` in nvdisasm -g output, both from -lineinfo), the hot
// inner loop is found from the backward branches, and instructions are counted by the classes a
// GEMM is judged by (FFMA against shared and global loads, their widths, barriers).
// Plain C++20, no Qt: the runner, the GUI and the tests share it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemmscope {

enum class CodeLevel { Ptx, Sass };

struct CodeLine {
    std::string text; // the line as the tool printed it, without its trailing newline
    bool isInstruction = false;
    std::string opcode;     // "FFMA", "LDS.128", "fma.rn.f32", "ld.shared.v4.f32"; empty otherwise
    std::string category;   // instructionCategory(opcode); empty for non-instructions
    std::string sourceFile; // file of the source line, as the compiler recorded it; empty when unknown
    int sourceLine = -1;    // 1-based line in sourceFile, -1 when unknown
};

struct LoopRange {
    int first = 0; // index into MachineCode::lines of the loop's first line (its label / target)
    int last = 0;  // index of the backward branch that closes it
};

struct MachineCode {
    CodeLevel level = CodeLevel::Ptx;
    std::vector<CodeLine> lines;
    // The loop with the most multiply-adds (FFMA, HMMA, HGMMA): for a GEMM, the loop over k-tiles with the
    // unrolled inner product. Empty when the code has no backward branch.
    std::optional<LoopRange> innerLoop;
};

MachineCode parsePtx(std::string_view ptx);
MachineCode parseSass(std::string_view sass); // nvdisasm or cuobjdump -sass text

// The class an opcode is counted in: "FFMA", "LDS", "LDS.64", "LDS.128", "STS", "STS.64",
// "STS.128", "LDG", "LDG.64", "LDG.128", "STG", "STG.64", "STG.128", "LDGSTS" (cp.async),
// "BAR", the tensor-core classes "HMMA" (mma.sync), "HGMMA" (wgmma), "LDSM" (ldmatrix),
// "UTMALDG" (a TMA tensor copy) and "SYNCS" (mbarrier arrive / wait), and "other". PTX opcodes map
// to the SASS class they become (fma.rn.f32 -> FFMA, ld.shared.v4.f32 -> LDS.128, cp.async.* ->
// LDGSTS, cp.async.bulk.tensor.* -> UTMALDG).
std::string instructionCategory(std::string_view opcode);

// Instructions per category over the whole code, or over the inner loop only.
std::map<std::string, int> instructionMix(const MachineCode &code, bool innerLoopOnly = false);

} // namespace gemmscope
