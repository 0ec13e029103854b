// A kernel's problems where the editor marks them: NVRTC's log (and ptxas's lines in it) read into
// one problem per message, each with the file it names, its line, its severity and its sentence.
// The log is text from a compiler the user feeds with any source, so it is read as data: any size
// (a 5 MB log is read in one pass and its problems are capped), any bytes (markup stays text,
// control characters are dropped), never a crash.
#pragma once

#include <QList>
#include <QString>
#include <QStringView>

namespace gemmscope {

struct KernelProblem {
    enum class Severity { Error, Warning };
    QString file; // the file the compiler names ("my_gemm.cuh", "cooperative_load.cuh"); empty: none
    int line = 0; // 1-based; 0: the whole program (a ptxas error, "1 error detected ...")
    QString message;
    Severity severity = Severity::Error;
    friend bool operator==(const KernelProblem &, const KernelProblem &) = default;
};

// At most this many problems come back from one log; the last one then says how many more there
// were (a source that trips the same error in every line is still one screen of problems).
inline constexpr int kMaxLogProblems = 200;
// A message longer than this is cut (with "…"): a problem is a sentence, not a file.
inline constexpr int kMaxProblemMessageLength = 500;

// Reads NVRTC's log: `file(12): error: msg`, `file(12): warning #177-D: msg`, clang-style
// `file:12:5: error: msg`, ptxas's `ptxas error   : msg` and `ptxas warning : msg` (no line), and
// `error: msg` alone. The source lines and carets NVRTC echoes under a message, and its closing
// "N errors detected in the compilation of ..." line, are not problems of their own.
QList<KernelProblem> compileLogProblems(QStringView log);

// "3 errors, 1 warning" — for the problems list's heading.
QString problemCountText(const QList<KernelProblem> &problems);

} // namespace gemmscope
